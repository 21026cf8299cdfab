"""Players by level name, so faces and the arena can say ``"expert"``."""

from __future__ import annotations

from collections.abc import Callable

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


def make_player(level: str, seed: int | str | None = None) -> Bot:
    """A new bot of ``level`` seeded with ``seed``."""
    try:
        factory = LEVELS[level]
    except KeyError:
        raise ValueError(f"unknown player level {level!r}; levels: {', '.join(LEVELS)}") from None
    return factory(seed)
