"""``random``: a uniformly random legal choice for every decision."""

from __future__ import annotations

from corazones.core.observation import Observation
from corazones.players.base import Bot, legal_cards


class RandomBot(Bot):
    """Plays a uniformly random legal card, passes random cards, never bids."""

    name = "random"

    def choose_play(self, obs: Observation) -> int:
        return self.rng.choice(legal_cards(obs))

    def choose_bid(self, obs: Observation) -> int:
        return 0

    def choose_moon(self, obs: Observation) -> str:
        return self.rng.choice(("subtract_from_self", "add_to_others"))
