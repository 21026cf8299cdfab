"""Search players with the time limit off, for bench runs on a loaded machine (not a user level).

With ``time_limit=None`` a search bot spends its whole budget of sampled
deals on every decision, so two runs on the same boards differ only by the
code, however busy the cores are.  Name them to the arena as
``unlimited:expert`` and so on, with this folder on the path::

    PYTHONPATH=bench python3 bench/moon.py --pairs unlimited:expert/unlimited:moonshot --deals 50
"""

from __future__ import annotations

from corazones.players.expert import ExpertBot
from corazones.players.moonshot import MoonshotBot


def expert(seed: int | str | None = None) -> ExpertBot:
    """The ``expert`` level without its time limit."""
    return ExpertBot(seed, time_limit=None)


def moonshot(seed: int | str | None = None) -> MoonshotBot:
    """The ``moonshot`` level without its time limit."""
    return MoonshotBot(seed, time_limit=None)
