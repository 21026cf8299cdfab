"""The tables a server process owns: games, seats, connections, bots, events and leases.

One :class:`TableRuntime` per table this process owns.  Every change to a
table (an action, a seat taken, a chat line) happens under the table's lock
and becomes numbered events that are **stored before they are sent**; a
restarted or another process rebuilds the table from the stored events, so
no acknowledged move is ever lost.  The hub renews the leases of its tables
and adopts tables whose owner died (several processes on one PostgreSQL).

Nothing here reads a hidden card on behalf of a connection: views come from
:mod:`corazones.server.views`, which reads ``Game.observation`` only.
"""

from __future__ import annotations

import asyncio
import json
import os
import secrets
import socket
from collections import deque
from typing import Any

from corazones.core.actions import Action
from corazones.core.records import make_record
from corazones.core.replay import rebuild
from corazones.core.rules import Rules
from corazones.server.bots import BotPools
from corazones.server.connections import Connections
from corazones.server.events import EventLog, EventWriter
from corazones.server.hints import HintBudget, Hints
from corazones.server.metrics import Metrics
from corazones.server.ownership import Ownership
from corazones.server.refusal import Refused
from corazones.server.schema import LIMITS
from corazones.server.seating import Seating
from corazones.server.settings import Settings
from corazones.server.table import Conn, SeatState, TableRuntime, bot_key, new_table_id
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


class Hub(Ownership, EventLog, Seating, Turns, Connections, Hints, Metrics):
    """Every table this process owns, and the services they share."""

    def __init__(self, store: Store, settings: Settings) -> None:
        self.store = store
        self.settings = settings
        self.process = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"
        self.tables: dict[str, TableRuntime] = {}
        self.bots = BotPools(settings.bot_workers, settings.expert_workers)
        self.hints = HintBudget(LIMITS["hints_per_minute"], settings.clock)
        self._tasks: list[asyncio.Task[None]] = []
        #: set by :meth:`stop`: a bot turn cancelled then must not schedule the next one on a closing loop
        self._stopping = False
        self._loading: dict[str, asyncio.Future[TableRuntime | None]] = {}
        #: Seconds from an action's arrival to its broadcast (the last 10,000), for /healthz and the load bench.
        self.act_times: deque[float] = deque(maxlen=10_000)
        #: Seconds each group of events waited for its database write (queue and commit), the last 10,000.
        self.write_times: deque[float] = deque(maxlen=10_000)
        #: Seconds of each garbage collection of the oldest generation (the event loop stops meanwhile).
        self.gc_times: deque[float] = deque(maxlen=1_000)
        self._gc_started = 0.0
        #: Open connections per client address, table WebSockets and waiting pad followers together
        #: (limited by ``Settings.ws_per_address``; see :meth:`admit`).
        self.addresses: dict[str, int] = {}
        #: Per player, the token generation below which this process has seen their tokens revoked
        #: (:meth:`revoke_player`): the HTTP write limit counts a request with such a token per address,
        #: so a stolen, revoked token cannot spend its player's budget (``limits.HttpLimits``).
        self.revoked_below: dict[int, int] = {}
        single = settings.single_process
        self.single = store.dialect == "sqlite" if single is None else single
        #: Writes are fenced by the lease where another process could adopt a table (PostgreSQL); a single
        #: process per database (SQLite) holds every table, so it spares the check on its hot path.
        self.writer = EventWriter(store, None if self.single else self.process)

    def record_of(self, t_row: Any, events: list[Any]) -> dict[str, Any]:
        """The game record of a stored table (finished or not), with the commitment."""
        rules = Rules.from_dict(json.loads(t_row.rules))
        game = rebuild(rules, t_row.seed, (Action.from_json(ev.data["action"]) for ev in events if ev.kind == "action"))
        seats = json.loads(t_row.seats)
        names = [s.get("name") or (f"{s['level']} bot" if s.get("level") else f"seat {i}") for i, s in enumerate(seats)]
        record = make_record(game, names)
        from corazones.core import records

        if "commitment" in records.FIELDS and "commitment" not in record:
            record["commitment"] = t_row.commitment
        return record
