"""What one seat may know: the single hidden-information boundary.

:class:`Observation` is built only by :meth:`Game.observation`; bots, the
faces, the RL environment and the server all start from it, so a hidden card
(another hand, a pass between two other players, the face-down kitty) can
only leak by a bug here, where the tests look for it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from corazones.core.actions import Action, Kind
from corazones.core.cards import SUIT_LETTERS, card_str
from corazones.core.deal import Trick
from corazones.core.rules import Rules


@dataclass(frozen=True, slots=True)
class HandResult:
    """The public outcome of a finished hand (the kitty is revealed here)."""

    index: int
    dealer: int
    pass_direction: str
    penalty_suit: int
    declarer: int | None
    bid: int
    points: tuple[int, ...]
    scores: tuple[int, ...]
    shooter: int | None
    moon_choice: str | None
    kitty: tuple[int, ...]
    kitty_owner: int | None
    penalty_cards: tuple[int, ...]
    chips_delta: tuple[int, ...]
    pool: int
    totals: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "dealer": self.dealer,
            "pass_direction": self.pass_direction,
            "penalty_suit": SUIT_LETTERS[self.penalty_suit],
            "declarer": self.declarer,
            "bid": self.bid,
            "points": list(self.points),
            "scores": list(self.scores),
            "shooter": self.shooter,
            "moon_choice": self.moon_choice,
            "kitty": [card_str(c) for c in self.kitty],
            "kitty_owner": self.kitty_owner,
            "penalty_cards": list(self.penalty_cards),
            "chips_delta": list(self.chips_delta),
            "pool": self.pool,
            "totals": list(self.totals),
        }


@dataclass(frozen=True, slots=True)
class Observation:
    """Everything ``seat`` may know at this moment, and nothing more."""

    seat: int
    rules: Rules
    hand_index: int
    dealer: int
    phase: str
    to_act: tuple[int, ...]
    decision: Kind | None
    legal: tuple[Action, ...]
    hand: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    pass_direction: str
    pass_to: int | None
    passed: tuple[int, ...] | None
    received: tuple[int, ...] | None
    received_from: int | None
    bids: tuple[tuple[int, int], ...]
    declarer: int | None
    penalty_suit: int
    tricks: tuple[Trick, ...]
    trick_leader: int
    trick: tuple[tuple[int, int], ...]
    turn: int
    hearts_broken: bool
    points_taken: tuple[int, ...]
    kitty_size: int
    kitty_owner: int | None
    scores: tuple[int, ...]
    chips: tuple[int, ...]
    pool: int
    history: tuple[HandResult, ...]
    game_over: bool
    winners: tuple[int, ...]

    @property
    def players(self) -> int:
        return self.rules.players

    @property
    def card_values(self) -> tuple[int, ...]:
        """Points of each card in this hand (depends on the declared penalty suit)."""
        return self.rules.card_values(self.penalty_suit)

    @property
    def last_hand(self) -> HandResult | None:
        return self.history[-1] if self.history else None

    def to_json(self) -> dict[str, Any]:
        """JSON-ready dictionary (cards as strings such as ``"QS"``)."""

        def cards(cs: tuple[int, ...] | None) -> list[str] | None:
            return None if cs is None else [card_str(c) for c in cs]

        return {
            "seat": self.seat,
            "rules": self.rules.to_dict(),
            "hand_index": self.hand_index,
            "dealer": self.dealer,
            "phase": self.phase,
            "to_act": list(self.to_act),
            "decision": self.decision.value if self.decision else None,
            "legal": [a.to_json() for a in self.legal],
            "hand": cards(self.hand),
            "hand_sizes": list(self.hand_sizes),
            "pass_direction": self.pass_direction,
            "pass_to": self.pass_to,
            "passed": cards(self.passed),
            "received": cards(self.received),
            "received_from": self.received_from,
            "bids": [list(b) for b in self.bids],
            "declarer": self.declarer,
            "penalty_suit": SUIT_LETTERS[self.penalty_suit],
            "tricks": [t.to_json() for t in self.tricks],
            "trick_leader": self.trick_leader,
            "trick": [[s, card_str(c)] for s, c in self.trick],
            "turn": self.turn,
            "hearts_broken": self.hearts_broken,
            "points_taken": list(self.points_taken),
            "kitty_size": self.kitty_size,
            "kitty_owner": self.kitty_owner,
            "scores": list(self.scores),
            "chips": list(self.chips),
            "pool": self.pool,
            "history": [h.to_json() for h in self.history],
            "game_over": self.game_over,
            "winners": list(self.winners),
        }
