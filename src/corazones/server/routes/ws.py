"""The table WebSocket: hello, then intentions in and numbered events out (docs/protocol.md).

Each connection has its own outgoing queue and sender task, so a slow
client never holds up a broadcast; a client whose queue overflows is
disconnected (it can reconnect and resume).  Every incoming message is
size-checked, rate-limited and validated against the schema before anything
else looks at it; every refusal is an ``error`` reply and the connection
stays open (a flood of refusals closes it).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from typing import Any

from fastapi import APIRouter, WebSocket
from pydantic import ValidationError

from corazones.core.cards import format_cards
from corazones.core.errors import Seats
from corazones.core.text import has_visible, safe_line
from corazones.i18n import N_, pick_lang, translator
from corazones.server.deps import player_of_token
from corazones.server.hub import Conn, Hub, Refused, TableRuntime
from corazones.server.limits import TokenBucket
from corazones.server.outgoing import ServerModel, encode
from corazones.server.refusal import error_reply
from corazones.server.schema import (
    CLIENT_MESSAGE,
    LIMITS,
    Act,
    Chat,
    Hello,
    HintReply,
    HintRequest,
    Ping,
    Pong,
    Resume,
    Sit,
    Stand,
)

router = APIRouter()
log = logging.getLogger("corazones.server")

_TYPES = ("hello", "act", "chat", "hint", "resume", "ping", "sit", "stand")
_QUEUE_MAX = 4000
#: Characters a connection's outgoing queue may hold: a client that sends (resumes, pings) but never
#: reads would otherwise make the server keep up to ``_QUEUE_MAX`` snapshots for it, each up to the
#: ``missed_events_max`` events (hundreds of KiB), per connection.  The largest legitimate burst (a
#: snapshot with every missed event, then a hand's events) is far below it.
_QUEUE_CHARS = 4 * 1024 * 1024


class Session:
    """One connection's state while it is open."""

    def __init__(self, ws: WebSocket, hub: Hub) -> None:
        self.ws = ws
        self.hub = hub
        self.queue: asyncio.Queue[tuple[str, int, str] | None] = asyncio.Queue()
        self.queued = 0  # characters of text in the queue, not yet handed to the socket
        self.closed = False
        self.lang = "en"
        self.conn: Conn | None = None
        self.table: TableRuntime | None = None
        clock = hub.settings.clock
        self.bucket = TokenBucket(LIMITS["ws_rate_per_second"], LIMITS["ws_burst"], clock)
        self.chat_bucket = TokenBucket(LIMITS["chat_per_minute"] / 60, 5, clock)
        self.refusals = 0

    # ------------------------------------------------------------ sending
    def send(self, text: str) -> None:
        if self.closed:
            return
        if self.queue.qsize() >= _QUEUE_MAX or self.queued + len(text) > _QUEUE_CHARS:
            # What it did not read is dropped (it resumes from its last event), so a client that never
            # reads holds no more than the message being written.
            while not self.queue.empty():
                self.queue.get_nowait()
            self.queued = 0
            self.close(1008, "too far behind; reconnect and resume")
            return
        self.queued += len(text)
        self.queue.put_nowait(("text", 0, text))

    def close(self, code: int, reason: str) -> None:
        if not self.closed:
            self.closed = True
            self.queue.put_nowait(("close", code, reason))

    def send_message(self, msg: ServerModel) -> None:
        self.send(encode(msg))

    def error(self, code: str, template: str, ref: str | None = None, **params: Any) -> None:
        """Refuse a message of this connection (a :class:`Refused` made here and sent as any other)."""
        self.refuse(Refused(code, template, **params), ref)

    def refuse(self, e: Refused, ref: str | None = None) -> None:
        self.send_message(error_reply(e, self.lang, ref))

    async def sender(self) -> None:
        while True:
            item = await self.queue.get()
            if item is None:
                return
            kind, code, text = item
            try:
                if kind == "close":
                    await self.ws.close(code, text)
                    return
                await self.ws.send_text(text)
                self.queued -= len(text)
            except Exception:  # the peer is gone; the reader notices too
                self.closed = True
                return

    # ------------------------------------------------------------ reading
    async def read(self) -> str | None:
        """The next text message; None when the peer is gone.  Binary frames read as ''."""
        msg = await self.ws.receive()
        if msg["type"] == "websocket.disconnect":
            return None
        text = msg.get("text")
        if text is None:
            return ""
        return str(text)

    def parse(self, raw: str) -> Any | None:
        """A validated client message, or None after an error reply (echoing the message's ``ref``, if it
        had a readable one, so a client waiting for the answer to that ``act`` gets it)."""
        if len(raw.encode("utf-8")) > LIMITS["ws_message_bytes"]:
            self.error("too_large", N_("Message too large: at most {n} bytes."), n=LIMITS["ws_message_bytes"])
            return None
        try:
            data = json.loads(raw, parse_constant=_not_a_number)
        except _NonFinite:
            self.error("malformed", N_("Numbers must be finite: NaN and Infinity are not JSON."))
            return None
        except RecursionError:
            self.error("malformed", N_("Nested too deeply: a message is a JSON object a few levels deep."))
            return None
        except (json.JSONDecodeError, ValueError):
            self.error("malformed", N_("Not JSON: every message is a JSON object with a type."))
            return None
        if not isinstance(data, dict):
            self.error("malformed", N_("Not JSON: every message is a JSON object with a type."))
            return None
        ref = _ref_in(data)
        if data.get("type") not in _TYPES:
            self.error("unknown_type", N_("Unknown message type; types: {types}."), ref, types=", ".join(_TYPES))
            return None
        try:
            return CLIENT_MESSAGE.validate_python(data)
        except ValidationError as e:
            why = _first_problem(e, str(data.get("type")))
            self.error("malformed", N_("Malformed {type} message: {why}"), ref, type=str(data.get("type")), why=why)
            return None


#: The names pydantic gives the branches of a union in an error's location (``constrained-int``,
#: ``function-after[...]``, a bare type): not fields, so not shown.
_BRANCH_NAMES = frozenset({"int", "float", "str", "bool", "list", "dict", "tuple", "none"})


def _is_branch(part: object) -> bool:
    return isinstance(part, str) and ("-" in part or "[" in part or part in _BRANCH_NAMES)


def _first_problem(e: ValidationError, kind: str) -> str:
    """The first field a message got wrong and what it should be: ``t: Input should be a valid integer
    or Input should be a finite number`` (every branch of a union said, never a branch's inner name)."""
    errors = e.errors()
    loc = tuple(errors[0].get("loc", ()))
    field = tuple(x for x in loc if not _is_branch(x))
    msgs: list[str] = []
    for err in errors:
        at = tuple(err.get("loc", ()))
        if tuple(x for x in at if not _is_branch(x)) == field and str(err.get("msg")) not in msgs:
            msgs.append(str(err.get("msg")))
    where = ".".join(str(x) for x in field if x != kind)
    why = " or ".join(msgs)
    return f"{where}: {why}" if where else why


class _NonFinite(ValueError):
    """NaN or an infinity in a message: Python's JSON reader takes them, JSON (and the reply) does not."""


def _not_a_number(constant: str) -> Any:
    raise _NonFinite(constant)


def _ref_in(data: Any) -> str | None:
    """The ``ref`` a message carries, when it is one the protocol allows (a string of at most 64 characters)."""
    ref = data.get("ref") if isinstance(data, dict) else None
    return ref if isinstance(ref, str) and len(ref) <= 64 else None


def ref_of(raw: str) -> str | None:
    """The ``ref`` of a message refused before it was read (over the rate): read only to echo it, and only
    from a message within the size limit."""
    if len(raw) > LIMITS["ws_message_bytes"]:
        return None
    try:
        return _ref_in(json.loads(raw, parse_constant=_not_a_number))
    except (ValueError, RecursionError):
        return None


router_ws_path = "/ws/tables/{table_id}"


@router.websocket(router_ws_path)
async def table_socket(ws: WebSocket, table_id: str) -> None:
    hub: Hub = ws.app.state.hub
    await ws.accept()
    s = Session(ws, hub)
    sender = asyncio.create_task(s.sender())
    # Connections per client address (uvicorn puts the forwarded address here behind a trusted proxy).
    address = ws.client.host if ws.client else "?"
    counted = hub.admission.admit(address)
    try:
        if counted:
            await _serve(s, table_id)
        else:
            n = int(hub.settings.limit("ws_per_address"))
            s.error("rate_limited", N_("Too many connections from your address: at most {n}."), n=n)
            s.close(1008, "too many connections")
    except Exception:
        log.exception("connection to table %s failed", table_id)
    finally:
        if counted:
            hub.admission.release(address)
        if s.conn is not None and s.table is not None:
            with contextlib.suppress(Exception):
                await hub.connections.disconnect(s.table, s.conn)
        s.close(1000, "bye")
        with contextlib.suppress(asyncio.TimeoutError, Exception):
            await asyncio.wait_for(sender, 2)
        sender.cancel()


async def _serve(s: Session, table_id: str) -> None:
    hub = s.hub
    try:
        raw = await asyncio.wait_for(s.read(), hub.settings.limit("hello_timeout_seconds"))
    except TimeoutError:
        s.error("auth", N_("Say hello first (with your token)."))
        s.close(1008, "no hello")
        return
    if raw is None:
        return
    hello = s.parse(raw)
    if not isinstance(hello, Hello):
        if hello is not None:
            s.error("auth", N_("Say hello first (with your token)."))
        s.close(1008, "no hello")
        return
    s.lang = pick_lang(hello.lang or "en")
    player = await player_of_token(s.ws, hello.token)  # type: ignore[arg-type]
    if player is None:
        s.error("auth", N_("Unknown or invalid token: get one from /api/auth/guest."))
        s.close(1008, "bad token")
        return
    try:
        t = await hub.ownership.get(table_id)
    except Refused as e:
        s.refuse(e)
        s.close(1008 if e.code != "moved" else 4001, e.code)
        return
    address = s.ws.client.host if s.ws.client else "?"
    conn = Conn(
        player.id, player.name, player.kind, s.lang, s.send, s.close, token_gen=player.token_gen, address=address
    )
    try:
        await hub.connections.connect(t, conn, hello.last_seq)
    except Refused as e:
        s.refuse(e)
        s.close(4004 if e.code == "removed" else 1008, e.code)
        return
    s.conn, s.table = conn, t
    while not s.closed:
        raw = await s.read()
        # Closed while this read waited (sign-in revoked, removed by the host, table moved): a message
        # the client sent before the close reached it is not acted on.
        if raw is None or s.closed:
            return
        if not s.bucket.take():
            s.refusals += 1
            s.error(
                "rate_limited",
                N_("Too many messages: at most {n} a second."),
                ref_of(raw),
                n=LIMITS["ws_rate_per_second"],
            )
            if s.refusals >= LIMITS["ws_flood_close"]:
                s.close(1008, "flood")
            continue
        msg = s.parse(raw)
        if msg is None:
            s.refusals += 1
            if s.refusals >= LIMITS["ws_flood_close"]:
                s.close(1008, "flood")
            continue
        s.refusals = 0
        try:
            await _dispatch(s, t, conn, msg)
        except Refused as e:
            s.refuse(e, getattr(msg, "ref", None))


async def _dispatch(s: Session, t: TableRuntime, conn: Conn, msg: Any) -> None:
    hub = s.hub
    if isinstance(msg, Act):
        if conn.seat is None:
            raise Refused("not_seated", N_("You do not sit at this table; take a seat to play."))
        if msg.action.seat is not None and msg.action.seat != conn.seat:
            raise Refused(
                "not_your_seat",
                N_("You play seat {mine}, not seat {other}."),
                mine=Seats(conn.seat),
                other=Seats(msg.action.seat),
            )
        await hub.turns.act(t, conn.seat, msg.action.with_seat(conn.seat), "human", player=conn.player_id)
    elif isinstance(msg, Chat):
        if not s.chat_bucket.take():
            raise Refused("rate_limited", N_("Too many chat lines: at most {n} a minute."), n=LIMITS["chat_per_minute"])
        text = safe_line(msg.text, LIMITS["chat_chars"])
        if not has_visible(text):
            raise Refused("malformed", N_("An empty chat line is not sent."))
        await hub.connections.chat(t, conn, text)
    elif isinstance(msg, HintRequest):
        if conn.seat is None:
            raise Refused("not_seated", N_("You do not sit at this table; take a seat to play."))
        result = await hub.hints.hint(t, conn.seat, msg.level, conn.player_id)
        s.send_message(hint_reply(result, msg.level, s.lang))
    elif isinstance(msg, Resume):
        async with t.lock:  # the events and the view it sends are of one moment
            snapshot = await hub.snapshots.snapshot(t, conn, msg.last_seq)
        s.send_message(snapshot)
    elif isinstance(msg, Ping):
        s.send_message(Pong(type="pong", t=msg.t))
    elif isinstance(msg, Sit):
        await hub.seating.join(t, conn.player_id, conn.player_name, msg.seat, msg.invite)
    elif isinstance(msg, Stand):
        await hub.seating.leave(t, conn.player_id)
    elif isinstance(msg, Hello):
        raise Refused("malformed", N_("Hello was already said on this connection."))


def hint_reply(result: Any, level: str, lang: str) -> HintReply:
    """The ``hint`` message for a ``players.hints.suggest`` result, its reason in ``lang``."""
    gettext = translator(lang).gettext
    if isinstance(result, tuple):  # (action, English sentence)
        action, reason = result
        message = {"action": action.to_json(), "reason": gettext(reason), "reasons": []}
    else:
        data = result.to_json()
        message = {
            "action": data["action"],
            "reason": result.text(
                gettext=gettext,
                card=lambda c: format_cards([c], glyphs=True),
                seat=lambda n: gettext("seat {n}").format(n=n + 1),  # counted from 1, as the table names it
            ),
            "reasons": data.get("reasons", []),
        }
    return HintReply.model_validate({"type": "hint", **message, "level": level})
