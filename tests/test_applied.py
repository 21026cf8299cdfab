"""``Game.apply`` says what each action completed, and the one replay rebuilds any game from its actions."""

from __future__ import annotations

import random

import pytest

from corazones.core import PRESETS, Action, Applied, Game, IllegalActionError, RecordError, Rules
from corazones.core.applied import NOTHING
from corazones.core.replay import rebuild, rebuild_steps
from tests.helpers import random_action


@pytest.mark.parametrize("preset", list(PRESETS))
def test_apply_names_each_trick_hand_and_the_end_as_the_state_shows_them(preset: str) -> None:
    game = Game(Rules.preset(preset), seed=11)
    rng = random.Random(11)
    tricks = hands = 0
    while not game.over:
        deal, before_tricks, before_hands = game.deal, len(game.deal.tricks), len(game.history)
        done = game.apply(random_action(game, rng))
        assert isinstance(done, Applied)
        if len(deal.tricks) > before_tricks:
            tricks += 1
            assert done.trick == deal.tricks[-1] and done.trick_winner == deal.tricks[-1].winner
        else:
            assert done.trick is None and done.trick_winner is None
        if len(game.history) > before_hands:
            hands += 1
            assert done.hand_ended and done.hand == game.history[-1]
        else:
            assert done.hand is None and not done.hand_ended
        assert done.game_over == (game.over and done.hand is not None)
        if done.trick is None and done.hand is None:
            assert done is NOTHING  # the common case makes nothing new
    assert done.game_over and hands == len(game.history) and tricks > 0


def test_the_replay_rebuilds_the_same_game_and_reports_each_step() -> None:
    game = Game(Rules.preset("standard"), seed=5)
    rng = random.Random(5)
    said = []
    while not game.over:
        said.append(game.apply(random_action(game, rng)))
    steps = list(rebuild_steps(game.rules, game.seed, game.actions))
    assert [s.applied for s in steps] == said
    assert [s.index for s in steps] == list(range(len(game.actions)))
    again = rebuild(game.rules, game.seed, game.actions)
    assert again.over and again.scores == game.scores and again.winners == game.winners


def test_an_illegal_action_is_named_by_its_number_in_the_readers_error() -> None:
    game = Game(Rules.preset("standard"), seed=5)
    first = random_action(game, random.Random(5))
    wrong = Action.play(0, "2C")  # nobody plays before the pass
    with pytest.raises(IllegalActionError, match=r"action #2 \(.*\) is illegal"):
        rebuild(game.rules, game.seed, [first, wrong])
    with pytest.raises(RecordError, match=r"action #2 "):
        list(rebuild_steps(game.rules, game.seed, [first, wrong], RecordError))
    assert rebuild(game.rules, game.seed, []).actions == []
