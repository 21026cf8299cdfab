"""The public API's fast paths change nothing but speed.

``Deal.legal_actions`` and ``Action.play`` hand out one shared play object per
(seat, card), and ``Game.apply`` plays such an object after asking only
``Deal.legal_mask``; every other action, and a shared one that is not legal
now, takes the full validation with its explanation.  ``deal.shuffle`` is
``random.Random.shuffle`` in compiled code: the same seed deals the same hands.
"""

from __future__ import annotations

import random

import pytest

from corazones.core import PRESETS, Action, CardError, Game, IllegalActionError, Kind, Rules
from corazones.core.actions import PLAY_ACTIONS
from corazones.core.deal import shuffle
from corazones.core.limits import MAX_PLAYERS
from tests.helpers import snapshot

from .test_rules_illegal import SCENARIOS, Scenario


@pytest.mark.parametrize("length", [0, 1, 2, 13, 52, 104])
def test_shuffle_draws_exactly_as_random_shuffle(length: int) -> None:
    for seed in [0, 1, 7, "corazones/abc/draw", "corazones/x/0", *range(100, 160)]:
        ours, theirs = random.Random(seed), random.Random(seed)
        a, b = list(range(length)), list(range(length))
        shuffle(ours, a)
        theirs.shuffle(b)
        assert a == b
        assert ours.random() == theirs.random()  # the same number of draws was taken


def test_plays_are_shared_objects_equal_to_fresh_ones() -> None:
    g = Game(Rules.preset("standard"), seed=5)
    while g.decision_kind() is Kind.PASS:
        s = g.to_act()[0]
        g.apply(Action.pass_cards(s, g.deal.hand(s)[:3]))
    seat = g.to_act()[0]
    legal = g.legal_actions(seat)
    assert legal and all(a is PLAY_ACTIONS[seat][a.card] for a in legal)
    assert legal == [Action(Kind.PLAY, seat, (a.card,)) for a in legal]
    assert Action.play(seat, legal[0].card) is legal[0]
    with pytest.raises(IllegalActionError, match="a seat is a whole number 0 to 10"):
        Action.play(MAX_PLAYERS, "2C")  # no table has that seat: refused where it is written
    assert g.observation(seat).legal == tuple(legal)


@pytest.mark.parametrize("scenario", [s for s in SCENARIOS if s.__name__.startswith(("play", "moon_play"))])
def test_a_shared_play_that_is_not_legal_is_refused_like_any_other(scenario: Scenario) -> None:
    game, action, message = scenario()
    fresh = Action(action.kind, action.seat, action.cards, action.value)  # a distinct object, same fields
    before = snapshot(game)
    for a in (action, fresh):
        with pytest.raises(IllegalActionError, match=message):
            game.apply(a)
        assert not game.is_legal(a)
        with pytest.raises(IllegalActionError, match=message):
            game.deal.apply(a)
        assert snapshot(game) == before


def test_a_shared_play_during_the_pass_is_refused() -> None:
    g = Game(Rules.preset("standard"), seed=2)
    assert g.decision_kind() is Kind.PASS
    with pytest.raises(IllegalActionError, match="play is not possible now: the game waits for pass"):
        g.apply(PLAY_ACTIONS[0][g.deal.hand(0)[0]])


@pytest.mark.parametrize("preset", list(PRESETS))
def test_shared_and_fresh_actions_play_the_same_game(preset: str) -> None:
    rules = Rules.preset(preset).replace(hands=2, target=None, tie_break="shared")
    games = [Game(rules, seed=f"fast/{preset}") for _ in range(2)]
    rngs = [random.Random(1), random.Random(1)]
    while not games[0].over:
        for i, (g, rng) in enumerate(zip(games, rngs)):
            seat = g.to_act()[0]
            if g.decision_kind() is Kind.PASS:
                action = Action.pass_cards(seat, rng.sample(g.deal.hand(seat), rules.pass_count))
            else:
                action = rng.choice(g.legal_actions(seat))
                if i:  # the second game gets a new object with the same fields
                    action = Action(action.kind, action.seat, action.cards, action.value)
            g.apply(action)
    assert games[1].over
    assert [a.to_json() for a in games[0].actions] == [a.to_json() for a in games[1].actions]
    assert games[0].history == games[1].history


def test_a_pass_of_card_indexes_is_the_pass_of_their_names() -> None:
    assert Action.pass_cards(1, [36, 51, 0]) == Action.pass_cards(1, "QS AH 2C") == Action(Kind.PASS, 1, (0, 36, 51))
    with pytest.raises(CardError, match="not a card: True"):
        Action.pass_cards(1, [True, 5, 6])
