"""Hints: each player's budget, and the bots' answer for a decision."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from corazones.core.errors import N_
from corazones.server.bots import BotPools, Busy
from corazones.server.limits import Buckets
from corazones.server.refusal import Refused
from corazones.server.table import TableRuntime


class HintBudget:
    """Each player's hints: one at a time, ``per_minute`` a minute (a burst of 3), by ``clock``.

    Per player, whatever connection or table asks, so twenty sockets of one guest get no more than one.
    Guests are free, so this alone does not bound the bots' work: the pool refuses a hint when too many
    already wait (``bots.Busy``), and a live table's bot moves always go first (``bots.MOVE``).
    """

    def __init__(self, per_minute: float, clock: Callable[[], float]) -> None:
        self.per_minute = per_minute
        self.asking: set[int] = set()
        self.buckets = Buckets(per_minute / 60.0, 3.0, clock)

    def take(self, player: int) -> Refused | None:
        """Count one hint of ``player`` (then call :meth:`done`), or why not."""
        if player in self.asking:
            return Refused("rate_limited", N_("One hint at a time: wait for the answer to the last one."))
        if not self.buckets.take(player):
            return Refused("rate_limited", N_("Too many hints: at most {n} a minute."), n=round(self.per_minute))
        self.asking.add(player)
        return None

    def done(self, player: int) -> None:
        self.asking.discard(player)


class Hints:
    """A hint for a seat's decision, from the bot pools, within its player's budget."""

    def __init__(self, bots: BotPools, budget: HintBudget) -> None:
        self.bots = bots
        self.budget = budget

    async def hint(self, t: TableRuntime, seat: int, level: str, player: int | None = None) -> Any:
        """The hint for ``seat``'s decision, within ``player``'s budget (:class:`HintBudget`): every
        request gets it or a refusal, never silence."""
        g = t.game
        if g is None or g.over:
            raise Refused("no_decision", N_("You have no decision to make now."))
        obs = g.observation(seat)
        if obs.decision is None:
            raise Refused("no_decision", N_("You have no decision to make now."))
        if player is not None:
            why = self.budget.take(player)
            if why is not None:
                raise why
        try:
            return await self.bots.hint(obs, level)
        except Busy:
            raise Refused("rate_limited", N_("The bots are busy: ask for a hint again in a moment.")) from None
        finally:
            if player is not None:
                self.budget.done(player)
