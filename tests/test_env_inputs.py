"""What the environments do with input a researcher gets wrong: actions that are not whole numbers, a batch
with one bad action, positions under other rules, a language with no catalogue."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="the env extra is not installed (pip install 'corazones[env]')")

from corazones.core import Game, Rules
from corazones.core.position import Position
from corazones.env import HeartsEnv, hearts_v0
from corazones.env.vector import HeartsVector


def dealt(rules: Rules, seed: int) -> Position:
    game = Game(rules, seed=seed)
    return Position(rules, tuple(tuple(game.deal.hand(s)) for s in range(rules.players)), dealer=game.dealer)


# ------------------------------------------------------------------ actions that are not whole numbers
@pytest.mark.parametrize("shift", [0.9, 0.0], ids=["2.9", "2.0"])
def test_a_float_action_is_refused_not_truncated(shift: float) -> None:
    env = hearts_v0.raw_env()
    env.reset(seed=1)
    legal = int(np.flatnonzero(env.observe("player_0")["action_mask"])[0])
    with pytest.raises(ValueError, match=r"an action is a whole number \(an int or a numpy integer\), not"):
        env.step(legal + shift)  # int() made this the legal card: a card the policy never chose
    assert env.table.picked[0] == []
    gym = HeartsEnv(opponents="random")
    _, info = gym.reset(seed=1)
    legal = int(np.flatnonzero(info["action_mask"])[0])
    for wrong in (legal + shift, str(legal), np.float32(legal)):
        with pytest.raises(ValueError, match="an action is a whole number"):
            gym.step(wrong)
    with pytest.raises(ValueError, match="not True"):
        gym.step(True)  # bool is an int to Python, never an action


def test_numpy_integers_are_actions() -> None:
    env = hearts_v0.raw_env()
    env.reset(seed=1)
    legal = np.flatnonzero(env.observe("player_0")["action_mask"])
    env.step(np.int64(legal[0]))
    env.step(np.array(legal[1], dtype=np.uint8))  # a 0-d array, as a policy's argmax gives
    assert env.table.picked[0] == [int(legal[0]), int(legal[1])]


def test_a_float_is_an_illegal_action_under_random_and_terminate() -> None:
    env = hearts_v0.raw_env(illegal="random")
    env.reset(seed=2)
    env.step(1.5)
    assert env.infos["player_0"] == {"illegal": True} and len(env.table.picked[0]) == 1
    env = hearts_v0.raw_env(illegal="terminate")
    env.reset(seed=2)
    env.step(float(np.flatnonzero(env.observe("player_0")["action_mask"])[0]))
    assert all(env.terminations.values()) and env.rewards["player_0"] == -1.0


# ------------------------------------------------------------------ a batch with one bad action
def test_a_batch_with_one_illegal_action_moves_no_game() -> None:
    vec = HeartsVector(4, "standard")
    _, masks = vec.reset(seed=1)
    actions = masks.argmax(axis=1)
    bad = actions.copy()
    bad[2] = 57  # a moon choice during the pass
    with pytest.raises(ValueError) as refused:
        vec.step(bad)
    assert [t.picked[0] for t in vec.tables] == [[], [], [], []]  # games 0 and 1 did not move either
    assert "game 2: player_0 may not take action moon: add_to_others now" in str(refused.value)
    with pytest.raises(ValueError, match=r"game 1: an action is a whole number .*; no game was stepped"):
        vec.step([int(actions[0]), 1.5, int(actions[2]), int(actions[3])])
    obs, masks_after, _, _ = vec.step(actions)  # the caller fixes the action and goes on: each game one step
    fresh = HeartsVector(4, "standard")
    fresh.reset(seed=1)
    expected, expected_masks, _, _ = fresh.step(actions)
    assert np.array_equal(obs, expected) and np.array_equal(masks_after, expected_masks)


def test_a_batch_needs_a_reset_first() -> None:
    with pytest.raises(ValueError, match=r"call reset\(\) before step\(\)"):
        HeartsVector(2).step([0, 0])


# ------------------------------------------------------------------ positions under other rules
def test_positions_must_have_the_environments_rules() -> None:
    standard = [dealt(Rules.preset("standard"), s) for s in (1, 2)]
    # a hands=1 environment would play these as whole matches to 100: the position's rules would win
    with pytest.raises(ValueError, match=r"the position's rules differ from the environment's in hands, tie_break"):
        hearts_v0.raw_env(hands=1, tie_break="shared", positions=standard)
    with pytest.raises(ValueError, match="differ from the environment's in"):
        HeartsEnv(opponents="random", hands=1, tie_break="shared", positions=standard)
    env = hearts_v0.raw_env()
    auction = dealt(Rules.preset("auction_hearts"), 3)  # its bids are not in the standard action space
    with pytest.raises(ValueError, match="differ from the environment's in auction, card_points"):
        env.reset(options={"position": auction})
    with pytest.raises(ValueError, match="differ from the environment's in auction"):
        env.reset(options={"position": auction.to_json()})
    mine = dealt(Rules.preset("standard", hands=1, tie_break="shared"), 1)  # built with the environment's rules
    one_deal = hearts_v0.raw_env(hands=1, tie_break="shared", positions=[mine])
    one_deal.reset(seed=0)
    rng = np.random.default_rng(0)
    while not one_deal.table.over:
        one_deal.step(int(rng.choice(np.flatnonzero(one_deal.observe(one_deal.agent_selection)["action_mask"]))))
    assert len(one_deal.game.history) == 1
    same_but_named: Any = dealt(Rules.preset("black_lady"), 1)  # the same rules by another name
    hearts_v0.raw_env(positions=[same_but_named]).reset(seed=0)


# ------------------------------------------------------------------ languages
def test_an_unknown_language_is_refused() -> None:
    with pytest.raises(ValueError, match="lang = 'fr' is not allowed; one of: en, es"):
        hearts_v0.raw_env(lang="fr")
    with pytest.raises(ValueError, match="lang = 'ES' is not allowed"):
        HeartsEnv(opponents="random", lang="ES")
