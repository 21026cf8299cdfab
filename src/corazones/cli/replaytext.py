"""``corazones replay``: a record told trick by trick with running scores.

Every action is validated as it is replayed, so a damaged record prints up to
its first bad action and then says what is wrong (exit 1); ``verify`` is the
command that also checks the recorded results.  At most
:data:`~corazones.core.limits.MAX_RECORD_BYTES` are read, and names from the
record are shown made safe and clipped (:mod:`corazones.cli.render`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer

from corazones.cli.exits import FAILED, OK, fail
from corazones.cli.inputs import InputError, read_text, where
from corazones.cli.render import (
    Seats,
    bid_text,
    cards_text,
    dealer_text,
    hand_result_text,
    seat_values,
    suit_text,
    trick_text,
    word,
)
from corazones.core.actions import Action, Kind
from corazones.core.deal import Deal
from corazones.core.errors import N_, CorazonesError, Message
from corazones.core.game import Game
from corazones.core.limits import MAX_RECORD_BYTES
from corazones.core.records import loads, replay_steps, rules_of, seed_of
from corazones.core.text import safe_line
from corazones.i18n import error_text, translator


def read_record(file: Path | str, lang: str = "en") -> dict[str, Any]:
    """The record in ``file`` (``-`` for standard input), checked in shape; exit 2 with one line if it is not one."""
    try:
        text = read_text(file, MAX_RECORD_BYTES, Message(N_("a game record")))
        return loads(text)
    except InputError as e:
        fail(e, lang=lang)
    except (CorazonesError, ValueError, RecursionError) as e:
        # ValueError and RecursionError are a safety net: the record reader names every fault it knows first
        fail(Message(N_("{file}: {error}"), file=where(file), error=e), lang=lang)


def print_replay(file: Path | str, glyphs: bool, lang: str = "en") -> int:
    _ = translator(lang).gettext
    rec = read_record(file, lang)
    try:
        rules = rules_of(rec)
        seed = seed_of(rec)
    except (CorazonesError, ValueError) as e:
        fail(Message(N_("{file}: {error}"), file=where(file), error=e), lang=lang)
    raw_names = rec.get("players")
    names = Seats(lang, rules.players, None, raw_names if isinstance(raw_names, list) else None)
    typer.echo(
        _("{preset}, {players} players, seed {seed}").format(
            preset=safe_line(rules.name, 60), players=rules.players, seed=safe_line(str(seed), 80)
        )
    )
    typer.echo(
        _("After each trick: [points taken so far in the hand, in seat order: {names}]").format(names=", ".join(names))
    )
    shown_hand = -1
    shown_tricks = 0
    announced = -1
    game: Game | None = None
    try:
        for st in replay_steps(rec):
            g = game = st.game
            a = st.action
            finished = bool(g.history) and len(g.history) - 1 > shown_hand
            deal = g.last_deal if finished and g.last_deal is not None else g.deal
            hand_no = g.hand_index - 1 if finished else g.hand_index
            if announced < hand_no:
                announced = hand_no
                typer.echo(dealer_text(names, hand_no + 1, deal.dealer, deal.pass_direction))
            line = _decision_text(a, names, glyphs)
            if line:
                typer.echo("  " + line)
            for i, tr in enumerate(deal.tricks[shown_tricks:], shown_tricks + 1):
                pts = " ".join(str(p) for p in _points_after(deal, i, rules.players))
                typer.echo(f"  {i:2}. {trick_text(tr, names, glyphs)}   [{pts}]")
            shown_tricks = len(deal.tricks)
            if finished:
                h = g.history[-1]
                shown_hand = h.index
                shown_tricks = 0
                typer.echo(hand_result_text(h, names, glyphs=glyphs))
    except (CorazonesError, ValueError) as e:
        typer.echo(_("replay stopped: {error}").format(error=safe_line(error_text(_, e), 500)), err=True)
        return FAILED
    if game is not None and game.over:
        chips = rules.settlement in ("chips_1887", "chips_pool")
        if chips:
            standing = _("chips {values}").format(values=seat_values(names, game.chips))
        else:
            standing = _("totals {values}").format(values=seat_values(names, game.scores))
        winners = ", ".join(names[w] for w in game.winners)
        typer.echo(_("Game over. Winner(s): {winners}; {standing}.").format(winners=winners, standing=standing))
    else:
        typer.echo(_("The record ends before the game does."))
    return OK


def _decision_text(a: Action, names: Seats, glyphs: bool) -> str:
    """A line for the decisions that are not plays (plays are shown as whole tricks)."""
    _ = translator(names.lang).gettext
    who = names[a.seat]
    if a.kind is Kind.PASS:
        return _("{who} passes {cards}").format(who=who, cards=cards_text(a.cards, glyphs))
    if a.kind is Kind.BID and isinstance(a.value, int):
        return bid_text(names, a.seat, a.value)
    if a.kind is Kind.DECLARE and isinstance(a.value, int):
        return _("{who} names {suit} as the penalty suit").format(who=who, suit=suit_text(a.value, glyphs))
    if a.kind is Kind.MOON and isinstance(a.value, str):
        return _("{who} shot the moon and chooses {choice}").format(who=who, choice=word(names.lang, a.value))
    return ""


def _points_after(deal: Deal, tricks: int, players: int) -> list[int]:
    """Points taken in the first ``tricks`` tricks.

    An annulled trick's cards go to the winner of the next trick, or to its
    own leader when it is the last trick of the hand (Cancellation Hearts).
    """
    pts = [0] * players
    pending = 0
    for i, tr in enumerate(deal.tricks[:tricks]):
        v = sum(deal.values[c] for _, c in tr.plays)
        winner = tr.winner
        if winner is None and i == deal.hand_size - 1:
            winner = tr.leader
        if winner is None:
            pending += v
        else:
            pts[winner] += v + pending
            pending = 0
    return pts
