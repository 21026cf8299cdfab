"""Every message the server sends, built from the protocol's schema models (:mod:`corazones.server.schema`).

A message leaves as :data:`~corazones.server.schema.ServerMessage` serializes
it, after validating it against that model: a field the protocol does not
declare is left out, and a value of the wrong shape fails here, in the server,
rather than in a client.  So the protocol documented in docs/protocol.md
(rendered from the same models) is what the wire carries, at run time and not
only in the tests.
"""

from __future__ import annotations

from typing import Any

from pydantic import TypeAdapter

from corazones.server.schema import ServerMessage

_SERVER_MESSAGE: TypeAdapter[Any] = TypeAdapter(ServerMessage)


def encode(message: dict[str, Any]) -> str:
    """``message`` (a ``welcome``, ``event``, ``snapshot``, ``hint``, ``pong`` or ``error``) as JSON text."""
    return _SERVER_MESSAGE.dump_json(_SERVER_MESSAGE.validate_python(message)).decode()
