"""The grace of an away player: their seat waits for them a while before a bot plays it."""

from __future__ import annotations

import asyncio
import contextlib
import time

from corazones.server.events import EventLog, seat_event
from corazones.server.refusal import Refused
from corazones.server.table import TableRuntime
from corazones.server.turns import Turns


class Grace:
    """A timer per away player's seat (``Settings.grace`` seconds); when it runs out, the table's
    ``takeover_level`` bot plays the seat until its player comes back (``SeatState.takeover``)."""

    def __init__(self, seconds: float, events: EventLog, turns: Turns) -> None:
        self.seconds = seconds
        self.events = events
        self.turns = turns

    def start(self, t: TableRuntime, seat: int) -> None:
        """The player of ``seat`` is away: their grace starts (unless it runs already, or a bot plays for them)."""
        s = t.seats[seat]
        if s.conns > 0 or s.takeover or seat in t.timers:
            return
        s.away_since = time.time()
        loop = asyncio.get_running_loop()
        t.timers[seat] = loop.call_later(self.seconds, lambda: asyncio.ensure_future(self._over(t, seat)))

    def cancel(self, t: TableRuntime, seat: int) -> None:
        """The player of ``seat`` is back, or left it: no grace runs for it."""
        h = t.timers.pop(seat, None)
        if h is not None:
            h.cancel()

    async def _over(self, t: TableRuntime, seat: int) -> None:
        t.timers.pop(seat, None)
        async with t.lock:
            s = t.seats[seat]
            if t.dropped or s.conns > 0 or s.player is None or t.status != "playing":
                return
            s.takeover = True
            s.gen += 1
            with contextlib.suppress(Refused):
                await self.events.emit(t, [seat_event(t, seat)], False)
        self.turns.schedule_bots(t)
