"""Guests and accounts: a name gets a signed token; an account adds a password."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, Request

from corazones.i18n import N_
from corazones.server.auth import check_password, clean_name, hash_password, impersonates, legacy_login_name
from corazones.server.deps import HubDep, PlayerDep, player_json, refused, store, tokens
from corazones.server.hub import Refused
from corazones.server.schema import AccountRequest, GuestRequest, RevokeRequest
from corazones.services.store.models import Player

router = APIRouter(prefix="/api")


def _name(raw: str) -> str:
    name = clean_name(raw)
    if not name:
        raise refused(Refused("malformed", N_("a name needs at least one visible character")))
    if impersonates(name):
        raise refused(
            Refused(
                "malformed",
                N_("the name {name} could pass for a bot, a seat or a card: choose another"),
                name=repr(name),
            )
        )
    return name


def _reply(request: Request, p: Player) -> dict[str, Any]:
    return {"token": tokens(request).issue(p.id, p.token_gen), "player": player_json(p)}


@router.post("/auth/guest")
async def guest(body: GuestRequest, request: Request) -> dict[str, Any]:
    p = await asyncio.to_thread(store(request).add_player, _name(body.name), "guest")
    return _reply(request, p)


@router.post("/auth/register")
async def register(body: AccountRequest, request: Request) -> dict[str, Any]:
    name = _name(body.name)
    digest = await asyncio.to_thread(hash_password, body.password)
    try:
        p = await asyncio.to_thread(store(request).add_player, name, "account", name.casefold(), digest)
    except ValueError:
        raise refused(Refused("seat_taken", N_("the name {name} is taken"), name=repr(name))) from None
    return _reply(request, p)


@router.post("/auth/login")
async def login(body: AccountRequest, request: Request) -> dict[str, Any]:
    p = await asyncio.to_thread(store(request).player_by_login, clean_name(body.name).casefold())
    if p is None:  # an account registered while invisible characters were still kept in names
        p = await asyncio.to_thread(store(request).player_by_login, legacy_login_name(body.name))
    ok = p is not None and await asyncio.to_thread(check_password, body.password, p.password_hash)
    if not ok or p is None:
        raise refused(Refused("auth", N_("wrong name or password")), 401)
    return _reply(request, p)


@router.post("/auth/refresh")
async def refresh(request: Request, player: PlayerDep) -> dict[str, Any]:
    """A fresh token for a valid one: its validity starts again (the web app calls this on every visit)."""
    return _reply(request, player)


@router.post("/auth/revoke")
async def revoke(body: RevokeRequest, request: Request, player: PlayerDep, h: HubDep) -> dict[str, Any]:
    """Sign out everywhere: every token of this player stops working, on HTTP at once and on open
    WebSockets, which are closed (4003).  ``keep_this_device`` answers a fresh token for the caller
    (sign out the *other* devices), else ``token`` is null and the caller is signed out too."""
    gen = await asyncio.to_thread(store(request).revoke_tokens, player.id)
    if gen is None:  # the player row went away meanwhile
        raise refused(Refused("auth", N_("unknown player")), 401)
    player.token_gen = gen
    h.connections.revoke_player(player.id, gen)
    fresh = tokens(request).issue(player.id, gen) if body.keep_this_device else None
    return {"token": fresh, "player": player_json(player)}


@router.get("/me")
async def me(player: PlayerDep) -> dict[str, Any]:
    return player_json(player)
