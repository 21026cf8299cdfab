"""Helpers for the engine-rule tests: build exact positions, play them, read legal cards.

Positions are written as card text (``"2C 5H QS"``) so a test reads like the rule it checks.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

from corazones.core import Action, Deal, Game, Rules, card_str, parse_cards
from corazones.core.cards import mask_cards

Policy = Callable[[Deal, int, int], int]


def cards(text: str) -> list[int]:
    return parse_cards(text)


def at_play(rules: Rules, hands: Sequence[str], kitty: str = "", dealer: int | None = None, **kw: Any) -> Deal:
    """A hand at its first lead with ``hands`` (card text, seat order).

    ``dealer`` defaults to the last seat, so seat 0 is eldest hand.
    """
    d = rules.players - 1 if dealer is None else dealer
    return Deal.at_play(rules, [cards(h) for h in hands], cards(kitty), d, **kw)


def legal(d: Deal, seat: int | None = None) -> set[str]:
    """Cards ``seat`` (default: the seat to play) may play now, as text."""
    s = d.turn if seat is None else seat
    return {card_str(c) for c in mask_cards(d.legal_mask(s))}


def play(d: Deal, text: str) -> None:
    """Play the cards in order, each by the seat to move, through the validating ``apply``."""
    for c in cards(text):
        d.apply(Action.play(d.turn, c))


def play_out(d: Deal, policy: Policy) -> None:
    """Play the hand to the end of play; ``policy(deal, seat, legal_mask)`` picks each card."""
    while d.phase == "play":
        s = d.turn
        d.apply(Action.play(s, policy(d, s, d.legal_mask(s))))


def highest_legal(d: Deal, seat: int, mask: int) -> int:
    return mask_cards(mask)[-1]


def snapshot(game: Game) -> str:
    """Everything observable about a game plus its hidden state, as text, to prove an action changed nothing."""
    d = game.deal
    hidden = {
        "hands": [d.hand(s) for s in range(game.rules.players)],
        "kitty": list(d.kitty),
        "passes": d.passes,
        "phase": d.phase,
        "turn": d.turn,
        "trick": list(zip(d.trick_seats, d.trick_cards)),
        "pts": d.pts,
        "bids": d.bids,
        "actions": [a.to_json() for a in game.actions],
    }
    obs = [game.observation(s).to_json() for s in range(game.rules.players)]
    return json.dumps({"hidden": hidden, "obs": obs}, sort_keys=True, default=str)


# Deal's state fields: __slots__ in the pure build, __mypyc_attrs__ in the compiled one (setup.py).
DEAL_FIELDS: tuple[str, ...] = vars(Deal).get("__slots__") or vars(Deal)["__mypyc_attrs__"]


def deal_snapshot(d: Deal) -> tuple[Any, ...]:
    """All state of a Deal, to prove a refused action left it untouched."""
    return tuple(
        (name, repr(getattr(d, name))) for name in DEAL_FIELDS if name not in ("rules", "values", "discard_masks")
    )


def spread(top: str, reserved: dict[int, str], players: int = 4) -> list[list[int]]:
    """Seat 0 gets ``top``; each other seat its ``reserved`` card(s) plus the rest dealt round-robin."""
    used = set(cards(top))
    for text in reserved.values():
        used |= set(cards(text))
    rest = [c for c in range(52) if c not in used]
    hands: list[list[int]] = [cards(top)] + [cards(reserved.get(s, "")) for s in range(1, players)]
    others = list(range(1, players))
    i = 0
    for c in rest:
        while len(hands[others[i % len(others)]]) >= len(hands[0]):
            i += 1
        hands[others[i % len(others)]].append(c)
        i += 1
    return hands


def boss_policy(reserved: set[int], keep_last: int | None = None) -> Policy:
    """Seat 0 plays its highest legal card (saving ``keep_last``); others dump their highest legal
    card but keep their reserved cards for the last trick."""

    def policy(d: Deal, seat: int, mask: int) -> int:
        legal = mask_cards(mask)
        if seat == 0:
            keep = [c for c in legal if c != keep_last]
            return (keep or legal)[-1]
        keep = [c for c in legal if c not in reserved]
        return (keep or legal)[-1]

    return policy


TOP = "AC KC QC JC AD KD QD JD AS KS QS JS AH"
