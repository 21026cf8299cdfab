"""Ratings: the families, a leaderboard per family, a player's profile, the changes a game made.

``GET /api/ratings`` lists the families (and the presets in each) with the
bots' fixed ratings; ``GET /api/ratings/{family}`` is that family's
leaderboard, best first; ``GET /api/players/{id}/profile`` a player's ratings,
rating history (for a chart), games, wins, moons and mean review loss;
``GET /api/games/{id}/ratings`` the rating change of each human seat of a
finished game (empty when it was not rated).  See
:mod:`corazones.services.ratings`.
"""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, Path, Query

from corazones.i18n import N_
from corazones.server.deps import HubDep, refused
from corazones.server.hub import Refused
from corazones.server.routes.games import ID_MAX
from corazones.services import ratings

router = APIRouter(prefix="/api")


@router.get("/ratings")
async def families() -> dict[str, Any]:
    fams: dict[str, list[str]] = {}
    for preset, family in ratings.FAMILIES.items():
        fams.setdefault(family, []).append(preset)
    return {
        "families": [{"family": f, "presets": p} for f, p in fams.items()] + [{"family": ratings.OTHER, "presets": []}],
        "bots": {
            level: {"rating": round(ratings.ordinal(mu, sigma), 2), "mu": mu, "sigma": sigma}
            for level, (mu, sigma) in ratings.BOT_RATINGS.items()
        },
        "start": {"mu": ratings.START_MU, "sigma": round(ratings.START_SIGMA, 3)},
    }


@router.get("/ratings/{family}")
async def leaderboard(family: str, h: HubDep, limit: int = Query(50, ge=1, le=200)) -> dict[str, Any]:
    known = set(ratings.FAMILIES.values()) | {ratings.OTHER}
    if family not in known:
        raise refused(
            Refused(
                "not_found",
                N_("there is no rating family {family}; families: {families}"),
                family=repr(family),
                families=", ".join(sorted(known)),
            )
        )
    rows = await asyncio.to_thread(ratings.leaderboard, h.store, family, limit)
    return {"family": family, "players": rows}


@router.get("/players/{player_id}/profile")
async def profile(player_id: Annotated[int, Path(ge=0, le=ID_MAX)], h: HubDep) -> dict[str, Any]:
    # Bounded as the database holds ids (a signed 64-bit integer): a larger one is a 422, not a crash.
    found = await asyncio.to_thread(ratings.profile, h.store, player_id)
    if found is None:
        raise refused(Refused("not_found", N_("there is no player {player}"), player=player_id))
    return found


@router.get("/games/{game_id}/ratings")
async def game_ratings(game_id: str, h: HubDep) -> dict[str, Any]:
    row = await asyncio.to_thread(h.store.table, game_id)
    if row is None:
        raise refused(Refused("not_found", N_("there is no game {game}"), game=repr(game_id)))
    found = await asyncio.to_thread(ratings.changes, h.store, game_id)
    return {"family": ratings.family_of(row.preset), "changes": [c.to_json() for c in found]}
