"""One table in memory: its seats, its connections, its game and what it has sent.

A :class:`TableRuntime` is plain state; the hub's parts change it, always under
``TableRuntime.lock``.  :class:`Tables` are the ones this process holds.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import secrets
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from corazones.core.game import Game
from corazones.core.rules import Rules
from corazones.server.witness import DealWitness

log = logging.getLogger("corazones.server")


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
    #: The client's address (as admitted): the events resent to it are counted per address.
    address: str = "?"


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
    #: not started yet expires when nobody has been connected for a while (:meth:`Ownership.expire_idle`).
    touched: float = field(default_factory=time.time)
    #: The client address that created it, in this process (the cap of tables per address).
    address: str | None = None

    @property
    def started(self) -> bool:
        return self.status != "open"

    @property
    def attended(self) -> bool:
        """Whether a person holds a seat (else the table is a show of bots: see :meth:`Turns.schedule_bots`)."""
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

    def seat_info(self, seat: int) -> dict[str, Any]:
        """Who sits in ``seat`` now, as the protocol's ``SeatInfo`` says it."""
        return self.seats[seat].info(seat, self.started, self.takeover_level)

    def seat_infos(self) -> list[dict[str, Any]]:
        return [self.seat_info(i) for i in range(len(self.seats))]

    def stop_work(self) -> None:
        """Cancel the bots thinking here and the grace timers (the table is closing or leaving this process)."""
        for task in self.thinking.values():
            task.cancel()
        for h in self.timers.values():
            h.cancel()


class Tables(dict[str, TableRuntime]):
    """The tables this process holds, by id."""

    def drop(self, table_id: str, why: str) -> None:
        """Forget a table another process now owns; its connections are told to reconnect."""
        t = self.pop(table_id, None)
        if t is None:
            return
        log.warning("table %s dropped: %s", table_id, why)
        t.dropped = True
        t.stop_work()
        for c in list(t.conns):
            c.close(4001, "table moved to another server process; reconnect")


def new_table_id() -> str:
    return secrets.token_urlsafe(9)


def bot_key(seed: str) -> str:
    """The seed of a table's bots: derived from the table's seed (so a game replays exactly from its
    seed, bots' choices included) by a one-way hash (so a bot's worker cannot learn the deal from it)."""
    return hashlib.sha256(f"corazones-bots:{seed}".encode()).hexdigest()[:16]
