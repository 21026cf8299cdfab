"""Connections: admission per address, attaching and detaching, chat, and revocation of a player's sign-ins."""

from __future__ import annotations

import asyncio
import contextlib
import time

from corazones.core.errors import N_
from corazones.server.addresses import client_key
from corazones.server.context import Context
from corazones.server.events import EventLog, seat_event
from corazones.server.refusal import Refused, tell
from corazones.server.settings import Settings
from corazones.server.snapshots import Snapshots
from corazones.server.table import Conn, TableRuntime
from corazones.server.turns import Turns


class Admission:
    """Open connections per client address, table WebSockets and waiting pad followers together
    (at most ``Settings.ws_per_address`` each; an IPv6 client counted by its /64, :func:`client_key`)."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        #: client (:func:`client_key` of its address) -> its open connections counted by :meth:`admit`
        self.addresses: dict[str, int] = {}

    def admit(self, address: str) -> bool:
        """Count one more open connection from ``address`` (a table WebSocket, or a pad follower waiting
        for a change); False, and nothing counted, when the address already holds the limit.

        The count is this process's own (in memory): N processes behind one balancer allow an address
        up to N times the limit (docs/server.md).  Uvicorn puts the forwarded address in the request
        for proxies trusted by ``FORWARDED_ALLOW_IPS`` (``corazones serve --forwarded-allow-ips``).
        """
        key = client_key(address)
        n = self.addresses.get(key, 0)
        if n >= self.settings.limit("ws_per_address"):
            return False
        self.addresses[key] = n + 1
        return True

    def release(self, address: str) -> None:
        """The connection :meth:`admit` counted has closed."""
        key = client_key(address)
        left = self.addresses.get(key, 1) - 1
        if left > 0:
            self.addresses[key] = left
        else:
            self.addresses.pop(key, None)


class Connections:
    """Who is connected to each table: arriving (greeted with ``welcome`` and a snapshot), leaving, chatting,
    and closed when their player's sign-ins are revoked."""

    def __init__(self, ctx: Context, events: EventLog, turns: Turns, snapshots: Snapshots) -> None:
        self.ctx = ctx
        self.events = events
        self.turns = turns
        self.snapshots = snapshots
        #: Per player, the token generation below which this process has seen their tokens revoked
        #: (:meth:`revoke_player`): the HTTP write limit counts a request with such a token per address,
        #: so a stolen, revoked token cannot spend its player's budget (``limits.HttpLimits``).
        self.revoked_below: dict[int, int] = {}

    async def connect(self, t: TableRuntime, conn: Conn, last_seq: int | None) -> None:
        """Attach a connection and send it ``welcome`` and its snapshot, atomically with respect to events.

        A seat's owner coming back takes the seat over from the bot (a ``seat``
        event the others see first; the snapshot already includes it).
        """
        async with t.lock:
            if len(t.conns) >= self.ctx.settings.limit("table_connections"):
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
                    self.turns.cancel_grace(t, seat)
                    s.away_since = None
                    if s.takeover:
                        s.takeover = False
                        s.gen += 1
                        self.turns.cancel_bot(t, seat)
                    if was != "human" and t.status != "finished":
                        with contextlib.suppress(Refused):
                            await self.events.emit(t, [seat_event(t, seat)], False)
            t.conns.add(conn)
            t.touched = time.time()
            await self.snapshots.greet(t, conn, last_seq)
            if not t.attended:
                self.turns.schedule_bots(t)  # a show of bots that waited for someone to watch it

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
                    await self.events.emit(t, [seat_event(t, seat)], False)
                if t.started:
                    self.turns.start_grace(t, seat)

    async def chat(self, t: TableRuntime, conn: Conn, text: str) -> None:
        async with t.lock:
            line = {"kind": "chat", "seat": conn.seat, "name": conn.player_name, "text": text}
            await self.events.emit(t, [("chat", line)], False)
            t.chat.append(line)

    def revoke_player(self, player_id: int, gen: int) -> int:
        """Close every connection of ``player_id`` whose token is older than generation ``gen``
        (``error revoked``, then close 4003); how many were closed."""
        if gen > self.revoked_below.get(player_id, 0):
            self.revoked_below[player_id] = gen
        closed = 0
        for t in list(self.ctx.tables.values()):
            for c in list(t.conns):
                if c.player_id == player_id and c.token_gen < gen:
                    tell(c, Refused("revoked", N_("You were signed out everywhere: this sign-in no longer works.")))
                    c.close(4003, "sign-in revoked")
                    closed += 1
        return closed

    async def sweep_revoked(self) -> None:
        """Close the connections whose token was revoked elsewhere: by another server process, or by the
        operator (``corazones revoke``) straight in the database.  Runs with the lease renewal."""
        conns = [c for t in self.ctx.tables.values() for c in t.conns]
        if not conns:
            return
        gens = await asyncio.to_thread(self.ctx.store.token_gens, {c.player_id for c in conns})
        for pid, gen in gens.items():
            self.revoke_player(pid, gen)
