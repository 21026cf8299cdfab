"""Every message the server sends is a model of the protocol (:mod:`corazones.server.schema`).

The hub builds each message as one of :data:`ServerModel` (``Welcome``, ``Event``,
``Snapshot``, ``HintReply``, ``Pong``, ``ErrorReply``): building the model
validates it, so a value of the wrong shape fails here, in the server, rather
than in a client, and a field the protocol does not declare is never kept.
:func:`encode` sends nothing else.  So the protocol documented in
docs/protocol.md (rendered from the same models) is what the wire carries, at
run time and not only in the tests.

What this costs stays below what the load bench can see (docs/server.md): an
event body is validated once when it is stored (:func:`event_body`), a view
once per seat that receives it, and a model already validated is taken as it is
when it goes into a message (pydantic's ``revalidate_instances="never"``); each
model is then written out by its own serializer, in Rust, which is faster than
``json.dumps`` of the same dictionaries.
"""

from __future__ import annotations

from typing import Any, TypeAlias

from pydantic import TypeAdapter

from corazones.server.schema import (
    ActionEvent,
    ChatEvent,
    ErrorReply,
    Event,
    EventBody,
    GameOverEvent,
    GameStartEvent,
    HandEndEvent,
    HandStartEvent,
    HintReply,
    Pong,
    SeatEvent,
    Snapshot,
    TableEvent,
    Welcome,
)

ServerModel: TypeAlias = Welcome | Event | Snapshot | HintReply | Pong | ErrorReply
EventModel: TypeAlias = (
    GameStartEvent | HandStartEvent | ActionEvent | HandEndEvent | GameOverEvent | SeatEvent | ChatEvent | TableEvent
)

_MESSAGES = (Welcome, Event, Snapshot, HintReply, Pong, ErrorReply)
_EVENT_BODY: TypeAdapter[EventModel] = TypeAdapter(EventBody)


def event_body(data: dict[str, Any]) -> EventModel:
    """The protocol's model of one event (``data`` as the hub stores it); a ``ValidationError`` if it is not one."""
    return _EVENT_BODY.validate_python(data)


def encode(message: ServerModel) -> str:
    """``message`` as JSON text.

    Nested models are written by their own class's serializer (``serialize_as_any``): the same text as
    through the declared unions, without trying each member of a union in turn.
    """
    if not isinstance(message, _MESSAGES):
        raise TypeError(f"only the protocol's server messages are sent, not {type(message).__name__}")
    return message.model_dump_json(serialize_as_any=True)
