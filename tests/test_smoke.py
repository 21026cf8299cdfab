"""Every preset plays whole games to an end under random legal play."""

from __future__ import annotations

import random

import pytest

from corazones.core import PRESETS, Game, Rules

from .conftest import play_random


@pytest.mark.parametrize("preset", list(PRESETS))
def test_every_preset_finishes(preset: str) -> None:
    game = play_random(Game(Rules.preset(preset), seed=7), random.Random(7), max_hands=40)
    assert game.history, "at least one hand was scored"
    for h in game.history:
        assert len(h.scores) == game.rules.players
