"""Outgoing messages are built from the protocol's schema models, so the protocol holds at run time."""

from __future__ import annotations

import json

import pytest
from pydantic import ValidationError

from corazones.core.game import Game
from corazones.core.rules import Rules
from corazones.server.outgoing import encode
from corazones.server.views import public_view, seat_view


def test_a_view_goes_out_exactly_as_the_views_build_it() -> None:
    game = Game(Rules.preset("standard"), "outgoing")
    for view in (public_view(game), seat_view(game, 0)):
        message = {"type": "event", "table": "t", "seq": 1, "event": {"kind": "table", "status": "playing"}}
        sent = json.loads(encode({**message, "view": view}))
        assert sent == json.loads(json.dumps({**message, "view": view}))


def test_a_message_outside_the_protocol_is_refused_before_it_leaves() -> None:
    with pytest.raises(ValidationError):
        encode({"type": "event", "table": "t", "seq": 1, "event": {"kind": "no_such_event"}, "view": None})
    with pytest.raises(ValidationError):
        encode({"type": "error", "code": "no_such_code", "message": "x", "ref": None, "url": None})
    with pytest.raises(ValidationError):
        encode({"type": "no_such_type"})


def test_a_field_the_protocol_does_not_declare_never_reaches_a_client() -> None:
    sent = json.loads(encode({"type": "pong", "t": 1.5, "secret": "hidden"}))
    assert sent == {"type": "pong", "t": 1.5}
