"""Finished games: the list, the record download, a replay trick by trick, player statistics."""

from __future__ import annotations

import asyncio
import json
from typing import Annotated, Any

from fastapi import APIRouter, Path, Query, Response

from corazones.core.actions import Action, Kind
from corazones.core.cards import SUIT_LETTERS, card_str
from corazones.core.game import Game
from corazones.core.records import dumps, make_record
from corazones.core.rules import Rules
from corazones.i18n import N_
from corazones.server.deps import HubDep, player_json, refused
from corazones.server.hub import Hub, Refused

router = APIRouter(prefix="/api")

#: A player id as the database can hold it (a signed 64-bit integer): a larger one is a 422, not a crash.
ID_MAX = 2**63 - 1


async def _finished(h: Hub, game_id: str) -> tuple[Any, list[Any]]:
    row = await asyncio.to_thread(h.store.table, game_id)
    if row is None:
        raise refused(Refused("not_found", N_("there is no game {game}"), game=repr(game_id)))
    if row.status != "finished":
        raise refused(Refused("game_over", N_("the game is not over yet: its seed is still secret")))
    events = await asyncio.to_thread(h.store.events, game_id, 0, ("action",))
    return row, events


def _summary(h: Hub, row: Any, results: list[Any]) -> dict[str, Any]:
    base = h.settings.public_url
    return {
        "id": row.id,
        "name": row.name,
        "preset": row.preset,
        "finished": None if row.finished is None else _iso(row.finished),
        "players": [r.name for r in results],
        "scores": [r.score for r in results],
        "winners": [r.seat for r in results if r.won],
        "record_url": f"{base}/api/games/{row.id}/record",
        "replay_url": f"{base}/api/games/{row.id}/replay",
    }


def _iso(ts: float) -> str:
    import time

    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(ts))


@router.get("/games")
async def games(h: HubDep, player: Annotated[int | None, Query(ge=0, le=ID_MAX)] = None) -> list[dict[str, Any]]:
    rows = await asyncio.to_thread(h.store.finished_games, player)
    out = []
    for row in rows:
        results = await asyncio.to_thread(h.store.results, row.id)
        out.append(_summary(h, row, results))
    return out


@router.get("/games/{game_id}/record")
async def record(game_id: str, h: HubDep) -> Response:
    row, events = await _finished(h, game_id)
    rec = await asyncio.to_thread(h.record_of, row, events)
    return Response(
        dumps(rec),
        media_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="corazones-{game_id}.json"'},
    )


def build_replay(row: Any, events: list[Any]) -> dict[str, Any]:
    """Every hand of a finished game as dealt, passed, bid and played (the seed is public by now)."""
    rules = Rules.from_dict(json.loads(row.rules))
    game = Game(rules, row.seed)
    hands: list[dict[str, Any]] = []

    def open_hand() -> dict[str, Any]:
        d = game.deal
        return {
            "index": game.hand_index,
            "dealer": d.dealer,
            "pass_direction": d.pass_direction,
            "hands": [[card_str(c) for c in d.hand(s)] for s in range(rules.players)],
            "passes": [None] * rules.players,
        }

    current = open_hand()
    for ev in events:
        action = Action.from_json(ev.data["action"])
        if action.kind is Kind.PASS:
            current["passes"][action.seat] = [card_str(c) for c in action.cards]
        before = game.hand_index
        game.apply(action)
        if game.hand_index != before:
            d = game.last_deal
            assert d is not None
            current.update(
                bids=[list(b) for b in d.bids],
                declare=SUIT_LETTERS[d.penalty_suit] if d.declarer is not None else None,
                tricks=[t.to_json() for t in d.tricks],
                result=game.history[-1].to_json(),
            )
            hands.append(current)
            if not game.over:
                current = open_hand()
    seats = json.loads(row.seats)
    record = make_record(game)
    return {
        "id": row.id,
        # Named as in the game record: a bot "<level> bot", an unnamed seat "seat I" (the web app shows "Bot N").
        "players": [
            s.get("name") or (f"{s['level']} bot" if s.get("level") else f"seat {i}") for i, s in enumerate(seats)
        ],
        "rules": rules.to_dict(),
        "seed": row.seed,
        "commitment": row.commitment,
        "hands": hands,
        "final": record["final"],
    }


@router.get("/games/{game_id}/replay")
async def replay(game_id: str, h: HubDep) -> dict[str, Any]:
    row, events = await _finished(h, game_id)
    return await asyncio.to_thread(build_replay, row, events)


@router.get("/players/{player_id}/stats")
async def stats(player_id: Annotated[int, Path(ge=0, le=ID_MAX)], h: HubDep) -> dict[str, Any]:
    p = await asyncio.to_thread(h.store.player, player_id)
    if p is None:
        raise refused(Refused("not_found", N_("there is no player {player}"), player=player_id))
    s = await asyncio.to_thread(h.store.stats, player_id)
    return {
        "player": player_json(p),
        "games": s.games,
        "wins": s.wins,
        "hands": s.hands,
        "points": s.points,
        "points_per_hand": round(s.points / s.hands, 3) if s.hands else None,
        "moons": s.moons,
    }
