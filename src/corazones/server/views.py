"""What each connection may see, built from ``Game.observation`` and nothing else.

A seat's view is its observation in JSON form (the fields :class:`SeatView`
documents).  A spectator's view is the whitelisted public part of an
observation: no hand, no pass, no legal moves, so it holds no card that is
not face up on the table.  Events are redacted per recipient here too: a
pass keeps its cards only for the seat that made it.
"""

from __future__ import annotations

from typing import Any

from corazones.core.cards import SUIT_LETTERS, card_str
from corazones.core.game import Game
from corazones.core.observation import Observation
from corazones.server.schema import PublicView, SeatView

#: Fields only a seat's own view holds; a public view never has them (a test checks this).
PRIVATE_FIELDS = ("seat", "hand", "decision", "legal", "pass_count", "pass_to", "passed", "received", "received_from")


def _public_of(obs: Observation) -> dict[str, Any]:
    """The public fields of one observation (shared by every seat at the same moment)."""
    return {
        "hand_index": obs.hand_index,
        "dealer": obs.dealer,
        "phase": obs.phase,
        "to_act": list(obs.to_act),
        "hand_sizes": list(obs.hand_sizes),
        "pass_direction": obs.pass_direction,
        "bids": [list(b) for b in obs.bids],
        "declarer": obs.declarer,
        "penalty_suit": SUIT_LETTERS[obs.penalty_suit],
        "trick_leader": obs.trick_leader,
        "trick": [[s, card_str(c)] for s, c in obs.trick],
        "last_trick": obs.tricks[-1].to_json() if obs.tricks else None,
        "tricks_played": len(obs.tricks),
        "turn": obs.turn,
        "hearts_broken": obs.hearts_broken,
        "points_taken": list(obs.points_taken),
        "kitty_size": obs.kitty_size,
        "kitty_owner": obs.kitty_owner,
        "scores": list(obs.scores),
        "chips": list(obs.chips),
        "pool": obs.pool,
        "game_over": obs.game_over,
        "winners": list(obs.winners),
    }


def public_view(game: Game) -> dict[str, Any]:
    """The table as a spectator sees it (built from seat 0's observation, private fields left out)."""
    return _public_of(game.observation(0))


def seat_view(game: Game, seat: int) -> dict[str, Any]:
    """Everything ``seat`` may know now: :func:`public_view` plus its own hand, passes and legal moves."""
    obs = game.observation(seat)
    view = _public_of(obs)
    view.update(
        seat=seat,
        hand=[card_str(c) for c in obs.hand],
        decision=obs.decision.value if obs.decision else None,
        legal=[a.to_json() for a in obs.legal],
        pass_count=obs.rules.pass_count,
        pass_to=obs.pass_to,
        passed=None if obs.passed is None else [card_str(c) for c in obs.passed],
        received=None if obs.received is None else [card_str(c) for c in obs.received],
        received_from=obs.received_from,
    )
    return view


def view_model(game: Game | None, seat: int | None) -> SeatView | PublicView | None:
    """The view of ``seat`` (None: a spectator) as the protocol's model, validated; None before the game."""
    if game is None:
        return None
    if seat is None:
        return PublicView.model_validate(public_view(game))
    return SeatView.model_validate(seat_view(game, seat))


def redact(event: dict[str, Any], seat: int | None) -> dict[str, Any]:
    """``event`` as the holder of ``seat`` (None: a spectator) may see it."""
    if event.get("kind") == "action":
        action = event["action"]
        if "pass" in action and action.get("seat") != seat:
            return {**event, "action": {"seat": action["seat"], "pass": None}}
    return event


__all__ = ["public_view", "redact", "seat_view", "view_model"]
