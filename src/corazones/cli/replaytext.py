"""``corazones replay``: a record told trick by trick with running scores.

Every action is validated as it is replayed, so a damaged record prints up to
its first bad action and then says what is wrong (exit 1); ``verify`` is the
command that also checks the recorded results.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer

from corazones.cli.i18n import t
from corazones.cli.render import cards_text, hand_result_text, seat_values, trick_text
from corazones.cli.verifytext import read_text
from corazones.core.actions import Action, Kind
from corazones.core.cards import SUIT_LETTERS
from corazones.core.deal import Deal
from corazones.core.errors import CorazonesError
from corazones.core.game import Game
from corazones.core.records import loads, replay_steps, rules_of


def read_record(file: Path) -> dict[str, Any]:
    text = read_text(file)
    if text is None:
        raise typer.Exit(2)
    try:
        return loads(text)
    except CorazonesError as e:
        raise typer.BadParameter(f"{file}: {e}", param_hint="'FILE'") from None


def print_replay(file: Path, glyphs: bool, lang: str = "en") -> int:
    rec = read_record(file)
    rules = rules_of(rec)
    raw_names = rec.get("players")
    names = [str(x) for x in raw_names] if isinstance(raw_names, list) else []
    if len(names) != rules.players:
        names = [t(lang, "seat", n=i) for i in range(rules.players)]
    typer.echo(t(lang, "rp_title", preset=rules.name, players=rules.players, seed=rec["seed"]))
    typer.echo(t(lang, "rp_legend", names=", ".join(names)))
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
                direction = t(lang, deal.pass_direction)
                typer.echo(t(lang, "rp_hand", n=hand_no + 1, dealer=names[deal.dealer], direction=direction))
            line = _decision_text(a, names, glyphs, lang)
            if line:
                typer.echo("  " + line)
            for i, tr in enumerate(deal.tricks[shown_tricks:], shown_tricks + 1):
                pts = " ".join(str(p) for p in _points_after(deal, i, rules.players))
                typer.echo(f"  {i:2}. {trick_text(tr, names, glyphs, lang)}   [{pts}]")
            shown_tricks = len(deal.tricks)
            if finished:
                h = g.history[-1]
                shown_hand = h.index
                shown_tricks = 0
                typer.echo(hand_result_text(h, names, lang, glyphs=glyphs))
    except CorazonesError as e:
        typer.echo(t(lang, "rp_stopped", error=e), err=True)
        return 1
    if game is not None and game.over:
        chips = rules.settlement in ("chips_1887", "chips_pool")
        if chips:
            standing = t(lang, "rp_chips", values=seat_values(names, game.chips))
        else:
            standing = t(lang, "rp_totals", values=seat_values(names, game.scores))
        winners = ", ".join(names[w] for w in game.winners)
        typer.echo(t(lang, "rp_over", winners=winners, standing=standing))
    else:
        typer.echo(t(lang, "rp_unfinished"))
    return 0


def _decision_text(a: Action, names: list[str], glyphs: bool, lang: str = "en") -> str:
    """A line for the decisions that are not plays (plays are shown as whole tricks)."""
    who = names[a.seat]
    if a.kind is Kind.PASS:
        return t(lang, "rp_passes", who=who, cards=cards_text(a.cards, glyphs))
    if a.kind is Kind.BID:
        return t(lang, "rp_bids", who=who, value=a.value) if a.value else t(lang, "rp_no_bid", who=who)
    if a.kind is Kind.DECLARE and isinstance(a.value, int):
        return t(lang, "rp_names", who=who, suit=SUIT_LETTERS[a.value])
    if a.kind is Kind.MOON and isinstance(a.value, str):
        return t(lang, "rp_moon", who=who, choice=t(lang, a.value))
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
