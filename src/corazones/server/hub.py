"""The tables a server process owns: games, seats, connections, bots, events and leases.

One :class:`TableRuntime` per table this process owns.  Every change to a
table (an action, a seat taken, a chat line) happens under the table's lock
and becomes numbered events that are **stored before they are sent**; a
restarted or another process rebuilds the table from the stored events, so
no acknowledged move is ever lost.  The hub renews the leases of its tables
and adopts tables whose owner died (several processes on one PostgreSQL).

The hub is made of parts with one job each, every part given only the
others it calls (docs/architecture.md draws them): :class:`Ownership`
(leases, loading, expiry), :class:`EventLog` (store, then broadcast),
:class:`Turns` (actions, bots, away players' grace, the end),
:class:`Seating` (seats and the start), :class:`Snapshots` (what a
connection is sent first), :class:`Connections` (attach, detach, chat,
revocation), :class:`Admission` (connections per address), :class:`Hints`
and :class:`Metrics`.  The routes call the part they need.

Nothing here reads a hidden card on behalf of a connection: views come from
:mod:`corazones.server.views`, which reads ``Game.observation`` only.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import secrets
import socket
from typing import Any

from corazones.core.actions import Action
from corazones.core.records import FIELDS, make_record
from corazones.core.replay import rebuild
from corazones.core.rules import Rules
from corazones.server.bots import BotPools
from corazones.server.connections import Admission, Connections
from corazones.server.context import Context
from corazones.server.events import EventLog, EventWriter
from corazones.server.hints import HintBudget, Hints
from corazones.server.metrics import Metrics
from corazones.server.ownership import Ownership
from corazones.server.refusal import Refused
from corazones.server.schema import LIMITS
from corazones.server.seating import Seating
from corazones.server.settings import Settings
from corazones.server.snapshots import Snapshots
from corazones.server.table import Conn, SeatState, TableRuntime, Tables, bot_key, new_table_id
from corazones.server.turns import Turns
from corazones.server.witness import DealWitness
from corazones.services.store import Store

__all__ = [
    "Conn",
    "DealWitness",
    "Hub",
    "Refused",
    "SeatState",
    "Settings",
    "TableRuntime",
    "bot_key",
    "new_table_id",
]

log = logging.getLogger("corazones.server")


class Hub:
    """Every table this process owns, and the services they share: builds the parts and runs their upkeep."""

    def __init__(self, store: Store, settings: Settings) -> None:
        self.store = store
        self.settings = settings
        self.process = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"
        self.tables = Tables()
        self.bots = BotPools(settings.bot_workers, settings.expert_workers)
        single = settings.single_process
        self.single = store.dialect == "sqlite" if single is None else single
        #: Writes are fenced by the lease where another process could adopt a table (PostgreSQL); a single
        #: process per database (SQLite) holds every table, so it spares the check on its hot path.
        self.writer = EventWriter(store, None if self.single else self.process)
        ctx = Context(store, settings, self.process, self.tables)
        self.metrics = Metrics()
        self.events = EventLog(ctx, self.writer, self.metrics)
        self.turns = Turns(ctx, self.events, self.bots, self.metrics)
        self.snapshots = Snapshots(ctx)
        self.seating = Seating(ctx, self.events, self.turns, self.snapshots)
        self.connections = Connections(ctx, self.events, self.turns, self.snapshots)
        self.ownership = Ownership(ctx, self.turns)
        self.admission = Admission(settings)
        self.hints = Hints(self.bots, HintBudget(LIMITS["hints_per_minute"], settings.clock))
        self._upkeep: asyncio.Task[None] | None = None

    async def start(self) -> None:
        self.writer.start()
        self.bots.warm()  # the first bot move should not wait for a process to start
        if self.single:
            # One process per SQLite file: every unfinished table is ours at once, whoever held it before.
            for tid in await asyncio.to_thread(self.store.unfinished):
                await self.ownership.adopt(tid, force=True)
        self._upkeep = asyncio.create_task(self._run_upkeep())
        if self.settings.tune_gc:
            self.metrics.tune_gc()
        self.metrics.watch_gc()

    async def stop(self) -> None:
        self.turns.stopping = True
        self.metrics.unwatch_gc()
        tasks = [self._upkeep] if self._upkeep else []
        for t in self.tables.values():
            tasks += t.thinking.values()
            t.stop_work()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await self.writer.stop()  # every event stored first: the next owner goes on from the last one
        await self.ownership.release_all()
        self.bots.shutdown()

    async def _run_upkeep(self) -> None:
        """Every third of a lease: renew the leases, close revoked sign-ins, expire idle tables."""
        period = max(0.2, self.settings.lease_ttl / 3)
        while True:
            await asyncio.sleep(period)
            try:
                await self.ownership.renew()
                await self.connections.sweep_revoked()
                await self.ownership.expire_idle()
            except asyncio.CancelledError:
                raise
            except Exception:  # the database is away: try again next period
                log.exception("lease renewal failed")

    def record_of(self, t_row: Any, events: list[Any]) -> dict[str, Any]:
        """The game record of a stored table (finished or not), with the commitment."""
        rules = Rules.from_dict(json.loads(t_row.rules))
        game = rebuild(rules, t_row.seed, (Action.from_json(ev.data["action"]) for ev in events if ev.kind == "action"))
        seats = json.loads(t_row.seats)
        names = [s.get("name") or (f"{s['level']} bot" if s.get("level") else f"seat {i}") for i, s in enumerate(seats)]
        record = make_record(game, names)
        if "commitment" in FIELDS and "commitment" not in record:
            record["commitment"] = t_row.commitment
        return record
