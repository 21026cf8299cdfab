"""``corazones replay``: a record told trick by trick with running scores."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer

from corazones.cli.render import cards_text, hand_result_text, trick_text
from corazones.core.actions import Kind
from corazones.core.deal import Deal
from corazones.core.errors import CorazonesError
from corazones.core.records import loads, replay_steps, rules_of


def read_record(file: Path) -> dict[str, Any]:
    try:
        text = file.read_text(encoding="utf-8")
    except OSError as e:
        raise typer.BadParameter(f"cannot read {file}: {e.strerror}") from None
    try:
        return loads(text)
    except CorazonesError as e:
        raise typer.BadParameter(f"{file}: {e}") from None


def print_replay(file: Path, glyphs: bool) -> int:
    rec = read_record(file)
    rules = rules_of(rec)
    raw_names = rec.get("players")
    names = [str(x) for x in raw_names] if isinstance(raw_names, list) else []
    if len(names) != rules.players:
        names = [f"seat {i}" for i in range(rules.players)]
    typer.echo(f"{rules.name}, {rules.players} players, seed {rec['seed']}")
    shown_hand = -1
    shown_tricks = 0
    announced = -1
    try:
        for st in replay_steps(rec):
            g = st.game
            a = st.action
            finished = bool(g.history) and len(g.history) - 1 > shown_hand
            deal = g.last_deal if finished and g.last_deal is not None else g.deal
            hand_no = g.hand_index - 1 if finished else g.hand_index
            if announced < hand_no:
                announced = hand_no
                typer.echo(f"Hand {hand_no + 1}, dealer {names[deal.dealer]}, pass {deal.pass_direction}")
            if a.kind is Kind.PASS:
                typer.echo(f"  {names[a.seat]} passes {cards_text(a.cards, glyphs)}")
            elif a.kind in (Kind.BID, Kind.DECLARE, Kind.MOON):
                typer.echo(f"  {a}")
            for i, tr in enumerate(deal.tricks[shown_tricks:], shown_tricks + 1):
                pts = " ".join(str(p) for p in _points_after(deal, i, rules.players))
                typer.echo(f"  {i:2}. {trick_text(tr, names, glyphs)}   [{pts}]")
            shown_tricks = len(deal.tricks)
            if finished:
                h = g.history[-1]
                shown_hand = h.index
                shown_tricks = 0
                typer.echo(hand_result_text(h, names))
    except CorazonesError as e:
        typer.echo(f"replay stopped: {e}", err=True)
        return 1
    return 0


def _points_after(deal: Deal, tricks: int, players: int) -> list[int]:
    """Points taken in the first ``tricks`` tricks (annulled piles go to the next winner)."""
    pts = [0] * players
    pending = 0
    for t in deal.tricks[:tricks]:
        v = sum(deal.values[c] for _, c in t.plays)
        if t.winner is None:
            pending += v
        else:
            pts[t.winner] += v + pending
            pending = 0
    return pts
