"""What every face of the score pad says the same way: how to enter a hand, a row, the standing, a save.

The line mode (:mod:`corazones.cli.pad_cmd`) and the full-screen sheet
(:mod:`corazones.tui.pad`) print the same words from here, in the language of
the ``gettext`` they pass; every number comes from :class:`~corazones.core.pad.Pad`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from pathlib import Path

from corazones.core.cards import HEARTS
from corazones.core.pad import Entry, Layout, Pad, glyph, layout
from corazones.core.pad.grammar import LINE_HINTS, entry_text
from corazones.core.text import safe_line
from corazones.i18n import N_, error_text
from corazones.i18n.oserrors import os_reason_text
from corazones.services.files import save_atomic

DIRECTIONS = {"left": N_("left"), "right": N_("right"), "across": N_("across"), "hold": N_("no pass")}
MOON_NAMES = {"add_to_others": N_("adds {total} to the others"), "subtract_from_self": N_("subtracts {total}")}

Gettext = Callable[[str], str]


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
