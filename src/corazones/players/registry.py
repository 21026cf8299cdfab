"""Players by level name, so faces and the arena can say ``"expert"``."""

from __future__ import annotations

from collections.abc import Callable

from corazones.core.errors import N_
from corazones.players.base import Bot
from corazones.players.beginner import BeginnerBot
from corazones.players.expert import ExpertBot
from corazones.players.learned import LearnedBot
from corazones.players.moonshot import MoonshotBot
from corazones.players.random_bot import RandomBot
from corazones.players.shooter import ShooterBot
from corazones.players.standard import StandardBot

LEVELS: dict[str, Callable[[int | str | None], Bot]] = {
    "random": RandomBot,
    "beginner": BeginnerBot,
    "standard": StandardBot,
    "expert": ExpertBot,
    "shooter": ShooterBot,
    "moonshot": MoonshotBot,
    "learned": LearnedBot,
}

#: Each level by the name people read (English msgids, translated by each face): the web's ``levelName``
#: in ``server/static/js/words.js`` gives the same words, and a test holds the two together.  The server
#: refuses a player name made of them; the terminal shows them on its start screen and seat boxes.
LEVEL_NAMES: dict[str, str] = {
    "random": N_("random"),
    "beginner": N_("beginner"),
    "standard": N_("standard"),
    "expert": N_("expert"),
    "shooter": N_("moon shooter"),
    "moonshot": N_("searching moon shooter"),
    "learned": N_("learned"),
}


def make_player(level: str, seed: int | str | None = None) -> Bot:
    """A new bot of ``level`` seeded with ``seed``."""
    try:
        factory = LEVELS[level]
    except KeyError:
        raise ValueError(f"unknown player level {level!r}; levels: {', '.join(LEVELS)}") from None
    return factory(seed)
