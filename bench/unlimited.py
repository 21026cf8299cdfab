"""Search players with the time limit off, for bench runs on a loaded machine (not a user level).

With ``time_limit=None`` a search bot spends its whole budget of sampled
deals on every decision, so two runs on the same boards differ only by the
code, however busy the cores are.  Name them to the arena as
``unlimited:expert`` and so on, with this folder on the path::

    PYTHONPATH=bench python3 bench/moon.py --pairs unlimited:expert/unlimited:moonshot --deals 50

``unlimited:prior`` is the expert with the pass prior
(``players/pass_prior.py``), ``unlimited:solved`` the expert with the exact
endgame of the last two tricks (``solve=2``), ``unlimited:weighed`` the expert
with others' points at a third of ours and the duel's playout weights,
``unlimited:tree`` the expert searching its cards by a tree in which every
position chooses its cards, ``unlimited:tree_follow`` the tree as
``ExpertBot(tree=True)`` searches it (a position seen too seldom is played out
by the policy).  ``unlimited:frozen`` is the expert as it
played on 2026-12-03, before the moon charge, the playouts' stoppers and
the pass prior: the copy that a change to the expert's play is measured
against (``docs/bots.md``).
"""

from __future__ import annotations

import os

from corazones.core.actions import Action
from corazones.core.observation import Observation
from corazones.players.expert import ExpertBot
from corazones.players.moonshot import MoonshotBot


def expert(seed: int | str | None = None) -> ExpertBot:
    """The ``expert`` level without its time limit."""
    return ExpertBot(seed, time_limit=None)


def moonshot(seed: int | str | None = None) -> MoonshotBot:
    """The ``moonshot`` level without its time limit."""
    return MoonshotBot(seed, time_limit=None)


def prior(seed: int | str | None = None) -> ExpertBot:
    """The expert that deals the hidden cards as the pass suggests (``pass_prior=True``), time limit off."""
    return ExpertBot(seed, time_limit=None, pass_prior=True)


def frozen(seed: int | str | None = None) -> ExpertBot:
    """The expert of 2026-12-03: no moon charge, defenders shed their highest card, even deals, hand-set weights."""
    return ExpertBot(seed, time_limit=None, moon_charge=0.0, stoppers=False, pass_prior=False, policy="hand")


def weighed(seed: int | str | None = None) -> ExpertBot:
    """``unlimited:expert`` with others' points at a third of ours and the duel's playout weights.

    The two levers that each measured a little above nothing head to head
    (``docs/bots.md``: ``others_weight`` 1/3, +0.20; ``policy="duel"``, +0.12),
    together.
    """
    return ExpertBot(seed, time_limit=None, others_weight=1 / 3, policy="duel")


def tree(seed: int | str | None = None) -> ExpertBot:
    """``unlimited:expert`` choosing its cards by a search tree shared by every sampled deal, every position of it
    choosing its own cards (``tree=True, tree_follow=0``, exploring at 0.7: the first run of ``docs/bots.md``)."""
    return ExpertBot(seed, time_limit=None, tree=True, tree_follow=0, tree_explore=0.7)


def tree_follow(seed: int | str | None = None) -> ExpertBot:
    """``unlimited:tree`` whose positions seen under 40 times play the policy's card, exploring less (0.3)."""
    return ExpertBot(seed, time_limit=None, tree=True, tree_follow=40, tree_explore=0.3)


def solved(seed: int | str | None = None) -> ExpertBot:
    """``unlimited:expert`` finishing each sampled deal by exact search once no hand holds more than 2 cards."""
    return ExpertBot(seed, time_limit=None, solve=2)


class _Aiming(MoonshotBot):
    """``unlimited:moonshot`` that notes, once per deal, that it played or passed for the moon."""

    def __init__(self, seed: int | str | None = None) -> None:
        super().__init__(seed, time_limit=None)
        self._seed = seed
        self._log = os.environ.get("CORAZONES_AIM_LOG")
        self._noted = False

    def act(self, obs: Observation) -> Action:
        action = super().act(obs)
        if self.aiming and not self._noted and self._log:
            self._noted = True
            with open(self._log, "a", encoding="utf-8") as f:
                f.write(f"{self._seed}\n")
        return action


def aiming(seed: int | str | None = None) -> MoonshotBot:
    """``unlimited:moonshot`` that appends its bot seed to ``$CORAZONES_AIM_LOG`` in every deal it aims at the moon.

    The arena's bot seed names the board, the rotation and the seat
    (``moon/12/1/3``), so the log counts the deals a moonshot went for the
    moon, to set beside the moons it shot (``bench/moon.py --out``).
    """
    return _Aiming(seed)
