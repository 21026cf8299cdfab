"""``corazones pad``: the score sheet for a game played with real cards.

On a terminal it opens the full-screen sheet (:mod:`corazones.tui.pad`);
in a pipe, or with ``--line``, it reads one line per hand and prints each row,
so a script or a screen reader can keep score too.  Both read a hand written
the same way (:func:`parse_hand`), and every number comes from the core's
:class:`~corazones.core.pad.Pad`.

A hand line, for standard Hearts with Ana, Bea, Carl and Dan::

    3 4 6 0 QS=Carl          hearts per player in seat order; Carl took Q♠
    13 0 0 0 QS=Ana moon=add Ana took everything and adds 26 to the others
    p 13 0 13 0              the points way: each player's points
    Ana:AH,KH,QS             the cards one player took (spot-valued hearts)
    suit=S by=Bea bid=3      Auction Hearts: the suit named, the declarer, the bid
    revoke=Dan  revoke=Dan!  a revoke (``!``: made to avoid taking all the hearts)
    ... # a note             anything after ``#`` is a note on the row
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, TextIO

import typer

from corazones.cli.flags import FlagRefused, LangOpt, OptionOpt, PlayersOpt, quoted, refuse
from corazones.cli.outputs import check_output_file
from corazones.core.cards import SUIT_LETTERS
from corazones.core.pad import Entry, Pad, PadError, Revoke, glyph, layout, loads
from corazones.core.rules import Rules
from corazones.core.text import safe_line
from corazones.i18n import N_, error_text, translator
from corazones.i18n.oserrors import os_reason, os_reason_text
from corazones.services.files import save_atomic

#: Largest pad file read (the core refuses bigger text too).
MAX_FILE = 2_000_000
#: Longest line read in line mode.
MAX_LINE = 2000

MOON_WORDS = {
    "add": "add_to_others",
    "a": "add_to_others",
    "sumar": "add_to_others",
    "sub": "subtract_from_self",
    "s": "subtract_from_self",
    "restar": "subtract_from_self",
    "add_to_others": "add_to_others",
    "subtract_from_self": "subtract_from_self",
}
DIRECTIONS = {"left": N_("left"), "right": N_("right"), "across": N_("across"), "hold": N_("no pass")}
CANNOT_READ = N_("cannot read {path}: {why}")
MOON_NAMES = {"add_to_others": N_("adds {total} to the others"), "subtract_from_self": N_("subtracts {total}")}


class HandSyntaxError(Exception):
    """A hand line that cannot be read; ``template`` and ``params`` as in :class:`PadError`."""

    def __init__(self, template: str, **params: Any) -> None:
        self.template = template
        self.params = params
        super().__init__(template.format(**params))


Gettext = Callable[[str], str]


# ------------------------------------------------------------------ reading
def find_player(pad: Pad, text: str) -> int:
    """A seat from a name, a name's unique beginning (any case) or a number 1..n."""
    t = text.strip()
    if t.isdigit() and 1 <= int(t) <= pad.players:
        return int(t) - 1
    low = t.casefold()
    exact = [s for s, n in enumerate(pad.names) if n.casefold() == low]
    if exact:
        return exact[0]
    starts = [s for s, n in enumerate(pad.names) if low and n.casefold().startswith(low)]
    if len(starts) == 1:
        return starts[0]
    names = ", ".join(pad.names)
    if starts:
        raise HandSyntaxError(N_("{text} could be {names}; type more of the name"), text=safe_line(t, 40), names=names)
    raise HandSyntaxError(
        N_("{text} is not a player; type a name ({names}) or a number 1 to {n}"),
        text=safe_line(t, 40),
        names=names,
        n=pad.players,
    )


def _card(text: str) -> int:
    from corazones.core.cards import parse_card
    from corazones.core.errors import CardError

    try:
        return parse_card(text)
    except CardError:
        raise HandSyntaxError(
            N_("{text} is not a card; write rank then suit, e.g. QS or Q♠"), text=safe_line(text, 20)
        ) from None


def parse_hand(pad: Pad, text: str) -> Entry:
    """Read one hand line (see the module's docstring); :class:`HandSyntaxError` names the bad word."""
    body, _hash, note = text.partition("#")
    joined = re.sub(r"\s*([,=:])\s*", r"\1", body).split()
    points_way = bool(joined) and joined[0].lower() in ("p", "points", "puntos")
    if points_way:
        joined = joined[1:]
    numbers: list[int] = []
    takers: dict[int, list[int]] = {}
    extra: dict[str, Any] = {}
    shooters: list[int] = []
    revokes: list[Revoke] = []
    for w in joined:
        w = w.strip(",")
        if not w:
            continue
        if _is_int(w):
            numbers.append(int(w))
            continue
        key, eq, value = w.partition("=")
        k = key.lower()
        if eq:
            if k == "moon" or k == "luna":
                choice = MOON_WORDS.get(value.lower())
                if choice is None:
                    raise HandSyntaxError(
                        N_("moon=add or moon=sub (the shooter's choice), not {text}"), text=safe_line(w, 40)
                    )
                extra["moon"] = choice
            elif k in ("shot", "caza"):
                shooters += [find_player(pad, v) for v in value.split(",") if v]
            elif k in ("suit", "palo"):
                v = value.upper()[:1]
                if v not in SUIT_LETTERS or len(value) != 1:
                    raise HandSyntaxError(N_("suit= takes one letter: C, D, S or H"))
                extra["suit"] = SUIT_LETTERS.index(v)
            elif k in ("by", "por"):
                extra["declarer"] = find_player(pad, value)
            elif k in ("bid", "puja"):
                if not _is_int(value):
                    raise HandSyntaxError(N_("bid= takes a whole number of chips"))
                extra["bid"] = int(value)
            elif k in ("revoke", "renuncio"):
                avoid = value.endswith("!")
                revokes.append(Revoke(find_player(pad, value.rstrip("!")), avoid))
            else:
                card = _card(key)
                for v in value.split(","):
                    if v:
                        takers.setdefault(card, []).append(find_player(pad, v))
            continue
        who, colon, cards = w.partition(":")
        if colon:
            seat = find_player(pad, who)
            for c in cards.split(","):
                if c:
                    takers.setdefault(_card(c), []).append(seat)
            continue
        raise HandSyntaxError(
            N_("{text} is not understood; type numbers, CARD=player, player:CARDS or type help"), text=safe_line(w, 40)
        )
    more: dict[str, Any] = {
        **extra,
        "shooters": tuple(shooters),
        "revokes": tuple(revokes),
        "note": safe_line(note, 200),
    }
    if points_way:
        if takers:
            raise HandSyntaxError(N_("the points way takes only numbers; leave out the cards"))
        return Entry.by_points(numbers, **more)
    lay = layout(pad.rules, extra.get("suit", 3))
    if not numbers and not lay.counted:
        numbers = [0] * pad.players
    return Entry.quick(numbers, {c: tuple(s) for c, s in takers.items()}, **more)


def _is_int(w: str) -> bool:
    return w.lstrip("-").isdigit() and len(w) < 10


def entry_text(pad: Pad, e: Entry) -> str:
    """An entry written back as a hand line (to edit it)."""
    words: list[str] = []
    if e.points is not None:
        words = ["p", *map(str, e.points)]
    else:
        lay = layout(pad.rules, e.suit)
        if lay.counted:
            words = [str(c) for c in e.counts or ()]
        words += [f"{glyph(c)}={','.join(pad.names[s] for s in seats)}" for c, seats in e.cards]
    if e.moon:
        words.append("moon=" + ("add" if e.moon == "add_to_others" else "sub"))
    if e.shooters:
        words.append("shot=" + ",".join(pad.names[s] for s in e.shooters))
    if pad.rules.auction and e.declarer is not None:
        words += [f"suit={SUIT_LETTERS[e.suit]}", f"by={pad.names[e.declarer]}"]
        if e.bid:
            words.append(f"bid={e.bid}")
    words += [f"revoke={pad.names[r.seat]}{'!' if r.to_avoid_all else ''}" for r in e.revokes]
    if e.note:
        words.append("# " + e.note)
    return " ".join(words)


# ----------------------------------------------------------------- writing
def how_to_enter(pad: Pad, gettext: Gettext, suit: int = 3) -> str:
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
    example = entry_text(pad, _example(pad, lay))
    return gettext("Enter each hand: {what}, e.g. {example}").format(what="; ".join(parts), example=example)


def _example(pad: Pad, lay: Any) -> Entry:
    n = pad.players
    counts = [0] * n
    if lay.counted:
        counts[0] = lay.counted_in_play - (n - 1)
        for s in range(1, n):
            counts[s] = 1
    cards = {c: tuple((i + 1) % n for i in range(k)) for c, _, k in lay.named}
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


def _fraction(x: Any) -> str:
    return f"{float(x):+g}" if x.denominator != 1 else f"{int(x):+d}"


def save_or_reason(path: Path, text: str, gettext: Callable[[str], str]) -> str | None:
    """Save ``text`` to ``path`` (:func:`save_atomic`); ``None`` when saved, else the sentence saying why not.

    Every face of the pad says a failed save the same way and keeps the pad as
    it is, so a hand is never lost to a folder that refuses the file.
    """
    try:
        save_atomic(path, text)
    except OSError as e:
        return gettext(N_("Could not save to {path}: {error}")).format(
            path=safe_line(str(path), 200), error=os_reason_text(gettext, e)
        )
    return None


def read_pad(path: Path) -> Pad:
    """A saved pad; :class:`PadError` (or OSError) says why it cannot be used."""
    with path.open("rb") as f:
        data = f.read(MAX_FILE + 1)
    return loads(data)


# --------------------------------------------------------------- line mode
HELP_LINES = (
    N_("Commands: a hand line; p POINTS...; undo; edit N HAND; del N; sheet; save FILE; csv FILE; help; quit"),
    N_("Players are named by name, its beginning or number; CARD=player (QS=Ana), player:CARDS (Ana:AH,KH)."),
    N_("moon=add or moon=sub when someone took everything; shot=player in the points way when needed;"),
    N_("revoke=player (revoke=player! if made to avoid taking all the hearts); # starts a note."),
)


def run_lines(pad: Pad, lang: str, inp: TextIO, out: TextIO, save: Path | None, csv_path: Path | None) -> int:
    """The line mode: read commands and hands until the end of input; return the exit code."""
    gettext = translator(lang).gettext

    def say(text: str) -> None:
        out.write(text + "\n")
        out.flush()

    def write(target: Path, text: str) -> bool:
        """Save ``text`` to ``target``, or say why it could not be saved."""
        reason = save_or_reason(target, text, gettext)
        if reason is not None:
            say(reason)
        return reason is None

    def persist() -> None:
        if save is not None:
            write(save, pad.dumps())

    rules_line = gettext("Score pad: {preset}, {players} players: {names}").format(
        preset=pad.rules.name, players=pad.players, names=", ".join(pad.names)
    )
    say(rules_line)
    say(how_to_enter(pad, gettext))
    say(gettext("Type help for the commands."))
    for i in range(len(pad.rows)):
        for line in row_lines(pad, i, gettext):
            say(line)
    for line in standing_lines(pad, gettext):
        say(line)
    while True:
        if not pad.over:
            direction = pad.next_pass()
            out.write(
                gettext("Hand {n} (pass: {direction})> ").format(
                    n=len(pad.rows) + 1, direction=gettext(DIRECTIONS.get(direction, direction))
                )
            )
        else:
            out.write("> ")
        out.flush()
        raw = inp.readline(MAX_LINE + 1)
        if not raw:
            out.write("\n")
            break
        if len(raw) > MAX_LINE:
            say(gettext("Not accepted: the line is longer than {limit} characters").format(limit=MAX_LINE))
            while raw and not raw.endswith("\n"):
                raw = inp.readline(MAX_LINE + 1)
            continue
        text = raw.strip()
        if not text:
            continue
        word, _sp, rest = text.partition(" ")
        cmd = word.lower()
        try:
            if cmd in ("q", "quit", "exit", "salir"):
                break
            if cmd in ("help", "ayuda", "?"):
                for h in HELP_LINES:
                    say(gettext(h))
                say(how_to_enter(pad, gettext))
                continue
            if cmd in ("sheet", "hoja"):
                for i in range(len(pad.rows)):
                    for line in row_lines(pad, i, gettext):
                        say(line)
                for line in standing_lines(pad, gettext):
                    say(line)
                continue
            if cmd in ("undo", "deshacer"):
                pad.undo()
                persist()
                say(gettext("Hand {n} removed.").format(n=len(pad.rows) + 1))
                for line in standing_lines(pad, gettext):
                    say(line)
                continue
            if cmd in ("edit", "editar", "del", "borrar"):
                number, _sp, hand = rest.strip().partition(" ")
                if not number.isdigit():
                    say(
                        gettext("Not accepted: {reason}").format(
                            reason=gettext("give the hand's number, e.g. edit 2 3 4 6 0 QS=Ana")
                        )
                    )
                    continue
                index = int(number) - 1
                if cmd in ("edit", "editar"):
                    if not hand.strip() and 0 <= index < len(pad.entries):
                        say(
                            gettext("Hand {n} now reads: {line}").format(
                                n=index + 1, line=entry_text(pad, pad.entries[index])
                            )
                        )
                        continue
                    pad.edit(index, parse_hand(pad, hand))
                    say(gettext("Hand {n} changed; the rows after it are recomputed.").format(n=index + 1))
                else:
                    pad.remove(index)
                    say(gettext("Hand {n} deleted; the rows after it are recomputed.").format(n=index + 1))
                persist()
                for i in range(index, len(pad.rows)):
                    for line in row_lines(pad, i, gettext):
                        say(line)
                for line in standing_lines(pad, gettext):
                    say(line)
                continue
            if cmd in ("save", "guardar", "csv"):
                target = Path(rest.strip()) if rest.strip() else (save if cmd != "csv" else csv_path)
                if target is None:
                    say(gettext("Not accepted: {reason}").format(reason=gettext("name the file, e.g. save pad.json")))
                    continue
                if write(target, pad.to_csv() if cmd == "csv" else pad.dumps()):
                    say(gettext("Written to {path}").format(path=safe_line(str(target), 200)))
                continue
            pad.add(parse_hand(pad, text))
            persist()
            for line in row_lines(pad, len(pad.rows) - 1, gettext):
                say(line)
            for line in standing_lines(pad, gettext):
                say(line)
        except (PadError, HandSyntaxError) as e:
            say(gettext("Not accepted: {reason}").format(reason=error_text(gettext, e)))
    if csv_path is not None and not write(csv_path, pad.to_csv()):
        return 1
    return 0


# ----------------------------------------------------------------- command
#: What ``corazones pad --help`` says (a msgid: the help is worded in the command line's language).
HELP = N_(
    "Keep score of a game played with real cards: enter each hand, the pad does the rest.\n\n"
    "The pad checks every hand against the rules (totals, the moon, who took each card), keeps running totals, "
    "chips or the pool, says who leads and who wins, and can undo or edit any hand.  On a terminal it is a "
    "full-screen sheet; in a pipe (or with --line) it reads one hand per line: type help there for the syntax."
)


def pad(
    preset: Annotated[
        str, typer.Option("--rules", "-r", metavar="PRESET", help=N_("Preset (see `corazones rules`)"))
    ] = "standard",
    players: PlayersOpt = None,
    option: OptionOpt = None,
    names: Annotated[
        str | None, typer.Option(metavar="NAMES", help=N_("The players' names in seat order, separated by commas"))
    ] = None,
    load: Annotated[
        Path | None, typer.Option(metavar="FILE", help=N_("Open a saved pad (its rules and names) and go on with it"))
    ] = None,
    save: Annotated[
        Path | None, typer.Option(metavar="FILE", help=N_("Save the pad (JSON) here after every change"))
    ] = None,
    csv: Annotated[
        Path | None, typer.Option(metavar="FILE", help=N_("Write the sheet as CSV here when you leave"))
    ] = None,
    line: Annotated[bool, typer.Option("--line", help=N_("Plain line mode even on a terminal"))] = False,
    lang: LangOpt = None,
) -> None:
    """``corazones pad``: the full-screen sheet on a terminal, else the line mode (:func:`run_lines`)."""
    from corazones.cli.flags import check_lang
    from corazones.cli.main import build_rules

    language = check_lang(lang)
    for flag, path in (("--save", save), ("--csv", csv)):
        if path is not None:
            check_output_file(path, flag, language)
    if load is not None:
        try:
            the_pad = read_pad(load)
        except OSError as e:
            refuse("--load", language, CANNOT_READ, path=quoted(load, 200), why=os_reason(e))
        except PadError as e:  # the pad's own words: what in the file is wrong
            refuse("--load", language, N_("{path}: {error}"), path=quoted(load, 200), error=e)
    else:
        rules = build_rules(preset, players, option or [], language)
        listed = [x for x in (names or "").split(",")] if names is not None else []
        try:
            the_pad = Pad(rules, tuple(listed)) if listed else default_pad(rules, language)
        except PadError as e:  # names how many players to name, or which name is wrong
            raise FlagRefused("--names", e, language) from None
    if not line and sys.stdin.isatty() and sys.stdout.isatty():
        from corazones.tui.pad.app import PadApp

        app = PadApp(
            the_pad if (load is not None or names is not None) else None,
            rules=the_pad.rules,
            lang=language,
            save=save,
            csv=csv,
        )
        app.run()
        problem = app.write_csv()
        if problem:
            typer.echo(problem, err=True)
            raise typer.Exit(1)
        return
    code = run_lines(the_pad, language, sys.stdin, sys.stdout, save, csv)
    raise typer.Exit(code)


def default_pad(rules: Rules, lang: str) -> Pad:
    """A pad with the default names in ``lang`` (Player 1, Jugador 1...)."""
    gettext = translator(lang).gettext
    return Pad(rules, tuple(gettext("Player {n}").format(n=i + 1) for i in range(rules.players)))
