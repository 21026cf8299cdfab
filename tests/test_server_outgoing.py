"""Outgoing messages are the protocol's schema models, so the protocol holds at run time."""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path
from typing import Any

import pytest
from pydantic import TypeAdapter, ValidationError

from corazones.core.game import Game
from corazones.core.rules import Rules
from corazones.server.hub import Conn, Hub, Settings
from corazones.server.outgoing import encode, event_body
from corazones.server.schema import ErrorReply, Event, Pong, RulesOptions, ServerMessage
from corazones.server.views import public_view, redact, seat_view, view_model
from corazones.services.store import Store
from tests.helpers import random_action

_THROUGH_THE_UNION: TypeAdapter[Any] = TypeAdapter(ServerMessage)


def test_a_view_goes_out_exactly_as_the_views_build_it() -> None:
    game = Game(Rules.preset("standard"), "outgoing")
    for seat, view in ((None, public_view(game)), (0, seat_view(game, 0))):
        message = {"type": "event", "table": "t", "seq": 1, "event": {"kind": "table", "status": "playing"}}
        built = Event.model_validate({**message, "event": event_body(message["event"]), "view": view_model(game, seat)})
        assert json.loads(encode(built)) == json.loads(json.dumps({**message, "view": view}))


def test_every_event_of_a_game_is_written_as_the_declared_unions_write_it() -> None:
    """``encode`` writes each nested model by its own serializer: the very text the protocol's unions give."""
    game = Game(Rules.preset("standard"), "outgoing")
    rng = random.Random(7)
    while not game.over:
        action = random_action(game, rng)
        done = game.apply(action)
        data = {"kind": "action", "action": action.to_json(), "by": "bot", "trick": None}
        if done.trick is not None:
            data["trick"] = done.trick.to_json()
        for seat in (None, 0, 1, 2, 3):
            shown = redact(data, seat)
            message = {"type": "event", "table": "t", "seq": 1, "event": shown, "view": None}
            view = seat_view(game, seat) if seat is not None else public_view(game)
            built = Event.model_validate({**message, "event": event_body(shown), "view": view_model(game, seat)})
            expected = _THROUGH_THE_UNION.dump_json(_THROUGH_THE_UNION.validate_python({**message, "view": view}))
            assert encode(built) == expected.decode()


def test_a_message_outside_the_protocol_is_refused_before_it_leaves() -> None:
    with pytest.raises(ValidationError):
        event_body({"kind": "no_such_event"})
    with pytest.raises(ValidationError):
        Event.model_validate(
            {"type": "event", "table": "t", "seq": "one", "event": event_body({"kind": "table", "status": "open"})}
        )
    with pytest.raises(ValidationError):
        ErrorReply.model_validate({"type": "error", "code": "no_such_code", "message": "x", "ref": None, "url": None})
    with pytest.raises(TypeError, match="only the protocol's server messages"):
        encode({"type": "pong", "t": 1})  # type: ignore[arg-type]


def test_a_field_the_protocol_does_not_declare_never_reaches_a_client() -> None:
    sent = json.loads(encode(Pong.model_validate({"type": "pong", "t": 1.5, "secret": "hidden"})))
    assert sent == {"type": "pong", "t": 1.5}


def test_the_hub_refuses_an_event_outside_the_protocol_before_storing_or_sending_it(tmp_path: Path) -> None:
    """An event the protocol cannot carry is neither stored (a reload would replay it) nor sent to anyone."""
    store = Store(f"sqlite:///{tmp_path}/hub.db").migrate()
    received: list[str] = []

    async def scenario() -> tuple[int, int]:
        hub = Hub(store, Settings(db_url="unused"))
        hub.writer.start()
        try:
            ana = store.add_player("ana", "guest")
            t = await hub.seating.create(
                ana.id, "ana", "standard", RulesOptions(), [{"kind": "human"}] * 4, 0, False, None, "standard"
            )
            t.conns.add(Conn(ana.id, "ana", "guest", "en", received.append, lambda code, why: None, seat=0))
            before = t.seq
            async with t.lock:
                with pytest.raises(ValidationError):
                    await hub.events.emit(
                        t, [("chat", {"kind": "chat", "seat": "the host", "name": "ana", "text": "hi"})]
                    )
                await hub.events.emit(t, [("chat", {"kind": "chat", "seat": 0, "name": "ana", "text": "hi"})], False)
            return before, t.seq
        finally:
            await hub.writer.stop()

    try:
        before, after = asyncio.run(scenario())
        assert after == before + 1  # only the valid chat line took a number
        stored = store.events(store.list_tables()[0].id)
        assert [e.data.get("text") for e in stored if e.kind == "chat"] == ["hi"]
        assert [json.loads(line)["event"] for line in received] == [
            {"kind": "chat", "seat": 0, "name": "ana", "text": "hi"}
        ]
    finally:
        store.close()
