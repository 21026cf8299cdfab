"""What every face of the score pad says the same way: how to enter a hand, a row, the standing, a save.

The line mode (:mod:`corazones.cli.pad_cmd`) and the full-screen sheet
(:mod:`corazones.tui.pad`) print the same words from here, in the language of
the ``gettext`` they pass; every number comes from :class:`~corazones.core.pad.Pad`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

from corazones.core.cards import HEARTS
from corazones.core.errors import Message, Plural
from corazones.core.pad import Entry, Layout, Pad, glyph, layout
from corazones.core.pad.grammar import LINE_HINTS, entry_text
from corazones.core.text import safe_line
from corazones.i18n import N_, error_text
from corazones.i18n.oserrors import os_reason_text
from corazones.services.files import same_file, save_atomic

DIRECTIONS = {"left": N_("left"), "right": N_("right"), "across": N_("across"), "hold": N_("no pass")}
MOON_NAMES = {"add_to_others": N_("adds {total} to the others"), "subtract_from_self": N_("subtracts {total}")}

Gettext = Callable[[str], str]

#: ``save`` and ``csv`` typed without a file (and none given with ``--save``, ``--load`` or ``--csv``).
NAME_JSON = N_("name the file, e.g. save pad.json")
NAME_CSV = N_("name the file, e.g. csv pad.csv")
#: Why a CSV is not written where the pad itself is kept (``--save``, ``--load``, a ``save FILE``): the sheet would
#: replace the pad, and the file could no longer be loaded.
OWN_FILE = N_("{path} is the pad's own file ({flag} {other}): the CSV would replace it; name another file")
#: Why ``save FILE`` does not save the pad where ``--csv`` writes the sheet when leaving.
CSV_FILE = N_(
    "{path} is where --csv {other} writes the sheet when you leave, which would replace the pad; name another file"
)
#: ``quit`` (line mode on a terminal) with hands not saved: the first ``quit`` says so, the second leaves.
ASK_LINE = N_("{hands} not saved: type save FILE first, or quit again to leave without saving.")
#: Ctrl+Q in the sheet with hands not saved: the first says so, the second leaves.
ASK_SHEET = N_("{hands} not saved: type save FILE first, or press Ctrl+Q again to leave without saving.")
#: Said (on standard error) when the pad is left with hands that were saved nowhere.
LEFT_NOWHERE = N_("{hands} not saved: --save FILE saves the pad after every hand, or type save FILE before you quit.")
#: Said (on standard error) when the pad is left with hands that its last save could not keep.
LEFT_FAILED = N_("{hands} not saved: the last save, to {path}, failed.")

#: What ``help`` says, in the line mode and in the sheet alike (both take every command listed).
HELP_LINES = (
    N_("Commands: a hand line; p POINTS...; undo; edit N HAND; del N; sheet; save FILE; csv FILE; help; quit"),
    N_("Players are named by name, its beginning or number; CARD=player (QS=Ana), player:CARDS (Ana:AH,KH)."),
    N_("moon=add or moon=sub when someone took everything; shot=player in the points way when needed;"),
    N_("revoke=player (revoke=player! if made to avoid taking all the hearts); # starts a note."),
)
#: ``edit`` or ``del`` typed without the hand's number.
NEED_NUMBER = N_("give the hand's number, e.g. edit 2 3 4 6 0 QS=Ana")
#: The words of the commands, in English and in Spanish (a hand line never begins with one of them).
HELP_WORDS = ("help", "ayuda", "?")
QUIT_WORDS = ("q", "quit", "exit", "salir")
SHEET_WORDS = ("sheet", "hoja")
UNDO_WORDS = ("undo", "deshacer")
EDIT_WORDS = ("edit", "editar")
DEL_WORDS = ("del", "borrar")


def how_to_enter(pad: Pad, gettext: Gettext, suit: int = HEARTS) -> str:
    """One line telling what a hand line holds under these rules, with an example."""
    lay = layout(pad.rules, suit)
    names = " ".join(pad.names)
    named = " ".join(glyph(c) for c, _, _ in lay.named)
    parts = []
    if lay.counted:
        parts.append(
            gettext("{cards} cards taken by each player in order ({names})").format(cards=lay.counted_name, names=names)
        )
    if named:
        parts.append(gettext("who took {cards}").format(cards=named))
    if pad.rules.auction:
        parts.append(gettext("the auction as suit=LETTER by=PLAYER bid=CHIPS (left out when nobody won it)"))
    example = entry_text(pad, _example(pad, lay))
    return gettext("Enter each hand: {what}, e.g. {example}").format(what="; ".join(parts), example=example)


def not_accepted(gettext: Gettext, error: object) -> str:
    """``Not accepted: <reason>`` for a hand line, with how to write the fix where a line has a word for it."""
    reason = error_text(gettext, error)
    hint = LINE_HINTS.get(getattr(error, "template", ""))
    if hint is not None:
        reason += " (" + gettext(hint) + ")"
    return gettext("Not accepted: {reason}").format(reason=reason)


def _example(pad: Pad, lay: Layout) -> Entry:
    n = pad.players
    counts = [0] * n
    if lay.counted:
        counts[0] = lay.counted_in_play - (n - 1)
        for s in range(1, n):
            counts[s] = 1
    cards: dict[str | int, Sequence[int]] = {c: tuple((i + 1) % n for i in range(k)) for c, _, k in lay.named}
    return Entry.quick(counts, cards)


def row_lines(pad: Pad, index: int, gettext: Gettext) -> list[str]:
    """What line mode prints after hand ``index``: the hand's scores, the totals, chips, the moon."""
    r = pad.rows[index]
    names = pad.names
    lines = [
        gettext("Hand {n}: {scores}").format(
            n=index + 1, scores=", ".join(f"{names[s]} {r.scores[s]}" for s in range(pad.players))
        )
    ]
    if r.shooter is not None and r.moon_choice:
        total = layout(pad.rules, r.penalty_suit).pos_total
        lines.append(
            gettext("{player} shot the moon and {how}.").format(
                player=names[r.shooter], how=gettext(MOON_NAMES[r.moon_choice]).format(total=total)
            )
        )
    if pad.rules.partnership:
        totals = pad_side_totals(pad, r.totals)
        lines.append(
            gettext("Totals: {values}").format(
                values=", ".join(f"{pad.side_name(i)} {t}" for i, t in enumerate(totals))
            )
        )
    else:
        lines.append(
            gettext("Totals: {values}").format(
                values=", ".join(f"{names[s]} {r.totals[s]}" for s in range(pad.players))
            )
        )
    if pad.uses_chips:
        lines.append(
            gettext("Chips: {values}; pool {pool}").format(
                values=", ".join(f"{names[s]} {r.chips[s]}" for s in range(pad.players)), pool=r.pool
            )
        )
    if r.entry.revokes:
        lines.append(gettext("Revoke: {players}").format(players=", ".join(names[v.seat] for v in r.entry.revokes)))
    return lines


def pad_side_totals(pad: Pad, totals: tuple[int, ...]) -> list[int]:
    return [sum(totals[s] for s in team) for team in pad.rules.teams]


def standing_lines(pad: Pad, gettext: Gettext) -> list[str]:
    """Who leads, who is near the target, the winner and average stakes."""
    out = []
    names = [pad.side_name(i) for i in range(len(pad.rules.teams))] if not pad.uses_chips else list(pad.names)
    if pad.over:
        out.append(
            gettext("Game over. Winner(s): {players}").format(players=", ".join(pad.names[s] for s in pad.winners))
        )
    elif pad.rows:
        out.append(gettext("Leading: {players}").format(players=", ".join(names[i] for i in pad.leaders())))
        near = pad.near_target()
        if near:
            out.append(
                gettext("Close to {target}: {players}").format(
                    target=pad.rules.target, players=", ".join(names[i] for i in near)
                )
            )
        if pad.carry_declarer is not None:
            out.append(
                gettext("The pool carries over: {player} names the next suit.").format(
                    player=pad.names[pad.carry_declarer]
                )
            )
    stakes = pad.stakes()
    if stakes is not None and pad.rows:
        out.append(
            gettext("Average stakes (pays + / draws -): {values}").format(
                values=", ".join(f"{pad.names[s]} {_fraction(x)}" for s, x in enumerate(stakes))
            )
        )
    return out


def _fraction(x: Fraction) -> str:
    return f"{float(x):+g}" if x.denominator != 1 else f"{int(x):+d}"


def save_or_reason(path: Path, text: str, gettext: Gettext, wait: bool = True) -> str | None:
    """Save ``text`` to ``path`` (:func:`save_atomic`); ``None`` when saved, else the sentence saying why not.

    Every face of the pad says a failed save the same way and keeps the pad as
    it is, so a hand is never lost to a folder that refuses the file.  ``wait=False``: a named pipe
    without a reader is a reason, not a wait (:func:`save_atomic`).
    """
    try:
        save_atomic(path, text, wait)
    except OSError as e:
        return gettext(N_("Could not save to {path}: {error}")).format(
            path=safe_line(str(path), 200), error=os_reason_text(gettext, e)
        )
    return None


def _shown(path: Path) -> str:
    return repr(safe_line(str(path), 200))


@dataclass
class PadFiles:
    """The files of one pad while it is kept, and what of it is not saved yet: the same for every face.

    ``save`` is ``--save``; without it a pad opened with ``--load`` from a regular file is saved back to that
    file after every change (it goes on with it), so entering a hand never leaves the file behind.  ``saved`` is
    the hands as the last save (or the loaded file) holds them; ``failed`` the reason the last save failed, which
    makes the run end with exit 1.
    """

    pad: Pad
    save: Path | None = None
    load: Path | None = None
    csv: Path | None = None
    saved: tuple[Entry, ...] = ()
    failed: str | None = None
    failed_path: Path | None = None
    #: Files the pad was saved to by ``save FILE``: the pad's own files too.
    written: list[Path] = field(default_factory=list)

    #: Where every change is saved: ``--save``, else the ``--load`` file when it is a regular file (not a pipe).
    target: Path | None = field(init=False, default=None)

    def __post_init__(self) -> None:
        self.saved = tuple(self.pad.entries)
        if self.save is not None:
            self.target = self.save
        elif self.load is not None and self.load.is_file():
            self.target = self.load

    def unsaved(self) -> int:
        """How many hands differ from the last save (entered, changed or deleted since)."""
        a, b = self.saved, self.pad.entries
        return sum(1 for i in range(max(len(a), len(b))) if i >= len(a) or i >= len(b) or a[i] != b[i])

    def changed(self, gettext: Gettext, wait: bool = True) -> str | None:
        """After a change: save to :attr:`target`, if any; ``None`` when saved (or nowhere to save), else why not."""
        target = self.target
        return None if target is None else self.save_to(target, gettext, wait)

    def save_to(self, path: Path, gettext: Gettext, wait: bool = True) -> str | None:
        """Save the pad (JSON) to ``path``: ``None`` when saved, else the sentence saying why not."""
        reason = save_or_reason(path, self.pad.dumps(), gettext, wait)
        if reason is None:
            self.saved, self.failed, self.failed_path = tuple(self.pad.entries), None, None
            if path != self.target and path not in self.written:
                self.written.append(path)
        else:
            self.failed, self.failed_path = reason, path
        return reason

    def own_files(self) -> list[tuple[Path, str]]:
        """The files that hold this pad, each with how it was named (``--load``, ``--save``, ``save``)."""
        own = [(p, flag) for p, flag in ((self.load, "--load"), (self.save, "--save")) if p is not None]
        return own + [(p, "save") for p in self.written]

    def csv_refusal(self, path: Path) -> Message | None:
        """Why the sheet may not be written to ``path`` (it is one of the pad's own files), or ``None``."""
        for own, flag in self.own_files():
            if same_file(path, own):
                return Message(OWN_FILE, path=_shown(path), flag=flag, other=_shown(own))
        return None

    def save_refusal(self, path: Path) -> Message | None:
        """Why the pad may not be saved to ``path`` (``--csv`` writes the sheet over it when leaving), or ``None``."""
        if self.csv is not None and same_file(path, self.csv):
            return Message(CSV_FILE, path=_shown(path), other=_shown(self.csv))
        return None

    def write_csv(self, path: Path, gettext: Gettext, wait: bool = True) -> str | None:
        """Write the sheet to ``path`` unless it is the pad's own file: ``None`` when written, else why not."""
        refusal = self.csv_refusal(path)
        if refusal is not None:
            return gettext(N_("Not accepted: {reason}")).format(reason=error_text(gettext, refusal))
        return save_or_reason(path, self.pad.to_csv(), gettext, wait)

    def write_named(self, sheet: bool, name: str, gettext: Gettext, wait: bool = True) -> tuple[bool, str]:
        """``save FILE`` (the pad) or ``csv FILE`` (the sheet) as either face takes it: (written, what to say).

        Without a name the pad goes where every change goes and the sheet to ``--csv``; the pad is not saved
        onto the ``--csv`` file, nor the sheet onto the pad's own files.
        """
        path = Path(name) if name else (self.csv if sheet else self.target)
        if path is None:
            return False, gettext(N_("Not accepted: {reason}")).format(reason=gettext(NAME_CSV if sheet else NAME_JSON))
        refusal = None if sheet else self.save_refusal(path)
        if refusal is not None:
            return False, not_accepted(gettext, refusal)
        reason = self.write_csv(path, gettext, wait) if sheet else self.save_to(path, gettext, wait)
        if reason is not None:
            return False, reason
        return True, gettext(N_("Written to {path}")).format(path=safe_line(str(path), 200))

    def not_saved(self, gettext: Gettext, template: str) -> str | None:
        """``template`` (:data:`ASK_LINE`, :data:`ASK_SHEET`) when hands are not saved, else ``None``."""
        n = self.unsaved()
        if not n:
            return None
        return error_text(gettext, Message(template, hands=Plural("{n} hand", "{n} hands", n)))

    def leaving(self, gettext: Gettext) -> str | None:
        """What to say when the pad is left with hands not saved: where they could have gone, or the failed save."""
        n = self.unsaved()
        if self.failed_path is not None and n:
            hands = Plural("{n} hand", "{n} hands", n)
            return error_text(gettext, Message(LEFT_FAILED, hands=hands, path=safe_line(str(self.failed_path), 200)))
        return self.not_saved(gettext, LEFT_NOWHERE)
