"""Records the review tests judge: one seat plays ``random``, the others the ``expert``.

The games are stored (``tests/data/review/PRESET.json``) so that the tests
spend their time reviewing, not playing.  Regenerate them with::

    PYTHONPATH=src nice -n 19 python3 -m tests.review_games
"""

from __future__ import annotations

import sys
from pathlib import Path

from corazones.core import Game, Rules
from corazones.core.records import dumps, loads, make_record
from corazones.core.rules import PRESETS

DATA = Path(__file__).resolve().parent / "data" / "review"
#: Hands per stored game.
HANDS = 2
#: The seat that plays ``random`` (seat 1 exists in every preset).
RANDOM_SEAT = 1
#: The experts' budget: a quarter of the default's deals and no time limit, so that the games are
#: reproducible (the same on any machine) and take seconds rather than minutes to play.
EXPERT_WORLDS = 100


def path(preset: str) -> Path:
    return DATA / f"{preset}.json"


def load(preset: str) -> dict[str, object]:
    return loads(path(preset).read_text(encoding="utf-8"))


def make(preset: str, seed: int = 7) -> str:
    """Play the game (random in :data:`RANDOM_SEAT`, the expert elsewhere) and return its record text."""
    from corazones.players.expert import ExpertBot
    from corazones.players.registry import make_player
    from corazones.players.table import play_game

    rules = Rules.preset(preset)
    game = Game(rules, seed=seed)
    seats = range(rules.players)
    bots = [
        make_player("random", s)
        if s == RANDOM_SEAT
        else ExpertBot(s, worlds=EXPERT_WORLDS, pass_worlds=2 * EXPERT_WORLDS, time_limit=None)
        for s in seats
    ]
    play_game(game, bots, max_hands=HANDS)
    names = ["random" if s == RANDOM_SEAT else "expert" for s in seats]
    return dumps(make_record(game, names))


def main(presets: list[str]) -> None:
    DATA.mkdir(parents=True, exist_ok=True)
    for preset in presets or list(PRESETS):
        path(preset).write_text(make(preset), encoding="utf-8")
        print(preset, flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
