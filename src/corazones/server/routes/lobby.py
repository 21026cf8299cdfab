"""Tables: list, create, look at, join, leave, start, and the owner's removal of a player."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import APIRouter, Request

from corazones.core.text import visible
from corazones.i18n import N_
from corazones.server.deps import HubDep, MaybePlayerDep, PlayerDep, refused
from corazones.server.hub import Hub, Refused, TableRuntime
from corazones.server.schema import CreateTableRequest, JoinRequest, RemoveRequest

router = APIRouter(prefix="/api/tables")


def _stored_info(h: Hub, row: Any) -> dict[str, Any]:
    """A table another process owns, described from its row (no live presence there)."""
    seats = json.loads(row.seats)
    started = row.status != "open"
    return {
        "id": row.id,
        "name": row.name,
        "preset": row.preset,
        "rules": json.loads(row.rules),
        "seats": [
            {
                "seat": i,
                "kind": s["kind"],
                "status": "bot"
                if s["kind"] == "bot"
                else ("empty" if s["player"] is None and not started else "bot" if s["player"] is None else "away"),
                "name": s["name"] or (f"{s['level'] or row.takeover_level} bot"),
                "level": s["level"],
                "player": s["player"],
            }
            for i, s in enumerate(seats)
        ],
        "status": row.status,
        "private": row.private,
        "owner": row.owner_id,
        "spectators": 0,
        "created": time_iso(row.created),
        "invite_url": None,
        "commitment": row.commitment if started else None,
        "seed": row.seed if row.status == "finished" else None,
        "record_url": f"{h.settings.public_url}/api/games/{row.id}/record" if row.status == "finished" else None,
    }


def time_iso(ts: float) -> str:
    import time

    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(ts))


def _creator_address(h: Hub, request: Request) -> str | None:
    """The client address a new table counts against (None, not counted: a request straight from a
    trusted proxy's address, which is the operator's own machine)."""
    host = request.client.host if request.client else None
    return None if host is None or h.settings.trusted(host) else host


@router.get("")
async def list_tables(h: HubDep) -> list[dict[str, Any]]:
    rows = await asyncio.to_thread(h.store.list_tables)
    return [h.snapshots.info(h.tables[r.id]) if r.id in h.tables else _stored_info(h, r) for r in rows]


@router.post("")
async def create(body: CreateTableRequest, request: Request, h: HubDep, p: PlayerDep) -> dict[str, Any]:
    try:
        t = await h.seating.create(
            p.id,
            p.name,
            body.preset,
            body.options,
            [s.model_dump() for s in body.seats] if body.seats is not None else None,
            body.my_seat,
            body.private,
            body.name,
            body.takeover_level,
            _creator_address(h, request),
        )
    except Refused as e:
        raise refused(e) from None
    return h.snapshots.info(t, p.id)


@router.get("/{table_id}")
async def get(table_id: str, h: HubDep, p: MaybePlayerDep) -> dict[str, Any]:
    if table_id in h.tables:
        return h.snapshots.info(h.tables[table_id], p.id if p else None)
    row = await asyncio.to_thread(h.store.table, table_id)
    if row is None or row.status == "expired":  # a table nobody started and everybody left
        raise refused(Refused("not_found", N_("There is no table {table}."), table=visible(table_id, 40)))
    return _stored_info(h, row)


async def _seated(
    h: Hub, table_id: str, viewer: int, change: Callable[[TableRuntime], Awaitable[object]]
) -> dict[str, Any]:
    """Make ``change`` to the table's seats; the table's info after it, as ``viewer`` sees it."""
    try:
        t = await h.ownership.get(table_id)
        await change(t)
    except Refused as e:
        raise refused(e) from None
    return h.snapshots.info(t, viewer)


@router.post("/{table_id}/join")
async def join(table_id: str, body: JoinRequest, h: HubDep, p: PlayerDep) -> dict[str, Any]:
    return await _seated(h, table_id, p.id, lambda t: h.seating.join(t, p.id, p.name, body.seat, body.invite))


@router.post("/{table_id}/leave")
async def leave(table_id: str, h: HubDep, p: PlayerDep) -> dict[str, Any]:
    return await _seated(h, table_id, p.id, lambda t: h.seating.leave(t, p.id))


@router.post("/{table_id}/start")
async def start(table_id: str, h: HubDep, p: PlayerDep) -> dict[str, Any]:
    return await _seated(h, table_id, p.id, lambda t: h.seating.start_now(t, p.id))


@router.post("/{table_id}/remove")
async def remove(table_id: str, body: RemoveRequest, h: HubDep, p: PlayerDep) -> dict[str, Any]:
    """The owner takes a seat away from its player (who may not come back to this table)."""
    return await _seated(h, table_id, p.id, lambda t: h.seating.remove(t, p.id, body.seat))
