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
import contextlib
import gc
import hashlib
import json
import logging
import os
import secrets
import socket
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from corazones.core.actions import Action, Kind
from corazones.core.commitment import commit
from corazones.core.errors import N_, CorazonesError
from corazones.core.game import Game
from corazones.core.records import make_record
from corazones.core.rules import Rules
from corazones.i18n import error_text, translator
from corazones.server.bots import MOVE, SHOW, BotPools, Busy
from corazones.server.guard import ConnectionLimits, Trust
from corazones.server.options import OptionsRefused, rules_of
from corazones.server.schema import LIMITS, RulesOptions
from corazones.server.views import public_view, redact, seat_view
from corazones.services.ratings import rate_table
from corazones.services.store import StaleWrite, Store
from corazones.services.store.repo import UNFINISHED

log = logging.getLogger("corazones.server")


class Refused(CorazonesError):
    """A request the table refuses: ``code`` (schema.ErrorCode) and an English template with its parameters.

    A :class:`CorazonesError` like every other refusal, so one mechanism shows
    it: a WebSocket ``error`` carries ``i18n.error_text`` in the connection's
    language, an HTTP refusal ``i18n.error_json`` for the page to translate.
    A parameter may be the core's error itself (why a move is illegal): it is
    translated with the template, so a Spanish player reads the reason in
    Spanish.  ``url`` is not part of the text: it tells a client where to
    reconnect (``moved``).
    """

    def __init__(self, code: str, template: str, /, url: str | None = None, **params: Any) -> None:
        super().__init__(template, **params)
        self.code = code
        self.url = url


@dataclass
class Settings:
    """How a server process runs (``corazones serve`` fills it from its options)."""

    db_url: str
    public_url: str = "http://127.0.0.1:8000"
    grace: float = 60.0
    lease_ttl: float = 10.0
    bot_delay: float = 0.5
    bot_workers: int = 1
    expert_workers: int = 1
    single_process: bool | None = None  # None: true for SQLite (one process per file)
    http_writes_per_minute: int | None = None  # None: LIMITS["http_writes_per_minute"]
    #: Days a token stays valid after it is issued (None: LIMITS["token_days"]; the web app renews it on every visit).
    token_days: float | None = None
    #: Open WebSocket connections one client address may hold (None: LIMITS["ws_per_address"]).
    ws_per_address: int | None = None
    #: Connections to one table (None: LIMITS["table_connections"]).
    table_connections: int | None = None
    #: Seconds a new connection has to say hello (None: LIMITS["hello_timeout_seconds"]).
    hello_timeout: float | None = None
    #: Unfinished tables created from one client address (None: LIMITS["tables_per_address"]).
    tables_per_address: int | None = None
    #: Tables this process holds at most (None: LIMITS["tables_per_process"]).
    tables_per_process: int | None = None
    #: Minutes a table not started yet waits with nobody connected before it expires
    #: (None: LIMITS["open_table_idle_minutes"]).
    open_table_idle_minutes: float | None = None
    #: Where a new table's secret seed comes from; None: ``secrets.token_urlsafe(32)``.  Tests and
    #: tournaments with pre-announced deals give their own.
    seed_source: Callable[[], str] | None = None
    #: The clock the rate limits read, in seconds (monotonic): the HTTP write budget (``limits.HttpLimits``)
    #: and each connection's message and chat budgets (``routes.ws.TokenBucket``) refill by it.  Tests give a
    #: ``local.ManualClock`` so a budget refills only when they say, however slowly a loaded machine sends.
    clock: Callable[[], float] = time.monotonic
    #: Tune the garbage collector for a long-running server (``corazones serve`` sets it; tests do not,
    #: since it is process-wide): see :meth:`Hub.tune_gc`.
    tune_gc: bool = False
    #: Limits at accept time, before HTTP: connections per address and in all, request heads' size and time.
    connections: ConnectionLimits = field(default_factory=ConnectionLimits)
    #: The proxies uvicorn trusts (``--forwarded-allow-ips``; None: ``$FORWARDED_ALLOW_IPS``, else the
    #: loopback addresses, as uvicorn): a request that still comes from one of them was not forwarded
    #: (the operator's own, on the machine), so the per-address caps on tables do not apply to it.
    trusted_proxies: str | None = None

    def trusted(self, address: str) -> bool:
        """Whether ``address`` is a proxy uvicorn trusts (see ``trusted_proxies``)."""
        spec = self.trusted_proxies
        if spec is None:
            spec = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1,::1")
        return address in Trust(spec)

    def limit(self, name: str) -> float:
        """A limit of :data:`LIMITS` as this process enforces it (the settings may lower or raise it)."""
        own = {
            "token_days": self.token_days,
            "ws_per_address": self.ws_per_address,
            "table_connections": self.table_connections,
            "hello_timeout_seconds": self.hello_timeout,
            "http_writes_per_minute": self.http_writes_per_minute,
            "tables_per_address": self.tables_per_address,
            "tables_per_process": self.tables_per_process,
            "open_table_idle_minutes": self.open_table_idle_minutes,
        }.get(name)
        return own if own is not None else LIMITS[name]

    def limits(self) -> dict[str, float]:
        """Every limit as this process enforces it (sent in ``welcome``)."""
        return {name: self.limit(name) for name in LIMITS}


@dataclass
class SeatState:
    kind: str  # "human" or "bot"
    level: str | None = None
    player: int | None = None
    name: str = ""
    conns: int = 0
    takeover: bool = False  # a bot plays for an away human
    away_since: float | None = None
    gen: int = 0  # bumped whenever who controls the seat changes (stale bot moves are dropped)

    def stored(self) -> dict[str, Any]:
        return {"kind": self.kind, "level": self.level, "player": self.player, "name": self.name}

    def status(self, started: bool) -> str:
        if self.kind == "bot":
            return "bot"
        if self.player is None:
            return "bot" if started else "empty"
        if self.conns > 0:
            return "human"
        return "bot" if self.takeover else "away"

    def info(self, seat: int, started: bool, takeover_level: str) -> dict[str, Any]:
        status = self.status(started)
        level = self.level if self.kind == "bot" else (takeover_level if status == "bot" else None)
        name = self.name or (f"{level} bot" if status == "bot" else "")
        return {
            "seat": seat,
            "kind": self.kind,
            "status": status,
            "name": name,
            "level": level,
            "player": self.player,
        }


@dataclass(eq=False)
class Conn:
    """One WebSocket connection: who it is, what it may see, and its outgoing queue."""

    player_id: int
    player_name: str
    player_kind: str
    lang: str
    send: Callable[[str], None]
    close: Callable[[int, str], None]
    seat: int | None = None
    #: The generation of the token this connection said hello with; a newer one in the store revokes it.
    token_gen: int = 0


class DealWitness:
    """Who has held which seat in the current deal: one person never holds two seats' information in a deal.

    A player who has sat in a seat during a deal has seen its hand (and its pass, and what it received),
    so until the next deal starts they may sit only in that seat again; a seat its human gave up during a
    deal (``leave``, ``remove``) stays with its bot until the next deal, so nobody else reads that hand
    either.  A spectator who never sat in this deal may take a seat that no human held in it.  Rebuilt
    from the stored events when a process loads the table (:meth:`replay`), so a restart or another
    process keeps the rule.
    """

    def __init__(self) -> None:
        #: player -> the seat they held in this deal
        self.held: dict[int, int] = {}
        #: seats a human gave up during this deal (a bot plays them until it ends)
        self.vacated: set[int] = set()
        #: who sits where now, as the events said (for :meth:`replay`)
        self._sitting: dict[int, int | None] = {}

    def new_deal(self, seats: list[SeatState]) -> None:
        """A deal starts: only the humans sitting now have seen (or will see) a hand of it."""
        self.held = {s.player: i for i, s in enumerate(seats) if s.kind == "human" and s.player is not None}
        self.vacated = set()

    def sat(self, player: int, seat: int) -> None:
        self.held[player] = seat

    def left(self, seat: int) -> None:
        self.vacated.add(seat)

    def refusal(self, player: int, seat: int) -> Refused | None:
        """Why ``player`` may not sit in ``seat`` during this deal, or None."""
        held = self.held.get(player)
        if held is not None and held != seat:
            return Refused(
                "seat_taken",
                N_("You held seat {held} in this deal: you may sit in another seat when the next deal starts."),
                held=held,
            )
        if held is None and seat in self.vacated:
            return Refused(
                "seat_taken",
                N_("Seat {seat} was given up during this deal: its bot plays it until the next deal starts."),
                seat=seat,
            )
        return None

    def replay(self, kind: str, data: dict[str, Any]) -> None:
        """Follow one stored event (in order) to rebuild who held what in the current deal."""
        if kind == "game_start":
            self._sitting = {s["seat"]: s.get("player") for s in data.get("seats", []) if s.get("kind") == "human"}
        elif kind == "hand_start":
            self.held = {p: i for i, p in self._sitting.items() if p is not None}
            self.vacated = set()
        elif kind == "seat":
            info = data.get("seat") or {}
            seat, player = info.get("seat"), info.get("player")
            if not isinstance(seat, int) or info.get("kind") != "human":
                return
            before = self._sitting.get(seat)
            self._sitting[seat] = player
            if player is None and before is not None:
                self.vacated.add(seat)
            elif player is not None:
                self.held[player] = seat


@dataclass(eq=False)
class TableRuntime:
    id: str
    name: str
    preset: str
    rules: Rules
    seed: str
    commitment: str
    status: str
    private: bool
    invite: str
    owner: int | None
    takeover_level: str
    created: float
    seats: list[SeatState]
    seq: int = 0
    game: Game | None = None
    recent: deque[tuple[int, str, dict[str, Any]]] = field(default_factory=lambda: deque(maxlen=512))
    chat: deque[dict[str, Any]] = field(default_factory=lambda: deque(maxlen=50))
    conns: set[Conn] = field(default_factory=set)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    thinking: dict[int, asyncio.Task[None]] = field(default_factory=dict)
    timers: dict[int, asyncio.TimerHandle] = field(default_factory=dict)
    dropped: bool = False
    #: Players the owner removed from their seat: they may not sit at or connect to this table again.
    removed: set[int] = field(default_factory=set)
    #: Who held which seat in the current deal (see :class:`DealWitness`).
    witness: DealWitness = field(default_factory=DealWitness)
    #: When something last happened here (a connection came or went, a seat was taken or left): a table
    #: not started yet expires when nobody has been connected for a while (:meth:`Hub._expire_idle`).
    touched: float = field(default_factory=time.time)
    #: The client address that created it, in this process (the cap of tables per address).
    address: str | None = None

    @property
    def started(self) -> bool:
        return self.status != "open"

    @property
    def attended(self) -> bool:
        """Whether a person holds a seat (else the table is a show of bots: see :meth:`Hub._schedule_bots`)."""
        return any(s.kind == "human" and s.player is not None for s in self.seats)

    def seat_of(self, player_id: int) -> int | None:
        for i, s in enumerate(self.seats):
            if s.kind == "human" and s.player == player_id:
                return i
        return None

    def bot_level(self, seat: int) -> str | None:
        """The level of the bot that plays ``seat`` now, or None when a human must."""
        if not self.started or self.status == "finished":
            return None
        s = self.seats[seat]
        if s.status(True) != "bot":
            return None
        return s.level if s.kind == "bot" and s.level else self.takeover_level


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


class HintBudget:
    """Each player's hints: one at a time, ``per_minute`` a minute (a burst of 3), by ``clock``.

    Per player, whatever connection or table asks, so twenty sockets of one guest get no more than one.
    Guests are free, so this alone does not bound the bots' work: the pool refuses a hint when too many
    already wait (``bots.Busy``), and a live table's bot moves always go first (``bots.MOVE``).
    """

    def __init__(self, per_minute: float, clock: Callable[[], float]) -> None:
        self.rate = per_minute / 60.0
        self.burst = 3.0
        self.clock = clock
        self.asking: set[int] = set()
        self.buckets: dict[int, tuple[float, float]] = {}

    def take(self, player: int) -> Refused | None:
        """Count one hint of ``player`` (then call :meth:`done`), or why not."""
        if player in self.asking:
            return Refused("rate_limited", N_("One hint at a time: wait for the answer to the last one."))
        now = self.clock()
        tokens, at = self.buckets.pop(player, (self.burst, now))
        tokens = min(self.burst, tokens + (now - at) * self.rate)
        if tokens < 1:
            self.buckets[player] = (tokens, now)
            return Refused("rate_limited", N_("Too many hints: at most {n} a minute."), n=round(self.rate * 60))
        self.buckets[player] = (tokens - 1, now)
        while len(self.buckets) > 10_000:  # forget the oldest (dicts keep insertion order)
            del self.buckets[next(iter(self.buckets))]
        self.asking.add(player)
        return None

    def done(self, player: int) -> None:
        self.asking.discard(player)


def new_table_id() -> str:
    return secrets.token_urlsafe(9)


def bot_key(seed: str) -> str:
    """The seed of a table's bots: derived from the table's seed (so a game replays exactly from its
    seed, bots' choices included) by a one-way hash (so a bot's worker cannot learn the deal from it)."""
    return hashlib.sha256(f"corazones-bots:{seed}".encode()).hexdigest()[:16]


class Hub:
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

    # ------------------------------------------------------------ lifecycle
    async def start(self) -> None:
        self.writer.start()
        self.bots.warm()  # the first bot move should not wait for a process to start
        if self.single:
            # One process per SQLite file: every unfinished table is ours at once, whoever held it before.
            for tid in await asyncio.to_thread(self.store.unfinished):
                await self.adopt(tid, force=True)
        self._tasks.append(asyncio.create_task(self._leases()))
        if self.settings.tune_gc:
            self.tune_gc()
        gc.callbacks.append(self._gc_watch)

    @staticmethod
    def tune_gc() -> None:
        """Keep full garbage collections rare and short: they stop the event loop for every table.

        Everything loaded at start (modules, the app, the store) is moved out of the collector's
        sight (``gc.freeze``), and the young generation is collected every 20,000 allocations
        rather than 700: a server allocates a few hundred objects per message, so the default
        ran a collection every few messages and an oldest-generation one (which walks every
        table's game) every few seconds.  Measured with ``bench/web_load.py`` (docs/server.md).
        """
        gc.collect()
        gc.freeze()
        gc.set_threshold(20_000, 20, 20)

    def _gc_watch(self, phase: str, info: dict[str, Any]) -> None:
        if info.get("generation") != 2:
            return
        if phase == "start":
            self._gc_started = time.perf_counter()
        elif self._gc_started:
            self.gc_times.append(time.perf_counter() - self._gc_started)

    async def stop(self) -> None:
        self._stopping = True
        with contextlib.suppress(ValueError):
            gc.callbacks.remove(self._gc_watch)
        tasks = list(self._tasks)
        for t in self.tables.values():
            tasks += t.thinking.values()
            for h in t.timers.values():
                h.cancel()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await self.writer.stop()
        self.bots.shutdown()

    async def _leases(self) -> None:
        """Renew our leases, let go of tables another process took, adopt tables whose owner died."""
        period = max(0.2, self.settings.lease_ttl / 3)
        while True:
            await asyncio.sleep(period)
            try:
                ids = [tid for tid, t in self.tables.items() if t.status != "finished"]
                kept = await asyncio.to_thread(self.store.renew, self.process, ids, self.settings.lease_ttl)
                for tid in set(ids) - kept:
                    self._drop(tid, "lease lost")
                for tid in [tid for tid, t in self.tables.items() if t.status == "finished" and not t.conns]:
                    del self.tables[tid]  # finished and nobody looking: reload on demand
                for tid in await asyncio.to_thread(self.store.claimable, self.process):
                    if len(self.tables) >= self.settings.limit("tables_per_process"):
                        break  # the rest are for other processes (or for this one when it has room)
                    if tid not in self.tables:
                        await self.adopt(tid)
                await self._sweep_revoked()
                await self._expire_idle()
            except asyncio.CancelledError:
                raise
            except Exception:  # the database is away: try again next period
                log.exception("lease renewal failed")

    async def _expire_idle(self) -> None:
        """Tables not started yet that nobody has been connected to for ``open_table_idle_minutes``
        expire: stored as ``expired`` (no longer listed, renewed or adopted; ``GET`` answers 404)."""
        limit = self.settings.limit("open_table_idle_minutes") * 60
        now = time.time()
        idle = [t for t in self.tables.values() if t.status == "open" and not t.conns and now - t.touched > limit]
        for t in idle:
            async with t.lock:
                if t.status != "open" or t.conns or now - t.touched <= limit:
                    continue
                await asyncio.to_thread(self.store.update_table, t.id, status="expired", lease_owner=None)
                t.status = "expired"
                self.tables.pop(t.id, None)
                log.info("table %s expired: not started, nobody connected for %.0f s", t.id, now - t.touched)

    def _drop(self, table_id: str, why: str) -> None:
        """Forget a table another process now owns; its connections are told to reconnect."""
        t = self.tables.pop(table_id, None)
        if t is None:
            return
        log.warning("table %s dropped: %s", table_id, why)
        t.dropped = True
        for task in t.thinking.values():
            task.cancel()
        for h in t.timers.values():
            h.cancel()
        for c in list(t.conns):
            c.close(4001, "table moved to another server process; reconnect")

    # ------------------------------------------------------ client addresses
    def admit(self, address: str) -> bool:
        """Count one more open connection from ``address`` (a table WebSocket, or a pad follower waiting
        for a change); False, and nothing counted, when the address already holds the limit.

        The count is this process's own (in memory): N processes behind one balancer allow an address
        up to N times the limit (docs/server.md).  Uvicorn puts the forwarded address in the request
        for proxies trusted by ``FORWARDED_ALLOW_IPS`` (``corazones serve --forwarded-allow-ips``).
        """
        n = self.addresses.get(address, 0)
        if n >= self.settings.limit("ws_per_address"):
            return False
        self.addresses[address] = n + 1
        return True

    def release(self, address: str) -> None:
        """The connection :meth:`admit` counted has closed."""
        left = self.addresses.get(address, 1) - 1
        if left > 0:
            self.addresses[address] = left
        else:
            self.addresses.pop(address, None)

    # ------------------------------------------------------------ revocation
    def revoke_player(self, player_id: int, gen: int) -> int:
        """Close every connection of ``player_id`` whose token is older than generation ``gen``
        (``error revoked``, then close 4003); how many were closed."""
        if gen > self.revoked_below.get(player_id, 0):
            self.revoked_below[player_id] = gen
        closed = 0
        for t in list(self.tables.values()):
            for c in list(t.conns):
                if c.player_id == player_id and c.token_gen < gen:
                    _tell(c, Refused("revoked", N_("You were signed out everywhere: this sign-in no longer works.")))
                    c.close(4003, "sign-in revoked")
                    closed += 1
        return closed

    async def _sweep_revoked(self) -> None:
        """Close the connections whose token was revoked elsewhere: by another server process, or by the
        operator (``corazones revoke``) straight in the database.  Runs with the lease renewal."""
        conns = [c for t in self.tables.values() for c in t.conns]
        if not conns:
            return
        gens = await asyncio.to_thread(self.store.token_gens, {c.player_id for c in conns})
        for pid, gen in gens.items():
            self.revoke_player(pid, gen)

    # -------------------------------------------------------------- loading
    async def get(self, table_id: str) -> TableRuntime:
        """The table, loaded (and its lease taken) if this process does not hold it yet.

        :class:`Refused` ``not_found`` for an unknown table, ``moved`` when a live
        process owns it.
        """
        t = self.tables.get(table_id)
        if t is not None:
            return t
        t = await self.adopt(table_id)
        if t is not None:
            return t
        row = await asyncio.to_thread(self.store.table, table_id)
        if row is None or row.status == "expired":
            raise Refused("not_found", N_("There is no table {table}."), table=table_id)
        if row.status == "finished":
            t = self.tables.get(table_id) or await self._load(table_id, finished=True)
            if t is not None:
                return t
        raise Refused("moved", N_("Another server process runs this table; reconnect there."), url=row.lease_url)

    async def adopt(self, table_id: str, force: bool = False) -> TableRuntime | None:
        """Take the lease of a table and rebuild it from its stored events; None if it is not free."""
        if table_id in self.tables:
            return self.tables[table_id]
        pending = self._loading.get(table_id)
        if pending is not None:
            return await pending
        fut: asyncio.Future[TableRuntime | None] = asyncio.get_running_loop().create_future()
        self._loading[table_id] = fut
        try:
            ok = await asyncio.to_thread(
                self.store.claim, table_id, self.process, self.settings.public_url, self.settings.lease_ttl, force
            )
            t = await self._load(table_id) if ok else None
            fut.set_result(t)
            return t
        except BaseException as e:
            fut.set_exception(e)
            raise
        finally:
            self._loading.pop(table_id, None)

    async def _load(self, table_id: str, finished: bool = False) -> TableRuntime | None:
        """Rebuild a table from its row and events: an unfinished one we hold the lease of, or
        (``finished``) a finished one, read-only, for people who open it after the end."""
        row = await asyncio.to_thread(self.store.table, table_id)
        if row is None or (row.status not in UNFINISHED and not (finished and row.status == "finished")):
            return None
        events = await asyncio.to_thread(self.store.events, table_id)
        seats = [SeatState(**s) for s in json.loads(row.seats)]
        t = TableRuntime(
            id=row.id,
            name=row.name,
            preset=row.preset,
            rules=Rules.from_dict(json.loads(row.rules)),
            seed=row.seed,
            commitment=row.commitment,
            status=row.status,
            private=row.private,
            invite=row.invite,
            owner=row.owner_id,
            takeover_level=row.takeover_level,
            created=row.created,
            seats=seats,
            removed=set(json.loads(row.removed or "[]")),
        )
        for ev in events:
            t.seq = ev.seq
            t.recent.append((ev.seq, ev.kind, ev.data))
            if ev.kind == "game_start":
                t.game = Game(t.rules, t.seed)
            elif ev.kind == "action" and t.game is not None:
                t.game.apply(Action.from_json(ev.data["action"]))
            elif ev.kind == "chat":
                t.chat.append(ev.data)
            t.witness.replay(ev.kind, ev.data)
        if t.game is not None and t.status == "open":
            t.status = "playing"
        self.tables[table_id] = t
        if t.game is not None and t.game.over and t.status != "finished":  # stopped before the results
            await self._finish(t)
            return t
        log.info("table %s loaded: %d events, %d actions", table_id, t.seq, len(t.game.actions) if t.game else 0)
        if t.status == "playing":
            for i, s in enumerate(t.seats):
                if s.kind == "human" and s.player is not None:
                    self._start_grace(t, i)
            self._schedule_bots(t)
        return t

    # --------------------------------------------------------------- events
    async def _emit(self, t: TableRuntime, events: list[tuple[str, dict[str, Any]]], by_view: bool = True) -> None:
        """Number, store, then send ``events`` (the caller holds ``t.lock``).

        The last event carries each recipient's view when ``by_view``.
        """
        self._broadcast(t, await self._store_events(t, events), by_view)

    async def _store_events(
        self, t: TableRuntime, events: list[tuple[str, dict[str, Any]]]
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

    def _broadcast(self, t: TableRuntime, numbered: list[tuple[int, str, dict[str, Any]]], by_view: bool) -> None:
        views: dict[int | None, str] = {}
        last = len(numbered) - 1
        for conn in list(t.conns):
            key = conn.seat
            text = views.get(key)
            if text is None:
                view = self.view_for(t, key) if by_view else None
                msgs = [
                    {
                        "type": "event",
                        "table": t.id,
                        "seq": seq,
                        "event": redact(data, key),
                        "view": view if i == last else None,
                    }
                    for i, (seq, _kind, data) in enumerate(numbered)
                ]
                text = "\n".join(json.dumps(m, separators=(",", ":")) for m in msgs)
                views[key] = text
            for line in text.split("\n"):
                conn.send(line)

    def view_for(self, t: TableRuntime, seat: int | None) -> dict[str, Any] | None:
        if t.game is None:
            return None
        return public_view(t.game) if seat is None else seat_view(t.game, seat)

    # ------------------------------------------------------------ table info
    def seat_infos(self, t: TableRuntime) -> list[dict[str, Any]]:
        return [s.info(i, t.started, t.takeover_level) for i, s in enumerate(t.seats)]

    def info(self, t: TableRuntime, viewer: int | None = None) -> dict[str, Any]:
        seated = viewer is not None and (t.seat_of(viewer) is not None or viewer == t.owner)
        over = t.status == "finished"
        return {
            "id": t.id,
            "name": t.name,
            "preset": t.preset,
            "rules": t.rules.to_dict(),
            "seats": self.seat_infos(t),
            "status": t.status,
            "private": t.private,
            "owner": t.owner,
            "spectators": sum(1 for c in t.conns if c.seat is None),
            "created": _iso(t.created),
            "invite_url": self.invite_url(t) if seated else None,
            "commitment": t.commitment if t.started else None,
            "seed": t.seed if over else None,
            "record_url": f"{self.settings.public_url}/api/games/{t.id}/record" if over else None,
        }

    def invite_url(self, t: TableRuntime) -> str:
        return f"{self.settings.public_url}/?table={t.id}&invite={t.invite}"

    # ---------------------------------------------------------------- lobby
    async def create(
        self,
        owner: int,
        owner_name: str,
        preset: str,
        options: RulesOptions,
        seats: list[dict[str, Any]] | None,
        my_seat: int | None,
        private: bool,
        name: str | None,
        takeover_level: str,
        address: str | None = None,
    ) -> TableRuntime:
        if len(self.tables) >= self.settings.limit("tables_per_process"):
            raise Refused("rate_limited", N_("This server holds as many tables as it may; try again later."))
        if address is not None:
            cap = int(self.settings.limit("tables_per_address"))
            if sum(1 for t in self.tables.values() if t.address == address and t.status != "finished") >= cap:
                raise Refused(
                    "rate_limited",
                    N_("Too many unfinished tables were created from your address: at most {n}."),
                    n=cap,
                )
        mine = sum(1 for t in self.tables.values() if t.owner == owner and t.status != "finished")
        if mine >= LIMITS["open_tables_per_player"]:
            raise Refused(
                "rate_limited",
                N_("You already have {n} unfinished tables; finish or leave one first."),
                n=LIMITS["open_tables_per_player"],
            )
        try:
            rules = rules_of(preset, options)
        except OptionsRefused as e:
            raise Refused("malformed", e.template, **e.params) from None
        n = rules.players
        if seats is None:
            seats = [
                {"kind": "human"} if i == (my_seat or 0) else {"kind": "bot", "level": "standard"} for i in range(n)
            ]
        if len(seats) != n:
            raise Refused("malformed", N_("Give one seat for each of the {n} players, not {k}."), n=n, k=len(seats))
        if all(s["kind"] == "bot" for s in seats):
            shows = sum(
                1 for x in self.tables.values() if x.owner == owner and x.status != "finished" and not x.attended
            )
            if shows >= LIMITS["bot_tables_per_player"]:
                raise Refused(
                    "rate_limited",
                    N_("You already have {n} unfinished tables of bots only; let one finish first."),
                    n=LIMITS["bot_tables_per_player"],
                )
        states = [SeatState(kind=s["kind"], level=s.get("level") if s["kind"] == "bot" else None) for s in seats]
        if my_seat is not None:
            if not 0 <= my_seat < n or states[my_seat].kind != "human":
                raise Refused("malformed", N_("Your seat must be one of the human seats."))
            states[my_seat].player = owner
            states[my_seat].name = owner_name
        seed = self.settings.seed_source() if self.settings.seed_source else secrets.token_urlsafe(32)
        now = time.time()
        t = TableRuntime(
            id=new_table_id(),
            name=name or f"{owner_name} · {preset}",
            preset=preset,
            rules=rules,
            seed=seed,
            commitment=commit(seed),
            status="open",
            private=private,
            invite=secrets.token_urlsafe(12),
            owner=owner,
            takeover_level=takeover_level,
            created=now,
            seats=states,
            address=address,
        )
        await asyncio.to_thread(
            self.store.add_table,
            id=t.id,
            name=t.name,
            preset=preset,
            rules=json.dumps(rules.to_dict()),
            seats=json.dumps([s.stored() for s in states]),
            seed=seed,
            commitment=t.commitment,
            status="open",
            private=private,
            invite=t.invite,
            owner_id=owner,
            takeover_level=takeover_level,
            created=now,
            lease_owner=self.process,
            lease_url=self.settings.public_url,
            lease_expires=now + self.settings.lease_ttl,
        )
        self.tables[t.id] = t
        async with t.lock:
            await self._maybe_start(t)
        return t

    async def _save_seats(self, t: TableRuntime) -> None:
        await asyncio.to_thread(self.store.update_table, t.id, seats=json.dumps([s.stored() for s in t.seats]))

    async def join(self, t: TableRuntime, player: int, name: str, seat: int | None, invite: str | None) -> int:
        """Seat ``player`` (the first free seat when ``seat`` is None); the seat taken."""
        async with t.lock:
            if t.status == "finished":
                raise Refused("game_over", N_("This game is over."))
            mine = t.seat_of(player)
            if mine is not None:
                if seat is None or seat == mine:
                    return mine
                raise Refused("seat_taken", N_("You already sit in seat {seat}; stand up first."), seat=mine)
            if player in t.removed:
                raise Refused("removed", N_("The host removed you from this table."))
            if t.private and invite != t.invite and player != t.owner:
                raise Refused("auth", N_("This table is private: you need its invite link."))
            free = [i for i, s in enumerate(t.seats) if s.kind == "human" and s.player is None]
            mid_deal = t.status == "playing" and t.game is not None and not t.game.over
            if seat is None:
                if mid_deal:  # the first free seat this player may take in this deal
                    free = [i for i in free if t.witness.refusal(player, i) is None]
                if not free:
                    raise Refused("seat_taken", N_("There is no free seat at this table."))
                seat = free[0]
            if not 0 <= seat < len(t.seats) or seat not in free:
                raise Refused("seat_taken", N_("Seat {seat} is not free."), seat=seat)
            if mid_deal:
                why = t.witness.refusal(player, seat)
                if why is not None:
                    raise why
                t.witness.sat(player, seat)
            s = t.seats[seat]
            s.player, s.name, s.takeover, s.away_since = player, name, False, None
            t.touched = time.time()
            s.conns = sum(1 for c in t.conns if c.player_id == player)
            s.gen += 1
            self._cancel_bot(t, seat)
            await self._save_seats(t)
            for c in t.conns:
                if c.player_id == player:
                    c.seat = seat
            await self._emit(t, [("seat", {"kind": "seat", "seat": s.info(seat, t.started, t.takeover_level)})], False)
            if t.started and s.conns == 0:
                self._start_grace(t, seat)
            await self._maybe_start(t)
            await self._resend(t, player)
            return seat

    async def leave(self, t: TableRuntime, player: int) -> None:
        async with t.lock:
            seat = t.seat_of(player)
            if seat is None:
                return
            s = t.seats[seat]
            s.player, s.name, s.takeover, s.away_since, s.conns = None, "", False, None, 0
            s.gen += 1
            self._cancel_timer(t, seat)
            if t.status == "playing":
                t.witness.left(seat)
            await self._save_seats(t)
            for c in t.conns:
                if c.player_id == player:
                    c.seat = None
            await self._emit(t, [("seat", {"kind": "seat", "seat": s.info(seat, t.started, t.takeover_level)})], False)
            await self._resend(t, player)
            self._schedule_bots(t)

    async def remove(self, t: TableRuntime, by: int, seat: int) -> None:
        """The owner takes ``seat`` away from the player holding it, who may not come back to this table.

        As if that player had left (before the start the seat is free again; during the game a bot
        of ``takeover_level`` plays it and anyone may take it), and their connections to this
        table are told why and closed (4004).  For a seat held with a token that went astray, or
        a player who walked away for good.
        """
        async with t.lock:
            if by != t.owner:
                raise Refused("auth", N_("Only the player who created the table can remove a player."))
            if t.status == "finished":
                raise Refused("game_over", N_("This game is over."))
            if not 0 <= seat < len(t.seats) or t.seats[seat].kind != "human" or t.seats[seat].player is None:
                raise Refused("malformed", N_("No player sits in seat {seat}."), seat=seat)
            s = t.seats[seat]
            player = s.player
            assert player is not None
            if player == by:
                raise Refused("malformed", N_("To give up your own seat, leave it."))
            s.player, s.name, s.takeover, s.away_since, s.conns = None, "", False, None, 0
            s.gen += 1
            self._cancel_timer(t, seat)
            if t.status == "playing":
                t.witness.left(seat)
            t.removed.add(player)
            await asyncio.to_thread(
                self.store.update_table,
                t.id,
                seats=json.dumps([x.stored() for x in t.seats]),
                removed=json.dumps(sorted(t.removed)),
            )
            for c in list(t.conns):
                if c.player_id == player:
                    t.conns.discard(c)
                    c.seat = None
                    _tell(c, Refused("removed", N_("The host removed you from this table.")))
                    c.close(4004, "removed by the host")
            await self._emit(t, [("seat", {"kind": "seat", "seat": s.info(seat, t.started, t.takeover_level)})], False)
            self._schedule_bots(t)

    async def start_now(self, t: TableRuntime, player: int) -> None:
        async with t.lock:
            if player != t.owner:
                raise Refused("auth", N_("Only the player who created the table can start it."))
            if t.status == "open":
                await self._start(t)

    async def _maybe_start(self, t: TableRuntime) -> None:
        if t.status == "open" and all(s.kind == "bot" or s.player is not None for s in t.seats):
            await self._start(t)

    async def _start(self, t: TableRuntime) -> None:
        t.status = "playing"
        t.game = Game(t.rules, t.seed)
        g = t.game
        from corazones.core.cards import card_str

        await asyncio.to_thread(self.store.update_table, t.id, status="playing", started=time.time())
        t.witness.new_deal(t.seats)
        await self._emit(
            t,
            [
                ("table", {"kind": "table", "status": "playing"}),
                (
                    "game_start",
                    {
                        "kind": "game_start",
                        "commitment": t.commitment,
                        "draw": [card_str(c) for c in g.draw],
                        "seats": self.seat_infos(t),
                    },
                ),
                ("hand_start", self._hand_start(t)),
            ],
        )
        for i, s in enumerate(t.seats):
            if s.kind == "human" and s.player is not None and s.conns == 0:
                self._start_grace(t, i)
        self._schedule_bots(t)

    def _hand_start(self, t: TableRuntime) -> dict[str, Any]:
        g = t.game
        assert g is not None
        return {
            "kind": "hand_start",
            "hand_index": g.hand_index,
            "dealer": g.deal.dealer,
            "pass_direction": g.deal.pass_direction,
            "commitment": t.commitment,
        }

    # --------------------------------------------------------------- actions
    async def act(self, t: TableRuntime, seat: int, data: dict[str, Any], by: str, gen: int | None = None) -> None:
        """Validate and apply one decision of ``seat``; store and broadcast what follows from it."""
        started = time.perf_counter()
        await self._act(t, seat, data, by, gen)
        self.act_times.append(time.perf_counter() - started)

    def act_percentiles(self) -> dict[str, float | None]:
        """In ms, p50 and p99 of the recent actions' time from arrival to broadcast within this process,
        of the database writes they waited for, and of the full garbage collections (with their count)."""
        out: dict[str, float | None] = {}
        for name, series in (("act", self.act_times), ("write", self.write_times), ("gc", self.gc_times)):
            times = sorted(series)
            out[f"{name}_p50_ms"] = round(times[len(times) // 2] * 1000, 2) if times else None
            out[f"{name}_p99_ms"] = (
                round(times[min(len(times) - 1, int(len(times) * 0.99))] * 1000, 2) if times else None
            )
        out["gc_full"] = len(self.gc_times)
        return out

    async def _act(self, t: TableRuntime, seat: int, data: dict[str, Any], by: str, gen: int | None) -> None:
        async with t.lock:
            g = t.game
            if t.status == "finished" or (g is not None and g.over):
                raise Refused("game_over", N_("This game is over."))
            if g is None:
                raise Refused("not_your_turn", N_("The game has not started yet."))
            if gen is not None and t.seats[seat].gen != gen:
                return  # a bot's move for a seat its human took back meanwhile
            try:
                action = Action.from_json(data)
            except CorazonesError as e:
                raise Refused("bad_action", N_("That is not a valid move: {why}"), why=e) from None
            if seat not in g.to_act():
                who = ", ".join(str(s) for s in g.to_act())
                raise Refused("not_your_turn", N_("It is not your turn: seat {seats} must act now."), seats=who)
            before_tricks = len(g.deal.tricks)
            before_hand = g.hand_index
            try:
                g.apply(action)
            except CorazonesError as e:
                raise Refused("illegal", N_("That move is not allowed: {why}"), why=e) from None
            events: list[tuple[str, dict[str, Any]]] = []
            ev: dict[str, Any] = {"kind": "action", "action": action.to_json(), "by": by, "trick": None}
            if action.kind is Kind.PLAY:
                deal = g.deal if g.hand_index == before_hand else g.last_deal
                assert deal is not None
                tricks = deal.tricks
                if len(tricks) > before_tricks:
                    ev["trick"] = tricks[-1].to_json()
            events.append(("action", ev))
            finished = g.over
            if g.hand_index != before_hand:
                events.append(("hand_end", {"kind": "hand_end", "result": g.history[-1].to_json()}))
                if g.over:
                    events.append(("game_over", self._game_over(t)))
                    events.append(("table", {"kind": "table", "status": "finished"}))
                else:
                    events.append(("hand_start", self._hand_start(t)))
            try:
                numbered = await self._store_events(t, events)
            except Refused:
                raise
            except Exception:
                # Not stored, so not played: take the action back by rebuilding the game.
                t.game = _rebuild(t, g.actions[:-1])
                raise Refused("server", N_("The move could not be stored; try again.")) from None
            if g.hand_index != before_hand:
                t.witness.new_deal(t.seats)
            if finished:
                # The table is finished in the store before anyone hears the game is over: the game_over
                # event's record_url (and the replay, the player's stats) must answer at once, in every
                # process, instead of "not over yet" until this write lands (long on a loaded machine).
                try:
                    await self._finish(t)
                finally:
                    self._broadcast(t, numbered, True)
            else:
                self._broadcast(t, numbered, True)
                self._schedule_bots(t)

    def _game_over(self, t: TableRuntime) -> dict[str, Any]:
        g = t.game
        assert g is not None
        return {
            "kind": "game_over",
            "winners": list(g.winners),
            "scores": list(g.scores),
            "seed": t.seed,
            "commitment": t.commitment,
            "record_url": f"{self.settings.public_url}/api/games/{t.id}/record",
        }

    async def _finish(self, t: TableRuntime) -> None:
        g = t.game
        assert g is not None
        t.status = "finished"
        results = []
        for s, st in enumerate(t.seats):
            results.append(
                {
                    "seat": s,
                    "player_id": st.player if st.kind == "human" else None,
                    "name": st.info(s, True, t.takeover_level)["name"],
                    "score": g.scores[s],
                    "won": s in g.winners,
                    "hands": len(g.history),
                    "moons": sum(1 for h in g.history if h.shooter == s),
                    "hand_points": json.dumps([h.scores[s] for h in g.history]),
                }
            )
        await asyncio.to_thread(self.store.finish, t.id, results)
        try:  # the players' ratings (services.ratings); a failure there never stops the game's end
            await asyncio.to_thread(rate_table, self.store, t.id)
        except Exception:
            log.exception("rating the game of table %s failed", t.id)
        for h in t.timers.values():
            h.cancel()
        t.timers.clear()

    # ------------------------------------------------------------------ bots
    def _schedule_bots(self, t: TableRuntime) -> None:
        """Start the bots whose turn it is.  A table where no person sits (a show of bots) plays only
        while someone watches it, and after every other table's moves and hints (``bots.SHOW``)."""
        g = t.game
        if g is None or g.over or t.dropped or self._stopping:
            return
        if not t.attended and not t.conns:
            return  # nobody sits and nobody watches: it waits for a spectator (connect starts it again)
        for seat in g.to_act():
            level = t.bot_level(seat)
            if level is not None and seat not in t.thinking:
                t.thinking[seat] = asyncio.create_task(self._bot_turn(t, seat, level))

    def _cancel_bot(self, t: TableRuntime, seat: int) -> None:
        task = t.thinking.pop(seat, None)
        if task is not None:
            task.cancel()

    async def _bot_turn(self, t: TableRuntime, seat: int, level: str) -> None:
        g = t.game
        assert g is not None
        gen = t.seats[seat].gen
        started = time.monotonic()
        try:
            obs = g.observation(seat)
            bot_seed = f"{bot_key(t.seed)}/{seat}/{len(g.actions)}"
            try:
                data = await self.bots.think(obs, level, bot_seed, MOVE if t.attended else SHOW)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("bot %s failed on table %s seat %d; a random legal move is played", level, t.id, seat)
                data = _random_move(obs, bot_seed)
            wait = self.settings.bot_delay - (time.monotonic() - started)
            if wait > 0:
                await asyncio.sleep(wait)
            with contextlib.suppress(Refused):
                await self.act(t, seat, data, "bot", gen)
        except asyncio.CancelledError:
            pass
        except Exception:
            log.exception("bot turn failed on table %s seat %d", t.id, seat)
        finally:
            if t.thinking.get(seat) is asyncio.current_task():
                del t.thinking[seat]
            if not t.dropped:
                self._schedule_bots(t)

    # ----------------------------------------------------- presence and grace
    def _start_grace(self, t: TableRuntime, seat: int) -> None:
        s = t.seats[seat]
        if s.conns > 0 or s.takeover or seat in t.timers:
            return
        s.away_since = time.time()
        loop = asyncio.get_running_loop()
        t.timers[seat] = loop.call_later(self.settings.grace, lambda: asyncio.ensure_future(self._grace_over(t, seat)))

    def _cancel_timer(self, t: TableRuntime, seat: int) -> None:
        h = t.timers.pop(seat, None)
        if h is not None:
            h.cancel()

    async def _grace_over(self, t: TableRuntime, seat: int) -> None:
        t.timers.pop(seat, None)
        async with t.lock:
            s = t.seats[seat]
            if t.dropped or s.conns > 0 or s.player is None or t.status != "playing":
                return
            s.takeover = True
            s.gen += 1
            with contextlib.suppress(Refused):
                await self._emit(t, [("seat", {"kind": "seat", "seat": s.info(seat, True, t.takeover_level)})], False)
        self._schedule_bots(t)

    async def connect(self, t: TableRuntime, conn: Conn, last_seq: int | None) -> None:
        """Attach a connection and send it ``welcome`` and its snapshot, atomically with respect to events.

        A seat's owner coming back takes the seat over from the bot (a ``seat``
        event the others see first; the snapshot already includes it).
        """
        async with t.lock:
            if len(t.conns) >= self.settings.limit("table_connections"):
                raise Refused("rate_limited", N_("This table has too many connections; try again later."))
            if conn.player_id in t.removed:
                raise Refused("removed", N_("The host removed you from this table."))
            seat = t.seat_of(conn.player_id)
            conn.seat = seat
            if seat is not None:
                s = t.seats[seat]
                was = s.status(t.started)
                s.conns += 1
                if s.conns == 1:
                    self._cancel_timer(t, seat)
                    s.away_since = None
                    if s.takeover:
                        s.takeover = False
                        s.gen += 1
                        self._cancel_bot(t, seat)
                    if was != "human" and t.status != "finished":
                        info = s.info(seat, t.started, t.takeover_level)
                        with contextlib.suppress(Refused):
                            await self._emit(t, [("seat", {"kind": "seat", "seat": info})], False)
            t.conns.add(conn)
            t.touched = time.time()
            conn.send(json.dumps(self.welcome(t, conn)))
            conn.send(json.dumps(await self.snapshot(t, conn, last_seq)))
            if not t.attended:
                self._schedule_bots(t)  # a show of bots that waited for someone to watch it

    async def disconnect(self, t: TableRuntime, conn: Conn) -> None:
        async with t.lock:
            t.conns.discard(conn)
            t.touched = time.time()
            seat = conn.seat
            if seat is None or t.dropped:
                return
            s = t.seats[seat]
            if s.player != conn.player_id:
                return
            s.conns = max(0, s.conns - 1)
            if s.conns == 0 and t.status != "finished":
                with contextlib.suppress(Refused):
                    info = s.info(seat, t.started, t.takeover_level)
                    await self._emit(t, [("seat", {"kind": "seat", "seat": info})], False)
                if t.started:
                    self._start_grace(t, seat)

    async def chat(self, t: TableRuntime, conn: Conn, text: str) -> None:
        async with t.lock:
            line = {"kind": "chat", "seat": conn.seat, "name": conn.player_name, "text": text}
            await self._emit(t, [("chat", line)], False)
            t.chat.append(line)

    # -------------------------------------------------------------- snapshot
    def welcome(self, t: TableRuntime, conn: Conn) -> dict[str, Any]:
        return {
            "type": "welcome",
            "table": t.id,
            "player": {"id": conn.player_id, "name": conn.player_name, "kind": conn.player_kind},
            "role": "seat" if conn.seat is not None else "spectator",
            "seat": conn.seat,
            "limits": self.settings.limits(),
        }

    async def _resend(self, t: TableRuntime, player: int) -> None:
        """A player's seat changed: each of their connections gets a new welcome and snapshot (under the lock)."""
        for c in list(t.conns):
            if c.player_id == player:
                c.send(json.dumps(self.welcome(t, c)))
                c.send(json.dumps(await self.snapshot(t, c, t.seq)))

    async def snapshot(self, t: TableRuntime, conn: Conn, last_seq: int | None) -> dict[str, Any]:
        missed: list[dict[str, Any]] = []
        complete = True
        seq = t.seq
        if last_seq is not None and last_seq < seq:
            if seq - last_seq > LIMITS["missed_events_max"]:
                complete = False
            else:
                if t.recent and t.recent[0][0] <= last_seq + 1:
                    evs = [(s, k, d) for s, k, d in t.recent if last_seq < s <= seq]
                else:
                    stored = await asyncio.to_thread(self.store.events, t.id, last_seq)
                    evs = [(e.seq, e.kind, e.data) for e in stored if e.seq <= seq]
                missed = [
                    {"type": "event", "table": t.id, "seq": s, "event": redact(d, conn.seat), "view": None}
                    for s, _k, d in evs
                ]
        g = t.game
        obs = g.observation(conn.seat if conn.seat is not None else 0) if g is not None else None
        return {
            "type": "snapshot",
            "table": self.info(t, conn.player_id),
            "seq": seq,
            "role": "seat" if conn.seat is not None else "spectator",
            "seat": conn.seat,
            "view": self.view_for(t, conn.seat),
            "tricks": [tr.to_json() for tr in obs.tricks] if obs else [],
            "history": [h.to_json() for h in obs.history] if obs else [],
            "chat": list(t.chat),
            "missed": missed,
            "missed_complete": complete,
        }

    # ---------------------------------------------------------------- hints
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
            why = self.hints.take(player)
            if why is not None:
                raise why
        try:
            return await self.bots.hint(obs, level)
        except Busy:
            raise Refused("rate_limited", N_("The bots are busy: ask for a hint again in a moment.")) from None
        finally:
            if player is not None:
                self.hints.done(player)

    # --------------------------------------------------------------- records
    def record_of(self, t_row: Any, events: list[Any]) -> dict[str, Any]:
        """The game record of a stored table (finished or not), with the commitment."""
        rules = Rules.from_dict(json.loads(t_row.rules))
        game = Game(rules, t_row.seed)
        for ev in events:
            if ev.kind == "action":
                game.apply(Action.from_json(ev.data["action"]))
        seats = json.loads(t_row.seats)
        names = [s.get("name") or (f"{s['level']} bot" if s.get("level") else f"seat {i}") for i, s in enumerate(seats)]
        record = make_record(game, names)
        from corazones.core import records

        if "commitment" in records.FIELDS and "commitment" not in record:
            record["commitment"] = t_row.commitment
        return record


def _tell(conn: Conn, refusal: Refused) -> None:
    """An ``error`` message to one connection, in its language (the same shape as a refused request's)."""
    message = error_text(translator(conn.lang).gettext, refusal)
    conn.send(json.dumps({"type": "error", "code": refusal.code, "message": message, "ref": None, "url": refusal.url}))


def _rebuild(t: TableRuntime, actions: list[Action]) -> Game:
    game = Game(t.rules, t.seed)
    for a in actions:
        game.apply(a)
    return game


def _random_move(obs: Any, seed: str) -> dict[str, Any]:
    from corazones.players.random_bot import RandomBot

    return RandomBot(seed).act(obs).to_json()


def _iso(ts: float) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(ts))
