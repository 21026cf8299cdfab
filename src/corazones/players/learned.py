"""``learned``: a small trained network that scores each card it may pass or play.

The network sees one candidate card at a time through :func:`card_features`
(a few numbers about the card and the trick, built from the observation
alone) and gives it a score; the seat plays the legal card with the highest
score, and passes the highest-scoring cards of its hand.  Scoring cards one
by one with shared weights keeps the network tiny (about 1,500 weights,
shipped in ``players/data/learned.json``) and lets one network serve every
preset and player count.  Bids, the suit named in an auction and the moon
choice are the ``standard`` player's.

The weights come from ``scripts/distil_expert.py``: the ``expert``'s
decisions recorded, the network fitted to them, then the expert's labels of
the positions the network itself reaches (DAgger) added (see ``docs/env.md``).
Among the features is the ``standard`` player's judgment of each card, so
the network learns where the expert departs from it.  The inference here is
plain Python, so the level needs no numerical library.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import cache
from importlib import resources
from operator import mul
from typing import Any

from corazones.core.actions import Kind
from corazones.core.observation import Observation
from corazones.core.trick import trick_winner
from corazones.players import standard
from corazones.players.base import Bot, legal_cards
from corazones.players.heuristics import View
from corazones.players.standard import StandardBot

#: Names of the numbers :func:`card_features` gives for each card, in order.
FEATURES = (
    "is_pass",
    "is_play",
    "rank",
    "value",
    "is_penalty",
    "is_bonus",
    "follows_led_suit",
    "leading",
    "wins_trick_now",
    "trick_points",
    "higher_out",
    "lower_out",
    "my_suit_count",
    "suit_out",
    "last_to_play",
    "broken",
    "void_shown_in_suit",
    "big_penalty_out",
    "trick_number",
    "my_points",
    "others_points",
    "is_penalty_suit",
    "standard_pick",
    "standard_cost",
    "moon_alarm",
    "pass_left",
    "pass_right",
    "pass_across",
    "hand_left",
)


def card_features(obs: Observation) -> list[tuple[int, list[float]]]:
    """``(card, features)`` for each card the seat may pass or play now (empty for other decisions)."""
    kind = obs.decision
    if kind is Kind.PLAY:
        cards = sorted(set(legal_cards(obs)))
    elif kind is Kind.PASS:
        cards = sorted(set(obs.hand))
    else:
        return []
    r = obs.rules
    n = r.players
    values = obs.card_values
    scale = float(sum(values[c] for c in r.deck if values[c] > 0)) or 1.0
    seen = [0] * 52  # copies no longer out: played, or in the seat's own hand
    for t in obs.tricks:
        for _, c in t.plays:
            seen[c] += 1
    for _, c in obs.trick:
        seen[c] += 1
    mine = [0] * 52
    for c in obs.hand:
        mine[c] += 1
    copies = [0] * 52
    for c in r.deck:
        copies[c] += 1
    out = [copies[c] - seen[c] - mine[c] for c in range(52)]
    voids = [False] * 4
    for t in obs.tricks:
        led = t.plays[0][1] // 13
        for s, c in t.plays:
            if s != obs.seat and c // 13 != led:
                voids[led] = True
    led_suit = obs.trick[0][1] // 13 if obs.trick else -1
    if obs.trick:
        for s, c in obs.trick:
            if s != obs.seat and c // 13 != led_suit:
                voids[led_suit] = True
    view = View(obs)
    picks, costs = _standard_view(obs, view, cards)
    alarm = standard.moon_alarm(view)[1] if kind is Kind.PLAY else 0.0
    direction = obs.pass_direction if kind is Kind.PASS else ""
    passing = [float(direction == d) for d in ("left", "right", "across")]
    hand_left = len(obs.hand) / (float(r.hand_size) or 1.0)
    trick_cards = [c for _, c in obs.trick]
    trick_points = sum(values[c] for c in trick_cards) / 13.0
    big_out = float(any(out[c] > 0 and values[c] >= 10 for c in range(52)))
    my_points = obs.points_taken[obs.seat] / scale
    others = (sum(obs.points_taken) - obs.points_taken[obs.seat]) / scale
    last = float(len(obs.trick) == n - 1)
    size = float(r.hand_size) or 1.0
    suit_out = [sum(out[s * 13 + k] for k in range(13)) for s in range(4)]
    suit_mine = [sum(mine[s * 13 + k] for k in range(13)) for s in range(4)]
    result = []
    for c in cards:
        suit, rank = divmod(c, 13)
        higher = sum(out[suit * 13 + k] for k in range(rank + 1, 13))
        lower = sum(out[suit * 13 + k] for k in range(rank))
        if kind is Kind.PLAY and trick_cards:
            winner = trick_winner([*trick_cards, c], r.decks == 2, r.cancel_whole_trick)
            wins = float(winner == len(trick_cards))
        else:
            wins = 0.0
        v = values[c]
        result.append(
            (
                c,
                [
                    float(kind is Kind.PASS),
                    float(kind is Kind.PLAY),
                    rank / 12.0,
                    v / 13.0,
                    float(v > 0),
                    float(v < 0),
                    float(suit == led_suit),
                    float(kind is Kind.PLAY and not trick_cards),
                    wins,
                    trick_points,
                    higher / 12.0,
                    lower / 12.0,
                    suit_mine[suit] / 13.0,
                    suit_out[suit] / 13.0,
                    last,
                    float(obs.hearts_broken),
                    float(voids[suit]),
                    big_out,
                    len(obs.tricks) / size,
                    my_points,
                    others,
                    float(suit == obs.penalty_suit),
                    float(c in picks),
                    costs[c],
                    alarm,
                    *passing,
                    hand_left,
                ],
            )
        )
    return result


def _standard_view(obs: Observation, view: View, cards: list[int]) -> tuple[set[int], dict[int, float]]:
    """The ``standard`` player's choice among ``cards`` and how much worse it rates each card (0 = its best).

    Plays: its card and its cost of each card over the cheapest, in
    thirteenths of a point, capped at 2.  Passes: its cards and how much less
    it wants to pass each card than the card it most wants to pass.  These
    put the heuristic player's judgment in front of the network, which
    learns where the expert departs from it.
    """
    if obs.decision is Kind.PLAY:
        if len(cards) == 1:
            return {cards[0]}, {cards[0]: 0.0}
        if standard.shooting(view, cards):
            pick = standard.shoot_card(view, cards)
            return {pick}, {c: 0.0 if c == pick else 1.0 for c in cards}
        raw = standard.card_costs(view, cards)
        low = min(raw.values())
        pick = min(cards, key=lambda c: (raw[c], c))
        return {pick}, {c: min((raw[c] - low) / 13.0, 2.0) for c in cards}
    picks = set(standard.pass_cards(obs))
    score = {c: standard.pass_score(view, c) for c in cards}
    high = max(score.values())
    return picks, {c: min((high - score[c]) / 13.0, 2.0) for c in cards}


@dataclass(frozen=True)
class Network:
    """One hidden layer of ReLU units, then a score: ``w2 . relu(w1 x + b1) + b2``."""

    w1: tuple[tuple[float, ...], ...]  # hidden x features
    b1: tuple[float, ...]
    w2: tuple[float, ...]
    b2: float

    @staticmethod
    def from_json(data: dict[str, Any]) -> Network:
        if data.get("features") != list(FEATURES):
            raise ValueError("the learned weights were trained on other features; retrain them")
        return Network(
            tuple(tuple(float(x) for x in row) for row in data["w1"]),
            tuple(float(x) for x in data["b1"]),
            tuple(float(x) for x in data["w2"]),
            float(data["b2"]),
        )

    def score(self, x: list[float]) -> float:
        total = self.b2
        for row, b, w in zip(self.w1, self.b1, self.w2):
            h = b + sum(map(mul, row, x))  # the dot product in C: a few times faster than a Python loop
            if h > 0.0:
                total += w * h
        return total


@cache
def shipped_network() -> Network:
    """The weights shipped with the package."""
    text = resources.files("corazones.players").joinpath("data/learned.json").read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    return Network.from_json(data)


class LearnedBot(Bot):
    """Plays and passes by the trained network; bids, names suits and chooses the moon as ``standard``."""

    name = "learned"

    def __init__(self, seed: int | str | None = None, network: Network | None = None) -> None:
        super().__init__(seed)
        self.network = network if network is not None else shipped_network()
        self.standard = StandardBot(seed)

    def ranked(self, obs: Observation) -> list[tuple[float, int]]:
        """``(score, card)`` of every candidate card, best first (ties: lowest card)."""
        if obs.decision is Kind.PLAY:
            cards = legal_cards(obs)
            if len(set(cards)) == 1:  # a forced card: nothing to score
                return [(0.0, cards[0])]
        scored = [(self.network.score(f), c) for c, f in card_features(obs)]
        scored.sort(key=lambda sc: (-sc[0], sc[1]))
        return scored

    def choose_play(self, obs: Observation) -> int:
        return self.ranked(obs)[0][1]

    def choose_pass(self, obs: Observation) -> list[int]:
        k = obs.rules.pass_count
        chosen = [c for _, c in self.ranked(obs)][:k]
        left = list(obs.hand)
        for c in chosen:
            left.remove(c)
        while len(chosen) < k:  # two decks, fewer different cards than the pass: add second copies
            chosen.append(left.pop())
        return chosen

    def choose_bid(self, obs: Observation) -> int:
        return self.standard.choose_bid(obs)

    def choose_declare(self, obs: Observation) -> int:
        return self.standard.choose_declare(obs)

    def choose_moon(self, obs: Observation) -> str:
        return self.standard.choose_moon(obs)


def softmax(scores: list[float]) -> list[float]:
    """Probabilities from scores (for training code and analysis)."""
    top = max(scores)
    exp = [math.exp(s - top) for s in scores]
    total = sum(exp)
    return [e / total for e in exp]
