"""The event log and its broadcast: every change to a table becomes numbered events, stored before sent.

:class:`EventWriter` stores them (a group commit, fenced by the lease where
another process could own the table); :class:`EventLog` checks each against
the protocol, numbers them, waits for the store, then sends each connection
the events as its seat may see them (:func:`~corazones.server.views.redact`)
with its view after them.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Any, NamedTuple

from corazones.core.errors import N_
from corazones.server.context import Context
from corazones.server.metrics import Metrics
from corazones.server.outgoing import EventModel, encode, event_body
from corazones.server.refusal import Refused
from corazones.server.schema import Event
from corazones.server.table import TableRuntime
from corazones.server.views import redact, view_model
from corazones.services.store import StaleWrite, Store

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


class Stored(NamedTuple):
    """One event as stored (``data``) and as the protocol's model (``body``, validated once)."""

    seq: int
    kind: str
    data: dict[str, Any]
    body: EventModel


def seat_event(t: TableRuntime, seat: int) -> tuple[str, dict[str, Any]]:
    """The ``seat`` event: who sits in ``seat`` now."""
    return "seat", {"kind": "seat", "seat": t.seat_info(seat)}


class EventLog:
    """Numbering, storing and sending a table's events (the caller holds the table's lock)."""

    def __init__(self, ctx: Context, writer: EventWriter, metrics: Metrics) -> None:
        self.ctx = ctx
        self.writer = writer
        self.metrics = metrics

    async def emit(self, t: TableRuntime, events: list[tuple[str, dict[str, Any]]], by_view: bool = True) -> None:
        """Number, store, then send ``events``.  The last event carries each recipient's view when ``by_view``."""
        self.broadcast(t, await self.store_events(t, events), by_view)

    async def store_events(self, t: TableRuntime, events: list[tuple[str, dict[str, Any]]]) -> list[Stored]:
        """Check, number and store ``events`` (then send them with :meth:`broadcast`).

        An event the protocol could not carry is refused here (a ``ValidationError``), before it is stored.
        """
        if t.dropped:
            raise Refused("moved", N_("Another server process runs this table; reconnect there."))
        bodies = [event_body(data) for _kind, data in events]
        numbered = [(t.seq + i + 1, kind, data) for i, (kind, data) in enumerate(events)]
        started = time.perf_counter()
        try:
            await self.writer.write(t.id, numbered)
            self.metrics.write_times.append(time.perf_counter() - started)
        except StaleWrite:
            self.ctx.tables.drop(t.id, "the lease is another process's now")
            row = await asyncio.to_thread(self.ctx.store.table, t.id)
            url = row.lease_url if row is not None and row.lease_owner != self.ctx.process else None
            raise Refused("moved", N_("Another server process runs this table; reconnect there."), url=url) from None
        t.seq = numbered[-1][0]
        t.recent.extend(numbered)
        return [Stored(seq, kind, data, body) for (seq, kind, data), body in zip(numbered, bodies, strict=True)]

    def broadcast(self, t: TableRuntime, events: list[Stored], by_view: bool) -> None:
        """Send ``events`` to every connection as its seat may see them.

        The text is built once per seat (spectators share theirs), an event's redacted form
        (a pass others see without its cards) is checked once for all who see it.
        """
        texts: dict[int | None, list[str]] = {}
        redacted: dict[int, EventModel] = {}
        last = len(events) - 1
        for conn in list(t.conns):
            key = conn.seat
            lines = texts.get(key)
            if lines is None:
                view = view_model(t.game, key) if by_view else None
                lines = []
                for i, ev in enumerate(events):
                    body = ev.body
                    seen = redact(ev.data, key)
                    if seen is not ev.data:  # the same for every seat but the author's
                        if i not in redacted:
                            redacted[i] = event_body(seen)
                        body = redacted[i]
                    message = {
                        "type": "event",
                        "table": t.id,
                        "seq": ev.seq,
                        "event": body,
                        "view": view if i == last else None,
                    }
                    lines.append(encode(Event.model_validate(message)))
                texts[key] = lines
            for line in lines:
                conn.send(line)
