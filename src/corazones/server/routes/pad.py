"""The score pad on the web: create a pad, follow it live by its link, enter, edit and undo hands.

Everything a pad computes comes from :class:`corazones.core.pad.Pad`; the
server stores what was entered (the core's pad JSON) and sends each page the
whole sheet.  Reading needs only the pad's id (the share link); changing it
needs the key given at creation (``X-Pad-Key``), which the creator's page
keeps in its link.  A page follows changes by asking for the pad with
``?after=VERSION``: the answer waits (up to ``WAIT`` seconds) until the pad is
newer, which works whichever server process the next change reaches, since
it only reads the database.
"""

from __future__ import annotations

import asyncio
import time
from typing import Annotated, Any

from fastapi import APIRouter, Header, HTTPException, Path, Query, Request, Response

from corazones.core.cards import SUIT_LETTERS, card_str
from corazones.core.errors import CorazonesError
from corazones.core.pad import (
    DEFAULT_REVOKE_PENALTY,
    Entry,
    Pad,
    PadError,
    entry_from_json,
    entry_to_json,
    glyph,
    layout,
    loads,
)
from corazones.i18n import N_
from corazones.server.deps import HubDep, StoreDep, refused
from corazones.server.hub import Refused
from corazones.server.options import OptionsRefused, rules_of
from corazones.server.schema import NewPadRequest
from corazones.services.store import pads as db

router = APIRouter()

#: Longest a follower's request waits for a change, in seconds (below common proxy timeouts).
WAIT = 20.0
#: How often a waiting request looks at the database, in seconds.
POLL = 0.5


def _pad_refused(e: CorazonesError, code: str = "refused") -> HTTPException:
    """The HTTP answer (422) to a pad or its options the core refuses, in the server's one refusal shape."""
    return refused(Refused(code, e.template, **e.params), 422)


def _layout_json(pad: Pad, suit: int) -> dict[str, Any]:
    lay = layout(pad.rules, suit)
    return {
        "counted_name": lay.counted_name,
        "counted_in_play": lay.counted_in_play,
        "counted_value": lay.counted_value,
        "named": [{"card": card_str(c), "glyph": glyph(c), "value": v, "copies": k} for c, v, k in lay.named],
        "pos_total": lay.pos_total,
        "pen_total": lay.pen_total,
    }


def view(pad: Pad, pad_id: str, version: int) -> dict[str, Any]:
    """The whole sheet as the page draws it."""
    r = pad.rules
    suits = range(4) if r.auction else (3,)
    stakes = pad.stakes()
    sides = [pad.side_name(i) for i in range(len(r.teams))]
    return {
        "id": pad_id,
        "version": version,
        "rules": {
            "name": r.name,
            "players": r.players,
            "target": r.target,
            "hands": r.hands,
            "settlement": r.settlement,
            "moon": r.moon,
            "auction": r.auction,
            "partnership": r.partnership,
            "stake": r.stake,
            "revoke_penalty": pad.revoke_penalty,
        },
        "names": list(pad.names),
        "sides": sides,
        "layouts": {SUIT_LETTERS[s]: _layout_json(pad, s) for s in suits},
        "rows": [
            {
                "hand": row.index + 1,
                "scores": list(row.scores),
                "totals": list(row.totals),
                "chips": list(row.chips),
                "chips_delta": list(row.chips_delta),
                "pool": row.pool,
                "shooter": row.shooter,
                "moon": row.moon_choice,
                "suit": SUIT_LETTERS[row.penalty_suit],
                "declarer": row.declarer,
                "revokes": [v.seat for v in row.entry.revokes],
                "note": row.entry.note,
                "entry": entry_to_json(row.entry),
            }
            for row in pad.rows
        ],
        "totals": list(pad.totals),
        "side_totals": pad.side_totals(),
        "uses_chips": pad.uses_chips,
        "chips": list(pad.chips),
        "pool": pad.pool,
        "leaders": list(pad.leaders()),
        "near": list(pad.near_target()),
        "over": pad.over,
        "winners": list(pad.winners),
        "stakes": None if stakes is None else [round(float(x), 2) for x in stakes],
        "carry_declarer": pad.carry_declarer,
        "next_pass": pad.next_pass(),
    }


async def _load(store: Any, pad_id: str) -> tuple[Pad, int]:
    if not (0 < len(pad_id) <= 24):
        raise refused(Refused("not_found", N_("no such score pad")))
    stored = await asyncio.to_thread(db.get_pad, store, pad_id)
    if stored is None:
        raise refused(Refused("not_found", N_("no such score pad")))
    try:
        return loads(stored.data), stored.version
    except PadError as e:  # pragma: no cover - the server only stores pads the core accepted
        raise refused(Refused("server", N_("the stored pad does not load: {error}"), error=e)) from None


async def _check_key(store: Any, pad_id: str, key: str | None) -> None:
    if not key or len(key) > 100 or not await asyncio.to_thread(db.key_matches, store, pad_id, key):
        raise refused(Refused("auth", N_("this link only follows the pad; changing it needs the editor's link")))


def _check_seen(seen: int | None, version: int) -> None:
    """Refuse an edit or delete made on an older sheet than the stored one (409, as two writes at once)."""
    if seen is not None and seen != version:
        raise refused(Refused("conflict", N_("someone changed the pad at the same time; look again and retry")))


async def _write(store: Any, pad_id: str, pad: Pad, version: int) -> dict[str, Any]:
    try:
        new = await asyncio.to_thread(db.save_pad, store, pad_id, pad.dumps(), version)
    except db.PadConflict:
        raise refused(
            Refused("conflict", N_("someone changed the pad at the same time; look again and retry"))
        ) from None
    return view(pad, pad_id, new)


@router.post("/api/pads", status_code=201)
async def create_pad(body: NewPadRequest, store: StoreDep) -> dict[str, Any]:
    """A new pad.  The body is checked against the schema first (an unknown preset or option, a word
    that is not one of its choices, a number out of range: 422 naming it and what it allows), then the
    rules check how the options go together (as for a new table: :mod:`corazones.server.options`),
    then the pad the names and the revoke penalty."""
    try:
        rules = rules_of(body.preset, body.options)
    except OptionsRefused as e:
        raise _pad_refused(e, "malformed") from None
    try:
        penalty = DEFAULT_REVOKE_PENALTY if body.revoke_penalty is None else body.revoke_penalty
        pad = Pad(rules, tuple(body.names), revoke_penalty=penalty)
    except PadError as e:
        raise _pad_refused(e) from None
    pad_id, key = await asyncio.to_thread(db.new_pad, store, pad.dumps())
    return {"id": pad_id, "key": key, "pad": view(pad, pad_id, 1)}


@router.get("/api/pads/{pad_id}")
async def read_pad(
    pad_id: str,
    request: Request,
    store: StoreDep,
    hub: HubDep,
    after: Annotated[int | None, Query(ge=0, le=10**9)] = None,
) -> dict[str, Any]:
    """The sheet; with ``after``, wait until the pad is newer than that version (or ``WAIT`` runs out).

    A waiting follower holds a connection open and looks at the database every ``POLL`` seconds,
    so it counts against its address's open connections, with the table WebSockets
    (``--ws-per-address``): over the limit it is answered 429 at once instead of waiting.
    A follower that goes away (a closed page, a server shutting down) ends the wait at once.
    """
    if after is not None:
        address = request.client.host if request.client else "?"
        if not hub.admission.admit(address):
            n = int(hub.settings.limit("ws_per_address"))
            raise refused(Refused("rate_limited", N_("Too many connections from your address: at most {n}."), n=n))
        try:
            end = time.monotonic() + WAIT
            while time.monotonic() < end:
                version = await asyncio.to_thread(db.pad_version, store, pad_id)
                if version is None or version > after or await request.is_disconnected():
                    break
                await asyncio.sleep(POLL)
        finally:
            hub.admission.release(address)
    pad, version = await _load(store, pad_id)
    return view(pad, pad_id, version)


@router.get("/api/pads/{pad_id}/sheet.csv")
async def pad_csv(pad_id: str, store: StoreDep) -> Response:
    """The sheet as CSV (a line per hand: hand scores, running totals, chips and pool, the moon, the note)."""
    pad, _version = await _load(store, pad_id)
    return _download(pad.to_csv(), "text/csv; charset=utf-8", f"corazones-pad-{pad_id}.csv")


@router.get("/api/pads/{pad_id}/pad.json")
async def pad_file(pad_id: str, store: StoreDep) -> Response:
    """The pad file, which ``corazones pad --load`` opens in the terminal."""
    pad, _version = await _load(store, pad_id)
    return _download(pad.dumps(), "application/json", f"corazones-pad-{pad_id}.json")


def _download(content: str, media_type: str, filename: str) -> Response:
    """``content`` as a file the browser saves as ``filename``."""
    return Response(
        content, media_type=media_type, headers={"Content-Disposition": f'attachment; filename="{filename}"'}
    )


def _entry(body: dict[str, Any], hand: int) -> Entry:
    try:
        return entry_from_json(body, hand)
    except PadError as e:
        raise _pad_refused(e) from None


KeyHeader = Annotated[str | None, Header(alias="X-Pad-Key")]
#: The pad's version the editor was looking at: an edit or a delete names a hand by its number, and another
#: editor's change since then may have moved a different hand to that number.
SeenQuery = Annotated[int | None, Query(ge=0, le=2**62)]
#: A hand of a pad, numbered from 1 (a number no pad can reach is a 422, not a crash).
HandNumber = Annotated[int, Path(ge=1, le=10**6)]


#: The number of the hand the editor was entering: two people keeping score enter the same hand, and the
#: second must not become the next hand without a word.
NextHandQuery = Annotated[int | None, Query(ge=1, le=10**6)]


@router.post("/api/pads/{pad_id}/hands")
async def add_hand(
    pad_id: str, body: dict[str, Any], store: StoreDep, x_pad_key: KeyHeader = None, hand: NextHandQuery = None
) -> dict[str, Any]:
    """Add a hand; with ``hand``, only as that hand (409 when another editor added or removed one since)."""
    await _check_key(store, pad_id, x_pad_key)
    pad, version = await _load(store, pad_id)
    if hand is not None and hand != len(pad.rows) + 1:
        raise refused(
            Refused(
                "conflict",
                N_(
                    "the sheet changed while hand {n} was being entered: another editor added or removed a hand, "
                    "so this one would be hand {now}; look at the sheet, then add it again if it is still missing"
                ),
                n=hand,
                now=len(pad.rows) + 1,
            )
        )
    try:
        pad.add(_entry(body, len(pad.rows) + 1))
    except PadError as e:
        raise _pad_refused(e) from None
    return await _write(store, pad_id, pad, version)


@router.put("/api/pads/{pad_id}/hands/{hand}")
async def edit_hand(
    pad_id: str,
    hand: HandNumber,
    body: dict[str, Any],
    store: StoreDep,
    x_pad_key: KeyHeader = None,
    seen: SeenQuery = None,
) -> dict[str, Any]:
    await _check_key(store, pad_id, x_pad_key)
    pad, version = await _load(store, pad_id)
    _check_seen(seen, version)
    try:
        pad.edit(hand - 1, _entry(body, hand))
    except PadError as e:
        raise _pad_refused(e) from None
    return await _write(store, pad_id, pad, version)


@router.delete("/api/pads/{pad_id}/hands/{hand}")
async def delete_hand(
    pad_id: str, hand: HandNumber, store: StoreDep, x_pad_key: KeyHeader = None, seen: SeenQuery = None
) -> dict[str, Any]:
    """Delete hand ``hand`` (the last one: undo) and recompute the rows after it."""
    await _check_key(store, pad_id, x_pad_key)
    pad, version = await _load(store, pad_id)
    _check_seen(seen, version)
    try:
        pad.remove(hand - 1)
    except PadError as e:
        raise _pad_refused(e) from None
    return await _write(store, pad_id, pad, version)
