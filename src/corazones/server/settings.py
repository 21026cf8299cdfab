"""How a server process runs: its options and the limits it enforces."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from corazones.server.guard import ConnectionLimits, Trust
from corazones.server.schema import LIMITS


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
    #: Missed events resent to one client address a minute (None: LIMITS["missed_events_per_minute"]).
    missed_events_per_minute: int | None = None
    #: Where a new table's secret seed comes from; None: ``secrets.token_urlsafe(32)``.  Tests and
    #: tournaments with pre-announced deals give their own.
    seed_source: Callable[[], str] | None = None
    #: The clock the rate limits read, in seconds (monotonic): the HTTP write budget (``limits.HttpLimits``)
    #: and each connection's message and chat budgets (``limits.TokenBucket``) refill by it.  Tests give a
    #: ``local.ManualClock`` so a budget refills only when they say, however slowly a loaded machine sends.
    clock: Callable[[], float] = time.monotonic
    #: Tune the garbage collector for a long-running server (``corazones serve`` sets it; tests do not,
    #: since it is process-wide): see :meth:`Metrics.tune_gc`.
    tune_gc: bool = False
    #: Limits at accept time, before HTTP: connections per address and in all, request heads' size and time.
    connections: ConnectionLimits = field(default_factory=ConnectionLimits)
    #: The proxies whose ``X-Forwarded-For`` is believed (``--forwarded-allow-ips``; None:
    #: ``$FORWARDED_ALLOW_IPS``, else none, see :meth:`proxies`): a request that still comes from one of
    #: them was not forwarded (the operator's own, on the machine), so the per-address caps on tables do
    #: not apply to it.
    trusted_proxies: str | None = None

    def proxies(self) -> str:
        """The proxies to trust, as uvicorn's ``forwarded_allow_ips`` reads them ('': none).

        Not uvicorn's default (the loopback addresses): behind no proxy, or behind a local one that
        passes the client's own ``X-Forwarded-For`` on, anything on this machine could then claim any
        client address, and so escape every per-address limit.  Only the operator names a proxy.
        """
        if self.trusted_proxies is not None:
            return self.trusted_proxies
        return os.environ.get("FORWARDED_ALLOW_IPS", "")

    def trusted(self, address: str) -> bool:
        """Whether ``address`` is a proxy named in :meth:`proxies`.  Not under ``*``: every address,
        forwarded or claimed, would be one, and none would count against the per-address caps."""
        trust = Trust(self.proxies())
        return not trust.everyone and address in trust

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
            "missed_events_per_minute": self.missed_events_per_minute,
        }.get(name)
        return own if own is not None else LIMITS[name]

    def limits(self) -> dict[str, int | float]:
        """Every limit as this process enforces it (sent in ``welcome``), a whole number as one (4096, not 4096.0)."""
        out: dict[str, int | float] = {}
        for name in LIMITS:
            value = self.limit(name)
            out[name] = int(value) if float(value).is_integer() else value
        return out
