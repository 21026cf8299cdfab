"""``beginner``: the rules of thumb a new player learns first.

Pass the highest cards (the big penalty cards first), lead low, follow low,
and when void throw the costliest penalty card, else the highest card.  It
counts nothing and plans nothing, which makes it a fair first opponent and a
baseline the stronger levels must beat clearly.
"""

from __future__ import annotations

from corazones.core.observation import Observation
from corazones.players.base import Bot, legal_cards
from corazones.players.heuristics import RANK_OF, SUIT_OF


def play(obs: Observation) -> int:
    """The beginner's card in ``obs``."""
    cards = legal_cards(obs)
    if len(cards) == 1:
        return cards[0]
    vals = obs.card_values
    if not obs.trick:
        # lead low, and not a penalty card if there is a choice
        return min(cards, key=lambda c: (vals[c] > 0, RANK_OF[c], c))
    if SUIT_OF[cards[0]] == SUIT_OF[obs.trick[0][1]]:
        return min(cards)  # follow low
    # void: the costliest penalty card, else the highest card; keep bonus cards
    return max(cards, key=lambda c: (vals[c] >= 0, vals[c], RANK_OF[c], c))


def pass_cards(obs: Observation) -> list[int]:
    """The highest cards, costliest penalty cards first; bonus cards are kept."""
    vals = obs.card_values
    hand = sorted(obs.hand, key=lambda c: (vals[c] >= 0, vals[c] >= 5, RANK_OF[c], vals[c], c), reverse=True)
    return hand[: obs.rules.pass_count]


def declare(obs: Observation) -> int:
    """Name the suit we hold fewest cards of."""
    return min(range(4), key=lambda s: (sum(1 for c in obs.hand if SUIT_OF[c] == s), s))


class BeginnerBot(Bot):
    """Simple rules of thumb; never bids in an auction."""

    name = "beginner"

    def choose_play(self, obs: Observation) -> int:
        return play(obs)

    def choose_pass(self, obs: Observation) -> list[int]:
        return pass_cards(obs)

    def choose_bid(self, obs: Observation) -> int:
        return 0

    def choose_declare(self, obs: Observation) -> int:
        return declare(obs)
