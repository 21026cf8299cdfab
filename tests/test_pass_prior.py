"""What the pass tells: the prior on who holds each hidden card, and deals sampled with it."""

from __future__ import annotations

import math
import random

import pytest

from corazones.core import Game, Kind, Rules
from corazones.core.cards import parse_card
from corazones.core.observation import Observation
from corazones.players.belief import Belief, World
from corazones.players.pass_prior import FLOOR, pass_prior
from corazones.players.registry import make_player

HIGH = [parse_card(c) for c in ("QS", "AS", "KS", "AH", "KH", "QH", "AD", "AC", "KD", "KC")]


def first_card(rules: Rules, seed: str, seat: int = 0) -> tuple[Game, Observation]:
    """A game of ``standard`` players at ``seat``'s first card of the first hand, and its observation."""
    g = Game(rules, seed=seed)
    bots = [make_player("standard", seed=f"{seed}/{s}") for s in range(rules.players)]
    while True:
        for s in g.to_act():
            obs = g.observation(s)
            if s == seat and g.decision_kind() is Kind.PLAY:
                return g, obs
            g.apply(bots[s].act(obs))


def test_nothing_to_tell_without_a_pass() -> None:
    g = Game(Rules.preset("standard"), seed=3)
    assert pass_prior(g.observation(0)) is None  # before the pass
    _, obs = first_card(Rules.preset("standard", passes=("hold",)), "hold")
    assert pass_prior(obs) is None
    for name, kw in (("kitty", {}), ("cancellation_hearts", {"players": 5})):
        _, obs = first_card(Rules.preset(name, **kw), "other")
        assert pass_prior(obs) is None, name


@pytest.mark.parametrize(("preset", "kw"), [("standard", {}), ("black_maria", {}), ("standard", {"players": 5})])
def test_shares_add_up_and_our_pass_stays_with_its_receiver(preset: str, kw: dict[str, object]) -> None:
    _, obs = first_card(Rules.preset(preset, **kw), "shares")
    prior = pass_prior(obs)
    assert prior is not None and obs.passed and obs.pass_to is not None
    hidden = [c for c in obs.rules.deck if c not in obs.hand]
    for c in hidden:
        row = prior[c]
        assert row[obs.seat] == 0.0
        # shares, each floored at a small value
        assert 0.99 <= sum(row) <= 1.0 + FLOOR * (obs.rules.players - 2) + 1e-9, (c, row)
    for c in obs.passed:
        assert prior[c][obs.pass_to] >= 0.99
    # the same observation gives the same prior (no hidden state, same in every process)
    assert pass_prior(obs, simulations=64) == pass_prior(obs, simulations=64)


def share(worlds: list[World], card: int, seat: int) -> float:
    """How often ``seat`` holds ``card`` in ``worlds``, kept off 0 and 1 (a log-likelihood must stay finite)."""
    return (sum(card in w.hands[seat] for w in worlds) + 0.5) / (len(worlds) + 1)


def test_the_prior_places_high_cards_better_than_an_even_deal() -> None:
    """Over real deals of standard players, the true holder of each high card is likelier under the prior."""
    even_ll = prior_ll = 0.0
    receiver_share = even_receiver = 0.0
    count = 0
    for g_i in range(30):
        g, obs = first_card(Rules.preset("standard"), f"truth/{g_i}")
        prior = pass_prior(obs, simulations=128)
        assert prior is not None
        even, weighed = Belief(obs, infer=False), Belief(obs, infer=False, prior=prior)
        rng = random.Random(g_i)
        worlds_even = [even.sample(rng) for _ in range(100)]
        worlds_prior = [weighed.sample(rng) for _ in range(100)]
        gone = {c for _, c in obs.trick}
        for c in HIGH:
            if c in obs.hand or c in gone or c in (obs.passed or ()):
                continue
            holder = next(s for s in range(4) if c in g.deal.hand(s))
            even_ll += math.log(share(worlds_even, c, holder))
            prior_ll += math.log(share(worlds_prior, c, holder))
            to = obs.pass_to
            receiver_share += sum(c in w.hands[to] for w in worlds_prior) / 100
            even_receiver += sum(c in w.hands[to] for w in worlds_even) / 100
            count += 1
    assert count > 100
    # the seat we passed to passed its own high cards on: an even deal gives it far too many
    assert receiver_share < 0.5 * even_receiver, (receiver_share, even_receiver)
    assert prior_ll / count > even_ll / count + 0.05, (prior_ll / count, even_ll / count)
