"""Computer players.  They see the core only, and only through observations."""

from corazones.players.base import Bot, Player
from corazones.players.registry import LEVELS, make_player

__all__ = ["LEVELS", "Bot", "Player", "make_player"]
