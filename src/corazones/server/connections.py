# mypy: disable-error-code="misc"
# Each method is typed on the whole Hub (self: Hub) so that a part calls the others; mypy refuses a self type
# narrower than the mixin (error code misc), which is the point here.
"""Connections: admission per address, revocation, attaching and detaching, chat, welcome and snapshot."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import TYPE_CHECKING, Any

from corazones.core.errors import N_
from corazones.server.outgoing import encode
from corazones.server.refusal import Refused, tell
from corazones.server.schema import LIMITS
from corazones.server.table import Conn, TableRuntime
from corazones.server.views import redact

if TYPE_CHECKING:
    from corazones.server.hub import Hub

log = logging.getLogger("corazones.server")


class Connections:
    """Part of :class:`~corazones.server.hub.Hub`: who is connected, and what each connection is sent first."""

    def admit(self: Hub, address: str) -> bool:
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

    def release(self: Hub, address: str) -> None:
        """The connection :meth:`admit` counted has closed."""
        left = self.addresses.get(address, 1) - 1
        if left > 0:
            self.addresses[address] = left
        else:
            self.addresses.pop(address, None)

    # ------------------------------------------------------------ revocation
    def revoke_player(self: Hub, player_id: int, gen: int) -> int:
        """Close every connection of ``player_id`` whose token is older than generation ``gen``
        (``error revoked``, then close 4003); how many were closed."""
        if gen > self.revoked_below.get(player_id, 0):
            self.revoked_below[player_id] = gen
        closed = 0
        for t in list(self.tables.values()):
            for c in list(t.conns):
                if c.player_id == player_id and c.token_gen < gen:
                    tell(c, Refused("revoked", N_("You were signed out everywhere: this sign-in no longer works.")))
                    c.close(4003, "sign-in revoked")
                    closed += 1
        return closed

    async def _sweep_revoked(self: Hub) -> None:
        """Close the connections whose token was revoked elsewhere: by another server process, or by the
        operator (``corazones revoke``) straight in the database.  Runs with the lease renewal."""
        conns = [c for t in self.tables.values() for c in t.conns]
        if not conns:
            return
        gens = await asyncio.to_thread(self.store.token_gens, {c.player_id for c in conns})
        for pid, gen in gens.items():
            self.revoke_player(pid, gen)

    def seat_infos(self: Hub, t: TableRuntime) -> list[dict[str, Any]]:
        return [s.info(i, t.started, t.takeover_level) for i, s in enumerate(t.seats)]

    def info(self: Hub, t: TableRuntime, viewer: int | None = None) -> dict[str, Any]:
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

    def invite_url(self: Hub, t: TableRuntime) -> str:
        return f"{self.settings.public_url}/?table={t.id}&invite={t.invite}"

    async def connect(self: Hub, t: TableRuntime, conn: Conn, last_seq: int | None) -> None:
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
            conn.send(encode(self.welcome(t, conn)))
            conn.send(encode(await self.snapshot(t, conn, last_seq)))
            if not t.attended:
                self._schedule_bots(t)  # a show of bots that waited for someone to watch it

    async def disconnect(self: Hub, t: TableRuntime, conn: Conn) -> None:
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

    async def chat(self: Hub, t: TableRuntime, conn: Conn, text: str) -> None:
        async with t.lock:
            line = {"kind": "chat", "seat": conn.seat, "name": conn.player_name, "text": text}
            await self._emit(t, [("chat", line)], False)
            t.chat.append(line)

    # -------------------------------------------------------------- snapshot
    def welcome(self: Hub, t: TableRuntime, conn: Conn) -> dict[str, Any]:
        return {
            "type": "welcome",
            "table": t.id,
            "player": {"id": conn.player_id, "name": conn.player_name, "kind": conn.player_kind},
            "role": "seat" if conn.seat is not None else "spectator",
            "seat": conn.seat,
            "limits": self.settings.limits(),
        }

    async def _resend(self: Hub, t: TableRuntime, player: int) -> None:
        """A player's seat changed: each of their connections gets a new welcome and snapshot (under the lock)."""
        for c in list(t.conns):
            if c.player_id == player:
                c.send(encode(self.welcome(t, c)))
                c.send(encode(await self.snapshot(t, c, t.seq)))

    async def snapshot(self: Hub, t: TableRuntime, conn: Conn, last_seq: int | None) -> dict[str, Any]:
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


def _iso(ts: float) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(ts))
