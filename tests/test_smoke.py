"""Every preset plays whole games to an end under random legal play."""

from __future__ import annotations

import random

import pytest

from corazones.core import PRESETS, Game, Rules
from corazones.core.limits import MAX_HANDS
from tests.helpers import play_random


@pytest.mark.parametrize("seed", [7, 8, 9])
@pytest.mark.parametrize("preset", list(PRESETS))
def test_every_preset_finishes(preset: str, seed: int) -> None:
    """The game ends by its own rule (target, hands, chips) well inside the longest game a record may hold."""
    game = play_random(Game(Rules.preset(preset), seed=seed), random.Random(seed), max_hands=MAX_HANDS)
    assert game.over, f"{preset}: not over after {game.hand_index} hands"
    assert game.history, "at least one hand was scored"
    for h in game.history:
        assert len(h.scores) == game.rules.players
