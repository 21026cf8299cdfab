"""Shared request dependencies of the route modules: the hub, the store, the caller's identity."""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import Depends, HTTPException, Request

from corazones.i18n import N_
from corazones.server.auth import Tokens
from corazones.server.hub import Hub, Refused
from corazones.server.refusal import http_detail
from corazones.services.store import Store
from corazones.services.store.models import Player

#: HTTP status of each refusal code (the body is ``{"detail": {"code", "message", "url", "reason"}}``).
HTTP_STATUS = {
    "not_found": 404,
    "auth": 403,
    "removed": 403,
    "seat_taken": 409,
    "game_over": 409,
    "moved": 409,
    "malformed": 422,
    "rate_limited": 429,
    "server": 503,
}


def hub(request: Request) -> Hub:
    return request.app.state.hub  # type: ignore[no-any-return]


def store(request: Request) -> Store:
    return request.app.state.store  # type: ignore[no-any-return]


def tokens(request: Request) -> Tokens:
    return request.app.state.tokens  # type: ignore[no-any-return]


def refused(e: Refused, status: int | None = None) -> HTTPException:
    """The HTTP answer to a refusal: its code's status (or ``status``), the English ``message`` and the
    ``reason`` (template and parameters) the web app translates."""
    detail = http_detail(e.code, e, url=e.url)
    return HTTPException(status or HTTP_STATUS.get(e.code, 409), detail)


async def player_of_token(request: Request, token: str | None) -> Player | None:
    """The player of a valid token: signed by us, not expired, and of the player's current generation
    (a revoked token names an older one)."""
    if not token:
        return None
    found = tokens(request).identity(token)
    if found is None:
        return None
    pid, gen = found
    player = await asyncio.to_thread(store(request).player, pid)
    return player if player is not None and player.token_gen == gen else None


def _bearer(request: Request) -> str | None:
    auth = request.headers.get("authorization", "")
    scheme, _, value = auth.partition(" ")
    return value.strip() if scheme.lower() == "bearer" and value.strip() else None


async def optional_player(request: Request) -> Player | None:
    return await player_of_token(request, _bearer(request))


async def current_player(request: Request) -> Player:
    player = await optional_player(request)
    if player is None:
        if _bearer(request) is None:
            template = N_(
                "no token; send 'Authorization: Bearer <token>' with a token from /api/auth/guest, "
                "/api/auth/login or /api/auth/register"
            )
        else:
            template = N_(
                "this token is not valid: malformed, expired or revoked; send 'Authorization: Bearer <token>' "
                "with a token from /api/auth/guest, /api/auth/login or /api/auth/register"
            )
        raise refused(Refused("auth", template), 401)
    return player


def player_json(p: Player) -> dict[str, Any]:
    return {"id": p.id, "name": p.name, "kind": p.kind}


HubDep = Annotated[Hub, Depends(hub)]
StoreDep = Annotated[Store, Depends(store)]
PlayerDep = Annotated[Player, Depends(current_player)]
MaybePlayerDep = Annotated[Player | None, Depends(optional_player)]
