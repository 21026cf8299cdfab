"""What a connection is sent when it arrives or its seat changes (``welcome``, ``snapshot``), and a table's info."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from corazones.server.addresses import client_key
from corazones.server.context import Context
from corazones.server.limits import Buckets
from corazones.server.outgoing import encode
from corazones.server.schema import LIMITS, Snapshot, Welcome
from corazones.server.table import Conn, TableRuntime
from corazones.server.views import redact, view_model


class Snapshots:
    """The whole state of a table as one connection may see it, and the events it missed."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        per_minute = ctx.settings.limit("missed_events_per_minute")
        #: Events resent per client address (an IPv6 client per /64, :func:`client_key`): a resume of a
        #: long game costs a read of the store and a redaction of up to ``missed_events_max`` events, so
        #: many sockets resuming from the start could slow every table; past the budget a connection
        #: gets the snapshot alone.
        self.resent = Buckets(per_minute / 60.0, per_minute, ctx.settings.clock)

    def info(self, t: TableRuntime, viewer: int | None = None) -> dict[str, Any]:
        """The table as the lobby lists it (``TableInfo``); its invite link only for ``viewer`` seated or owning it."""
        seated = viewer is not None and (t.seat_of(viewer) is not None or viewer == t.owner)
        over = t.status == "finished"
        return {
            "id": t.id,
            "name": t.name,
            "preset": t.preset,
            "rules": t.rules.to_dict(),
            "seats": t.seat_infos(),
            "status": t.status,
            "private": t.private,
            "owner": t.owner,
            "spectators": sum(1 for c in t.conns if c.seat is None),
            "created": _iso(t.created),
            "invite_url": self.invite_url(t) if seated else None,
            "commitment": t.commitment if t.started else None,
            "seed": t.seed if over else None,
            "record_url": f"{self.ctx.settings.public_url}/api/games/{t.id}/record" if over else None,
        }

    def invite_url(self, t: TableRuntime) -> str:
        return f"{self.ctx.settings.public_url}/?table={t.id}&invite={t.invite}"

    def welcome(self, t: TableRuntime, conn: Conn) -> Welcome:
        return Welcome.model_validate(
            {
                "type": "welcome",
                "table": t.id,
                "player": {"id": conn.player_id, "name": conn.player_name, "kind": conn.player_kind},
                "role": "seat" if conn.seat is not None else "spectator",
                "seat": conn.seat,
                "limits": self.ctx.settings.limits(),
            }
        )

    async def snapshot(self, t: TableRuntime, conn: Conn, last_seq: int | None) -> Snapshot:
        """The table now for ``conn``, with the events after ``last_seq`` (the caller holds ``t.lock``)."""
        missed: list[dict[str, Any]] = []
        complete = True
        seq = t.seq
        if last_seq is not None and last_seq < seq:
            too_many = seq - last_seq > LIMITS["missed_events_max"]
            if too_many or not self.resent.take(client_key(conn.address), seq - last_seq):
                complete = False
            else:
                if t.recent and t.recent[0][0] <= last_seq + 1:
                    evs = [(s, k, d) for s, k, d in t.recent if last_seq < s <= seq]
                else:
                    stored = await asyncio.to_thread(self.ctx.store.events, t.id, last_seq)
                    evs = [(e.seq, e.kind, e.data) for e in stored if e.seq <= seq]
                missed = _as_seen(t.id, evs, conn.seat)
        g = t.game
        obs = g.observation(conn.seat if conn.seat is not None else 0) if g is not None else None
        return Snapshot.model_validate(
            {
                "type": "snapshot",
                "table": self.info(t, conn.player_id),
                "seq": seq,
                "role": "seat" if conn.seat is not None else "spectator",
                "seat": conn.seat,
                "view": view_model(g, conn.seat),
                "tricks": [tr.to_json() for tr in obs.tricks] if obs else [],
                "history": [h.to_json() for h in obs.history] if obs else [],
                "chat": list(t.chat),
                "missed": missed,
                "missed_complete": complete,
            }
        )

    async def greet(self, t: TableRuntime, conn: Conn, last_seq: int | None) -> None:
        """Send ``conn`` its ``welcome`` and its snapshot (the caller holds ``t.lock``)."""
        conn.send(encode(self.welcome(t, conn)))
        conn.send(encode(await self.snapshot(t, conn, last_seq)))

    async def resend(self, t: TableRuntime, player: int) -> None:
        """A player's seat changed: each of their connections is greeted again (the caller holds ``t.lock``)."""
        for c in list(t.conns):
            if c.player_id == player:
                await self.greet(t, c, t.seq)


def _as_seen(table: str, evs: list[tuple[int, str, dict[str, Any]]], seat: int | None) -> list[dict[str, Any]]:
    """Missed events as the holder of ``seat`` may see them: its own pass only in the deal going on now.

    A seat may change hands between deals, so a pass made in an earlier deal belonged to whoever held
    the seat then; its new holder sees it as a spectator does (without its cards).
    """
    out: list[dict[str, Any]] = []
    viewer = seat
    for s, kind, d in reversed(evs):
        out.append({"type": "event", "table": table, "seq": s, "event": redact(d, viewer), "view": None})
        if kind == "hand_start":
            viewer = None  # what came before is an earlier deal's
    out.reverse()
    return out


def _iso(ts: float) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(ts))
