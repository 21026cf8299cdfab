"""Reviewing finished games: start a review of one seat, follow its progress, read it back.

``POST /api/games/{id}/review?seat=N`` starts the review (or says it is
done or running); ``GET`` the same path answers ``{"status": "done",
"review": ...}``, ``{"status": "running", "done": k, "total": n}`` or
``{"status": "failed", ...}``; a seat nobody asked about is ``not_found``.
``GET /api/games/{id}/reviews`` answers every seat at once (what a replay
viewer needs when it opens): ``{"seats": [state or null, ...]}``, one entry
per seat in the shape above, ``null`` where nobody asked.
The work runs in the server's expert worker pool
(:meth:`~corazones.server.bots.BotPools.review`), never on the event loop,
a few decisions at a time so that progress shows, and the result is stored
(:mod:`corazones.services.reviews`).  The budget may be lowered with
``worlds`` and ``pass_worlds`` (at most the defaults); the first review
stored for a seat is the one kept.  A process runs at most
:data:`MAX_RUNNING` reviews at once (the expert pool also plays live
tables' bots); another request is refused with ``rate_limited`` meanwhile.
"""

from __future__ import annotations

import asyncio
import json
import logging
import weakref
from dataclasses import dataclass, field
from typing import Any

from fastapi import APIRouter, Query, Response

from corazones.core.errors import Seats
from corazones.i18n import N_
from corazones.players.review import PASS_WORLDS, WORLDS, assemble, decision_indexes
from corazones.server.deps import HubDep, refused
from corazones.server.hub import Hub, Refused
from corazones.server.routes.games import _finished
from corazones.services.reviews import get_review, save_review

router = APIRouter(prefix="/api")
log = logging.getLogger("corazones.server")
#: Decisions reviewed per task sent to the pool: progress moves in steps of this size.
PART = 6
#: Reviews one process runs at once: each keeps an expert worker busy for tens of seconds, and bots
#: playing live tables share that pool, so more wait for a free place (``rate_limited``).
MAX_RUNNING = 2


@dataclass
class Job:
    done: int = 0
    total: int | None = None
    error: str | None = None
    task: asyncio.Task[None] | None = field(default=None, repr=False)

    def to_json(self) -> dict[str, Any]:
        if self.error is not None:
            return {"status": "failed", "message": self.error}
        return {"status": "running", "done": self.done, "total": self.total}


_JOBS: weakref.WeakKeyDictionary[Hub, dict[tuple[str, int], Job]] = weakref.WeakKeyDictionary()


def _jobs(h: Hub) -> dict[tuple[str, int], Job]:
    return _JOBS.setdefault(h, {})


async def _seat_checked(h: Hub, game_id: str, seat: int) -> tuple[Any, list[Any]]:
    row, events = await _finished(h, game_id)
    players = len(json.loads(row.seats))
    if not 0 <= seat < players:
        raise refused(
            Refused(
                "malformed", N_("seat must be a number from 0 to {last}, not {value}"), last=players - 1, value=seat
            )
        )
    return row, events


async def _run(h: Hub, job: Job, row: Any, events: list[Any], seat: int, worlds: int, pass_worlds: int) -> None:
    try:
        record = await asyncio.to_thread(h.record_of, row, events)
        indexes = await asyncio.to_thread(decision_indexes, record, [seat])
        job.total = len(indexes)
        decisions: list[Any] = []
        for k in range(0, len(indexes), PART):
            decisions += await h.bots.review(record, seat, indexes[k : k + PART], worlds, pass_worlds)
            job.done = len(decisions)
        review = assemble(record, [seat], decisions, worlds, pass_worlds)
        await asyncio.to_thread(save_review, h.store, row.id, seat, review)
        _jobs(h).pop((row.id, seat), None)
    except asyncio.CancelledError:
        _jobs(h).pop((row.id, seat), None)
        raise
    except Exception as e:  # kept for the GET to report; a new POST starts again
        log.exception("review of table %s seat %d failed", row.id, seat)
        job.error = str(e) or type(e).__name__


@router.post("/games/{game_id}/review")
async def start_review(
    game_id: str,
    h: HubDep,
    response: Response,
    seat: int = Query(...),
    worlds: int = Query(WORLDS, ge=1, le=WORLDS),
    pass_worlds: int = Query(PASS_WORLDS, ge=1, le=PASS_WORLDS),
) -> dict[str, Any]:
    row, events = await _seat_checked(h, game_id, seat)
    stored = await asyncio.to_thread(get_review, h.store, game_id, seat)
    if stored is not None:
        return {"status": "done", "review": stored}
    jobs = _jobs(h)
    job = jobs.get((game_id, seat))
    if job is None or job.error is not None:
        running = sum(1 for j in jobs.values() if j.error is None)
        if running >= MAX_RUNNING:
            raise refused(Refused("rate_limited", N_("The server is reviewing other games; try again in a minute.")))
        job = Job()
        jobs[(game_id, seat)] = job
        job.task = asyncio.create_task(_run(h, job, row, events, seat, worlds, pass_worlds))
    response.status_code = 202
    return job.to_json()


@router.get("/games/{game_id}/review")
async def read_review(game_id: str, h: HubDep, seat: int = Query(...)) -> dict[str, Any]:
    await _seat_checked(h, game_id, seat)
    stored = await asyncio.to_thread(get_review, h.store, game_id, seat)
    if stored is not None:
        return {"status": "done", "review": stored}
    job = _jobs(h).get((game_id, seat))
    if job is None:
        # the seat as the table and the replay name it, counted from 1 (the query's index is from 0)
        raise refused(
            Refused("not_found", N_("nobody has asked for a review of seat {seat} of this game"), seat=Seats(seat))
        )
    return job.to_json()


@router.get("/games/{game_id}/reviews")
async def read_reviews(game_id: str, h: HubDep) -> dict[str, Any]:
    row, _events = await _finished(h, game_id)
    players = len(json.loads(row.seats))

    def stored() -> list[dict[str, Any] | None]:
        return [get_review(h.store, game_id, s) for s in range(players)]

    found = await asyncio.to_thread(stored)
    jobs = _jobs(h)
    seats: list[dict[str, Any] | None] = []
    for s, review in enumerate(found):
        job = jobs.get((game_id, s))
        if review is not None:
            seats.append({"status": "done", "review": review})
        else:
            seats.append(None if job is None else job.to_json())
    return {"seats": seats}
