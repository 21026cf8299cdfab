"""The connection guard: limits a server applies at accept time, before any HTTP is parsed.

Uvicorn takes every connection and waits for its request as long as the
client likes, buffering a header line that never ends: one client could grow
the server by hundreds of MiB, and thousands of unfinished requests (a
*slowloris*) could take every file descriptor, so that new WebSockets,
``/healthz`` and the database itself failed to open.  This guard wraps
uvicorn's HTTP protocol (``uvicorn.Config(http=...)``, a public setting) and:

* caps the open connections of one client address (``per_address``; an IPv6
  client counted by its /64, :func:`~corazones.server.addresses.client_key`) and of the
  whole process (``total``, below the process's file-descriptor limit): a
  connection over either cap is answered 503 and closed at once;
* gives a connection ``head_seconds`` to send its first request head, and
  ``idle_seconds`` to send each next one (answered 408 and closed after that):
  a WebSocket, once upgraded, is the table's business (its own hello timeout
  and message limits);
* caps a request head at ``head_bytes`` (answered 431 and closed).

Connections from the reverse proxies uvicorn trusts (``forwarded_allow_ips``)
are not capped per address (every player behind the proxy shares its
address): the proxy limits its clients itself (docs/server.md).  Only the total
applies to them.
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import logging
import resource
from dataclasses import dataclass, field
from typing import Any

from corazones.server.addresses import client_key

log = logging.getLogger("corazones.server")

_HEAD_END = b"\r\n\r\n"


@dataclass
class ConnectionLimits:
    """What :class:`GuardedProtocol` enforces (``Settings`` holds one; docs/server.md lists them)."""

    per_address: int = 100
    #: None: the process's file-descriptor limit less 256 (kept for the database, the bot workers, logs)
    total: int | None = None
    head_bytes: int = 8192
    head_seconds: float = 10.0
    idle_seconds: float = 60.0
    #: Bytes a request body may bring after its head (``http_body_bytes`` and some slack): more before the
    #: next head is not HTTP this server speaks.
    body_bytes: int = 32768

    def resolved_total(self) -> int:
        if self.total is not None:
            return self.total
        soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        if soft == resource.RLIM_INFINITY:
            return 60_000
        return max(64, soft - 256)


@dataclass
class _Counts:
    """Open connections, per address and in all, shared by every connection of one server."""

    total: int = 0
    #: open connections per client (:func:`~corazones.server.addresses.client_key`: an IPv6 /64 is one)
    by_address: dict[str, int] = field(default_factory=dict)


class Trust:
    """The addresses uvicorn trusts as proxies (``forwarded_allow_ips``: addresses, networks or ``*``).

    Read exactly as uvicorn reads them, so that a connection is exempt from the per-address cap
    only when uvicorn also believes its ``X-Forwarded-For``: ``*`` only as the whole value, and a
    network only as written strictly (``10.0.0.1/24``, with host bits, is no network to uvicorn).
    """

    def __init__(self, spec: Any) -> None:
        self.everyone = spec in ("*", ["*"])
        items = spec if isinstance(spec, list) else str(spec or "").split(",")
        self.nets: list[ipaddress.IPv4Network | ipaddress.IPv6Network] = []
        for item in (str(i).strip() for i in items):
            if item and not self.everyone:
                try:
                    self.nets.append(ipaddress.ip_network(item))  # strict, as uvicorn
                except ValueError:
                    continue  # a host name or a socket path: nothing to match an address against

    def __contains__(self, address: str) -> bool:
        if self.everyone:
            return True
        try:
            ip = ipaddress.ip_address(address)
        except ValueError:
            return False
        return any(ip in net for net in self.nets)


def _reply(status: int, reason: str, message: str) -> bytes:
    body = json.dumps({"detail": {"code": "rate_limited" if status == 503 else "malformed", "message": message}})
    data = body.encode()
    head = (
        f"HTTP/1.1 {status} {reason}\r\ncontent-type: application/json\r\ncontent-length: {len(data)}\r\n"
        "connection: close\r\n\r\n"
    )
    return head.encode("latin-1") + data


class _Tail(asyncio.Protocol):
    """Stands in front of the protocol a connection was handed to (a WebSocket) only to hear it close."""

    def __init__(self, inner: Any, on_lost: Any) -> None:
        self.inner = inner
        self.on_lost = on_lost

    def data_received(self, data: bytes) -> None:
        self.inner.data_received(data)

    def eof_received(self) -> bool | None:
        result: bool | None = self.inner.eof_received()
        return result

    def pause_writing(self) -> None:
        self.inner.pause_writing()

    def resume_writing(self) -> None:
        self.inner.resume_writing()

    def connection_lost(self, exc: Exception | None) -> None:
        try:
            self.inner.connection_lost(exc)
        finally:
            self.on_lost()


def guarded_protocol(
    limits: ConnectionLimits, inner_class: type[asyncio.Protocol] | None = None
) -> type[asyncio.Protocol]:
    """A protocol class for ``uvicorn.Config(http=...)``: uvicorn's own (``inner_class``, by default its
    automatic choice) behind the limits."""
    if inner_class is None:
        from uvicorn.protocols.http.auto import AutoHTTPProtocol

        inner_class = AutoHTTPProtocol
    inner: Any = inner_class
    counts = _Counts()
    total = limits.resolved_total()

    class GuardedProtocol(asyncio.Protocol):
        def __init__(self, config: Any, server_state: Any, app_state: Any, _loop: Any = None) -> None:
            self.inner: Any = inner(config=config, server_state=server_state, app_state=app_state, _loop=_loop)
            # uvicorn believes a proxy's X-Forwarded-For only with its header middleware on (proxy_headers)
            self.trusted = Trust(config.forwarded_allow_ips if config.proxy_headers else "")
            self.transport: Any = None
            self.address: str | None = None
            self.key: str | None = None  # the client the address counts as (client_key)
            self.counted_address = False
            self.admitted = False
            self.released = False
            self.handed_over = False
            self.since_head = 0  # bytes since the last request head ended
            self.heads = 0
            self.carry = b""  # the last bytes seen, to find a head's end split across two reads
            self.timer: asyncio.TimerHandle | None = None

        # ------------------------------------------------------------ accept
        def connection_made(self, transport: Any) -> None:  # asyncio's or uvloop's transport
            self.transport = transport
            peer = transport.get_extra_info("peername")
            self.address = str(peer[0]) if isinstance(peer, tuple) and peer else None
            self.key = client_key(self.address) if self.address is not None else None
            over = counts.total >= total
            capped = self.address is not None and self.address not in self.trusted
            if not over and capped and counts.by_address.get(self.key or "", 0) >= limits.per_address:
                over = True
            if over:
                transport.write(_reply(503, "Service Unavailable", "too many connections; try again later"))
                transport.close()
                return
            self.admitted = True
            counts.total += 1
            if capped and self.key is not None:
                self.counted_address = True
                counts.by_address[self.key] = counts.by_address.get(self.key, 0) + 1
            self._arm(limits.head_seconds)
            self.inner.connection_made(transport)

        def _release(self) -> None:
            if not self.admitted or self.released:
                return
            self.released = True
            counts.total -= 1
            if self.counted_address and self.key is not None:
                left = counts.by_address.get(self.key, 1) - 1
                if left > 0:
                    counts.by_address[self.key] = left
                else:
                    counts.by_address.pop(self.key, None)

        # ----------------------------------------------------------- timing
        def _arm(self, seconds: float) -> None:
            if self.timer is not None:
                self.timer.cancel()
            self.timer = asyncio.get_running_loop().call_later(seconds, self._too_slow)

        def _too_slow(self) -> None:
            # ``idle_seconds`` is longer than any answer takes (a pad follower waits 20 s at most), and
            # uvicorn closes an idle kept-alive connection after 5 s: a connection still here has been
            # sending a request head all this time.
            self.timer = None
            if self.handed_over or self.transport is None or self.transport.is_closing():
                return
            self._refuse(408, "Request Timeout", "the request did not arrive in time")

        def _refuse(self, status: int, reason: str, message: str) -> None:
            assert self.transport is not None
            log.info("connection from %s refused: %s", self.address, message)
            self.transport.write(_reply(status, reason, message))
            self.transport.close()

        # ------------------------------------------------------------ data
        def data_received(self, data: bytes) -> None:
            if not self.admitted or self.transport is None or self.transport.is_closing():
                return
            window = self.carry + data
            cap = limits.head_bytes if self.heads == 0 else limits.head_bytes + limits.body_bytes
            first = window.find(_HEAD_END)
            if first >= 0:
                # the head that ends here counts whole, however it was split between reads
                if self.since_head + first + len(_HEAD_END) - len(self.carry) > cap:
                    self._refuse(431, "Request Header Fields Too Large", f"request head over {limits.head_bytes} bytes")
                    return
                self.heads += 1
                self.since_head = len(window) - window.rfind(_HEAD_END) - len(_HEAD_END)
                self._arm(limits.idle_seconds)
                cap = limits.head_bytes + limits.body_bytes
            else:
                self.since_head += len(data)
            self.carry = window[-3:]
            if self.since_head > cap:
                self._refuse(431, "Request Header Fields Too Large", f"request head over {limits.head_bytes} bytes")
                return
            self.inner.data_received(data)
            self._check_handover()

        def _check_handover(self) -> None:
            """A WebSocket upgrade gives the connection to another protocol: stop timing it, but keep
            counting it until it closes."""
            assert self.transport is not None
            now = self.transport.get_protocol()
            if now is self or self.handed_over:
                return
            self.handed_over = True
            if self.timer is not None:
                self.timer.cancel()
                self.timer = None
            self.transport.set_protocol(_Tail(now, self._release))

        def eof_received(self) -> bool | None:
            if not self.admitted:
                return None
            result: bool | None = self.inner.eof_received()
            return result

        def pause_writing(self) -> None:
            if self.admitted:
                self.inner.pause_writing()

        def resume_writing(self) -> None:
            if self.admitted:
                self.inner.resume_writing()

        def connection_lost(self, exc: Exception | None) -> None:
            if self.timer is not None:
                self.timer.cancel()
                self.timer = None
            if not self.admitted:
                return
            try:
                self.inner.connection_lost(exc)
            finally:
                self._release()

        def shutdown(self) -> None:  # uvicorn asks its connections to finish when it stops
            shutdown = getattr(self.inner, "shutdown", None)
            if shutdown is not None:
                shutdown()

    GuardedProtocol.counts = counts  # type: ignore[attr-defined]
    return GuardedProtocol
