"""``heuristic``: the expert's fast playout policy as a player of its own.

It is the yardstick the expert's search is measured against, and a quick
opponent for benchmarks and tests.
"""

from __future__ import annotations

import random

from corazones.core.deal import Deal
from corazones.core.observation import Observation
from corazones.players.base import Bot
from corazones.players.belief import Belief
from corazones.players.rollout import heuristic_play, pass_choice


class HeuristicBot(Bot):
    """The rollout policy as a player: quick, rule-of-thumb play for every variant.

    It is the yardstick the expert's search is measured against, and a fast
    opponent for benchmarks.  It sees only its observation: the policy reads
    its own hand and the cards gone, so any deal consistent with the
    observation gives the same answer.
    """

    name = "heuristic"

    def choose_play(self, obs: Observation) -> int:
        w = Belief(obs).sample(random.Random(0))
        return heuristic_play(Deal.from_observation(obs, w.hands, w.kitty))

    def choose_pass(self, obs: Observation) -> list[int]:
        return pass_choice(list(obs.hand), obs.rules.pass_count, obs.card_values, obs.penalty_suit)

    def choose_declare(self, obs: Observation) -> int:
        """Name the suit in which it holds the fewest cards above the middle."""
        high = [sum(1 for c in obs.hand if c // 13 == s and c % 13 >= 6) for s in range(4)]
        return min(range(4), key=lambda s: (high[s], -sum(1 for c in obs.hand if c // 13 == s)))
