"""A request the server refuses, and how one connection is told."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from corazones.core.errors import CorazonesError
from corazones.i18n import error_json, error_text, translator
from corazones.server.outgoing import encode
from corazones.server.schema import ErrorReply

if TYPE_CHECKING:
    from corazones.server.table import Conn


class Refused(CorazonesError):
    """A request the table refuses: ``code`` (schema.ErrorCode) and an English template with its parameters.

    A :class:`CorazonesError` like every other refusal, so one mechanism shows
    it: a WebSocket ``error`` carries ``i18n.error_text`` in the connection's
    language, an HTTP refusal ``i18n.error_json`` for the page to translate.
    A parameter may be the core's error itself (why a move is illegal): it is
    translated with the template, so a Spanish player reads the reason in
    Spanish.  ``url`` is not part of the text: it tells a client where to
    reconnect (``moved``).
    """

    def __init__(self, code: str, template: str, /, url: str | None = None, **params: Any) -> None:
        super().__init__(template, **params)
        self.code = code
        self.url = url


def http_detail(code: str, refusal: CorazonesError, **more: Any) -> dict[str, Any]:
    """An HTTP refusal's ``detail``: its ``code``, the English ``message`` as people read it (seats counted
    from 1, counts grouped: ``i18n.error_text``, not the programmer's ``str``) and the ``reason`` (template
    and parameters) the web app translates."""
    message = error_text(translator("en").gettext, refusal)
    return {"code": code, "message": message, **more, "reason": error_json(refusal)}


def error_reply(refusal: Refused, lang: str, ref: str | None = None) -> ErrorReply:
    """The ``error`` message that tells ``refusal`` in ``lang``, echoing the refused message's ``ref``."""
    message = error_text(translator(lang).gettext, refusal)
    return ErrorReply.model_validate(
        {"type": "error", "code": refusal.code, "message": message, "ref": ref, "url": refusal.url}
    )


def tell(conn: Conn, refusal: Refused) -> None:
    """An ``error`` message to one connection, in its language (the same shape as a refused request's)."""
    conn.send(encode(error_reply(refusal, conn.lang)))
