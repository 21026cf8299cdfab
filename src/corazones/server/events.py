# mypy: disable-error-code="misc"
# Each method is typed on the whole Hub (self: Hub) so that a part calls the others; mypy refuses a self type
# narrower than the mixin (error code misc), which is the point here.
"""The event log and its broadcast: every change to a table becomes numbered events, stored before sent.

:class:`EventWriter` stores them (a group commit, fenced by the lease where
another process could own the table); :class:`EventLog` numbers them, waits
for the store, then sends each connection the events as its seat may see
them (:func:`~corazones.server.views.redact`) with its view after them.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import TYPE_CHECKING, Any

from corazones.core.errors import N_
from corazones.server.outgoing import encode
from corazones.server.refusal import Refused
from corazones.server.table import TableRuntime
from corazones.server.views import public_view, redact, seat_view
from corazones.services.store import StaleWrite, Store

if TYPE_CHECKING:
    from corazones.server.hub import Hub

log = logging.getLogger("corazones.server")


class EventWriter:
    """Writes events in a thread, grouping what arrives together into one transaction (a group commit)."""

    def __init__(self, store: Store, owner: str | None = None) -> None:
        self.store = store
        #: The process whose lease every write is fenced by (``Store.append_many``); None: not fenced.
        self.owner = owner
        #: SQLite commits on the event loop itself: a local insert without fsync (WAL, synchronous=NORMAL)
        #: takes well under a millisecond, less than handing it to a thread and back, which under load
        #: waited for the GIL and the scheduler (a p99 of 80 ms measured by bench/web_load.py).  A
        #: database across a network (PostgreSQL) is written from a thread.
        self.inline = store.dialect == "sqlite"
        self._queue: asyncio.Queue[tuple[str, list[tuple[int, str, dict[str, Any]]], asyncio.Future[None]]] = (
            asyncio.Queue()
        )
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.create_task(self._run())

    async def stop(self) -> None:
        if self._task:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def write(self, table_id: str, events: list[tuple[int, str, dict[str, Any]]]) -> None:
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        await self._queue.put((table_id, events, fut))
        await fut

    async def _run(self) -> None:
        while True:
            first = await self._queue.get()
            batch = [first]
            while not self._queue.empty() and len(batch) < 256:
                batch.append(self._queue.get_nowait())
            try:
                work = [(t, e) for t, e, _ in batch]
                if self.inline:
                    stale = self.store.append_many(work, self.owner)
                else:
                    stale = await asyncio.to_thread(self.store.append_many, work, self.owner)
            except Exception as e:  # the database is down: every writer hears it
                for _, _, fut in batch:
                    if not fut.done():
                        fut.set_exception(e)
                continue
            for tid, _, fut in batch:
                if fut.done():
                    continue
                if tid in stale:
                    fut.set_exception(StaleWrite(f"table {tid} is owned by another process"))
                else:
                    fut.set_result(None)


class EventLog:
    """Part of :class:`~corazones.server.hub.Hub`: numbering, storing and sending a table's events."""

    async def _emit(self: Hub, t: TableRuntime, events: list[tuple[str, dict[str, Any]]], by_view: bool = True) -> None:
        """Number, store, then send ``events`` (the caller holds ``t.lock``).

        The last event carries each recipient's view when ``by_view``.
        """
        self._broadcast(t, await self._store_events(t, events), by_view)

    async def _store_events(
        self: Hub, t: TableRuntime, events: list[tuple[str, dict[str, Any]]]
    ) -> list[tuple[int, str, dict[str, Any]]]:
        """Number and store ``events`` (the caller holds ``t.lock`` and sends them with :meth:`_broadcast`)."""
        if t.dropped:
            raise Refused("moved", N_("Another server process runs this table; reconnect there."))
        numbered = [(t.seq + i + 1, kind, data) for i, (kind, data) in enumerate(events)]
        started = time.perf_counter()
        try:
            await self.writer.write(t.id, numbered)
            self.write_times.append(time.perf_counter() - started)
        except StaleWrite:
            self._drop(t.id, "the lease is another process's now")
            row = await asyncio.to_thread(self.store.table, t.id)
            url = row.lease_url if row is not None and row.lease_owner != self.process else None
            raise Refused("moved", N_("Another server process runs this table; reconnect there."), url=url) from None
        t.seq = numbered[-1][0]
        t.recent.extend(numbered)
        return numbered

    def _broadcast(self: Hub, t: TableRuntime, numbered: list[tuple[int, str, dict[str, Any]]], by_view: bool) -> None:
        views: dict[int | None, list[str]] = {}
        last = len(numbered) - 1
        for conn in list(t.conns):
            key = conn.seat
            lines = views.get(key)
            if lines is None:
                view = self.view_for(t, key) if by_view else None
                lines = [
                    encode(
                        {
                            "type": "event",
                            "table": t.id,
                            "seq": seq,
                            "event": redact(data, key),
                            "view": view if i == last else None,
                        }
                    )
                    for i, (seq, _kind, data) in enumerate(numbered)
                ]
                views[key] = lines
            for line in lines:
                conn.send(line)

    def view_for(self: Hub, t: TableRuntime, seat: int | None) -> dict[str, Any] | None:
        if t.game is None:
            return None
        return public_view(t.game) if seat is None else seat_view(t.game, seat)
