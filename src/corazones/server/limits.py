"""HTTP limits as ASGI middleware: body size and write rate per player (or client address).

The write rate is counted per player when the request carries a valid token,
else per client address: many people behind one address (a school, a
carrier's NAT, a proxy) do not share one budget, and one player cannot spend
more by switching addresses.  Requests without a token (making a guest,
logging in) are counted per address (an IPv6 client by its /64:
:func:`~corazones.server.addresses.client_key`), and so are those with a token that
this process has seen revoked (``Connections.revoked_below``).  Behind a reverse proxy, uvicorn puts
the forwarded client address in the scope for trusted proxies
(``FORWARDED_ALLOW_IPS``).

The budget is a token bucket: ``writes_per_minute`` at once, refilled at that
many a minute by ``clock`` (``Settings.clock``, ``time.monotonic`` unless a test
gives its own), read once per write as it arrives.

Pure ASGI (not ``BaseHTTPMiddleware``) so WebSocket traffic passes through
untouched and request bodies are counted as they stream in, whatever the
``Content-Length`` header claims.
"""

from __future__ import annotations

import json
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any

from corazones.core.errors import N_, CorazonesError, Count
from corazones.server.addresses import client_key
from corazones.server.refusal import http_detail
from corazones.server.schema import LIMITS

Scope = dict[str, Any]


class TokenBucket:
    """``rate`` units a second on average, ``burst`` at once, by ``clock`` (the server's ``Settings.clock``).

    Every budget of the server is one: a connection's messages and chat lines, a player's writes and
    hints, the events resent to an address.
    """

    def __init__(self, rate: float, burst: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate, self.burst = rate, burst
        self.clock = clock
        self.tokens = burst
        self.at = clock()

    def take(self, cost: float = 1.0) -> bool:
        """Spend ``cost`` units if the bucket holds them (True); else spend nothing (False)."""
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens >= cost:
            self.tokens -= cost
            return True
        return False


class Buckets:
    """One :class:`TokenBucket` per key (a player, an address), the least recently used forgotten
    beyond ``keep`` keys: a key forgotten starts again with a full bucket, which only errs on the side
    of letting a long-quiet client through."""

    def __init__(self, rate: float, burst: float, clock: Callable[[], float] = time.monotonic, keep: int = 10_000):
        self.rate, self.burst, self.clock, self.keep = rate, burst, clock, keep
        self.buckets: OrderedDict[Hashable, TokenBucket] = OrderedDict()

    def take(self, key: Hashable, cost: float = 1.0) -> bool:
        """Spend ``cost`` from ``key``'s bucket (see :meth:`TokenBucket.take`)."""
        bucket = self.buckets.pop(key, None) or TokenBucket(self.rate, self.burst, self.clock)
        self.buckets[key] = bucket
        while len(self.buckets) > self.keep:
            self.buckets.popitem(last=False)
        return bucket.take(cost)


class HttpLimits:
    def __init__(
        self,
        app: Any,
        body_bytes: int | None = None,
        writes_per_minute: int | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.app = app
        self.body_bytes = body_bytes or LIMITS["http_body_bytes"]
        per_minute = float(writes_per_minute or LIMITS["http_writes_per_minute"])
        self.burst = per_minute
        self.writes = Buckets(per_minute / 60.0, per_minute, clock)

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        if scope["type"] != "http" or scope["method"] in ("GET", "HEAD", "OPTIONS"):
            await self.app(scope, receive, send)
            return
        client = _player_key(scope) or "address:" + client_key(str((scope.get("client") or ("?", 0))[0]))
        if not self.writes.take(client):
            await _reply(send, 429, "rate_limited", TOO_MANY_WRITES, n=Count(int(self.burst)))
            return
        headers = dict(scope.get("headers") or [])
        length = headers.get(b"content-length")
        if length is not None and length.isdigit() and int(length) > self.body_bytes:
            await _reply(send, 413, "too_large", TOO_LARGE, n=Count(self.body_bytes))
            return
        seen = 0
        limit = self.body_bytes

        async def counted() -> Any:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > limit:
                    raise _TooLarge
            return message

        try:
            await self.app(scope, counted, send)
        except _TooLarge:
            await _reply(send, 413, "too_large", TOO_LARGE, n=Count(self.body_bytes))


def _player_key(scope: Scope) -> str | None:
    """``player:ID`` for a request with a valid ``Authorization: Bearer`` token (signed, not expired, not
    seen revoked), else None."""
    auth = dict(scope.get("headers") or []).get(b"authorization", b"").decode("latin-1")
    scheme, _, value = auth.partition(" ")
    app = scope.get("app")
    tokens = getattr(getattr(app, "state", None), "tokens", None)
    if scheme.lower() != "bearer" or not value.strip() or tokens is None:
        return None
    found = tokens.identity(value.strip())
    if found is None:
        return None
    pid, gen = found
    # A token this process has seen revoked counts per address: it must not spend its player's budget.
    hub = getattr(getattr(app, "state", None), "hub", None)
    if hub is not None and gen < hub.connections.revoked_below.get(pid, 0):
        return None
    return f"player:{pid}"


class _TooLarge(Exception):
    pass


#: The refusals of this middleware, with their reason for the page to translate (as every lobby refusal).
TOO_MANY_WRITES = N_("At most {n} writes a minute: wait a little and try again.")
TOO_LARGE = N_("The request's body is over {n} bytes, the most this server takes.")


async def _reply(send: Any, status: int, code: str, template: str, **params: Any) -> None:
    refusal = CorazonesError(template, **params)
    detail = http_detail(code, refusal)
    body = json.dumps({"detail": detail}).encode()
    await send({"type": "http.response.start", "status": status, "headers": [(b"content-type", b"application/json")]})
    await send({"type": "http.response.body", "body": body})
