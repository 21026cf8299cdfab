"""A game started from a position is not dealt from its seed, so no record of it is written (it would replay wrong)."""

from __future__ import annotations

import pytest

from corazones.core import RecordError, Rules
from corazones.core.cards import RANK_LETTERS
from corazones.core.game import Game
from corazones.core.position import Position, replay, start_deal, start_game
from corazones.core.records import make_record

RULES = Rules.preset("standard")
HANDS = [" ".join(r + s for r in RANK_LETTERS) for s in "CDSH"]


@pytest.mark.parametrize("start", [start_game, start_deal])
def test_make_record_refuses_a_game_started_from_a_position(start: object) -> None:
    game = start(Position.of(RULES, HANDS), seed=1)  # type: ignore[operator]
    assert game.from_position
    later = replay(game, [{"seat": 0, "pass": ["2C", "3C", "4C"]}])
    assert later.from_position and later.clone().from_position
    for g in (game, later):
        with pytest.raises(RecordError, match=r"started from a position .* would replay to a different game"):
            make_record(g)


def test_a_game_dealt_from_its_seed_is_recorded() -> None:
    game = Game(RULES, seed=1)
    assert not game.from_position and not game.clone().from_position
    assert make_record(game)["seed"] == 1
