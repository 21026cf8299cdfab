"""Limits at accept time, on a real uvicorn server with real sockets: a request head that never ends
(431), unfinished requests that never time out (a slowloris: 408), connections per client address
and in all (503), while the rest of the server (``/healthz``, a table's WebSocket) keeps working.

The attackers connect from other loopback addresses (127.0.0.2, ...), so the test's own requests
from 127.0.0.1 are another client, as on the internet.
"""

from __future__ import annotations

import contextlib
import json
import socket
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from corazones.server.client import Api, TableClient
from corazones.server.guard import ConnectionLimits
from corazones.server.local import LocalServer
from tests.helpers import HUMAN, PATIENCE, RANDOM

LIMITS = ConnectionLimits(per_address=5, total=40, head_bytes=8192, head_seconds=1.5, idle_seconds=3.0)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalServer]:
    db = tmp_path_factory.mktemp("connections") / "corazones.db"
    # No proxy is trusted: every address is a client of its own.
    with LocalServer(f"sqlite:///{db}", bot_delay=0.0, connections=LIMITS, forwarded_allow_ips="192.0.2.1") as srv:
        yield srv


def open_from(server: LocalServer, source: str) -> socket.socket:
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.bind((source, 0))
    s.settimeout(PATIENCE)
    s.connect(("127.0.0.1", server.port))
    return s


def answer(s: socket.socket, timeout: float = PATIENCE) -> bytes:
    """What the server sends until it closes the connection (b"" if it closes without a word)."""
    s.settimeout(timeout)
    out = b""
    with contextlib.suppress(ConnectionResetError):
        while True:
            chunk = s.recv(65536)
            if not chunk:
                break
            out += chunk
    return out


def healthy(server: LocalServer) -> bool:
    with urllib.request.urlopen(server.base + "/healthz", timeout=PATIENCE) as resp:
        return resp.status == 200 and json.loads(resp.read())["ok"] is True


def test_a_request_head_that_never_ends_is_refused_with_431(server: LocalServer) -> None:
    s = open_from(server, "127.0.0.2")
    s.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Long: ")
    with contextlib.suppress(BrokenPipeError, ConnectionResetError):
        for _ in range(200):  # 1.6 MB of one header line, if the server read it all
            s.sendall(b"a" * 8192)
    reply = answer(s)
    s.close()
    assert reply.startswith(b"HTTP/1.1 431"), reply[:80]
    # nor may a long head through whole in one write, or split so that its end comes with the rest
    head = b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 9000 + b"\r\nConnection: close\r\n\r\n"
    for parts in ([head], [head[:8000], head[8000:]]):
        s = open_from(server, "127.0.0.2")
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            for part in parts:
                s.sendall(part)
                time.sleep(0.05)
        reply = answer(s)
        s.close()
        assert reply.startswith(b"HTTP/1.1 431"), (len(parts), reply[:80])
    # a head within the limit is fine
    req = urllib.request.Request(server.base + "/healthz", headers={"X-Fine": "b" * 4000})
    with urllib.request.urlopen(req, timeout=PATIENCE) as resp:
        assert resp.status == 200


def test_slowloris_is_capped_per_address_and_timed_out(server: LocalServer) -> None:
    api = Api(server.base)
    api.guest("Ana")
    table = api.create(preset="standard", seats=[HUMAN, RANDOM, RANDOM, RANDOM])["id"]
    player = TableClient(api, table)  # a real player, from another address, before the attack

    held = [open_from(server, "127.0.0.2") for _ in range(LIMITS.per_address)]
    for s in held:
        s.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")  # and never the blank line
    extra = [open_from(server, "127.0.0.2") for _ in range(3)]
    for s in extra:  # over the cap: answered 503 and closed at once
        assert answer(s).startswith(b"HTTP/1.1 503")
        s.close()
    assert healthy(server)  # another address is served meanwhile
    player.send({"type": "ping", "t": 7})
    assert player.wait(lambda m: m["type"] == "pong")["t"] == 7

    started = time.monotonic()
    for s in held:  # the unfinished requests are timed out
        assert answer(s).startswith(b"HTTP/1.1 408")
        s.close()
    assert time.monotonic() - started < LIMITS.head_seconds + PATIENCE / 2
    # the address may connect again once its connections are gone
    again = open_from(server, "127.0.0.2")
    again.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    assert answer(again).startswith(b"HTTP/1.1 200")
    again.close()

    # the WebSocket, handed over by uvicorn long ago, is not timed out as an unfinished request
    time.sleep(LIMITS.idle_seconds + 0.5)
    player.send({"type": "ping", "t": 8})
    assert player.wait(lambda m: m["type"] == "pong")["t"] == 8
    player.close()


def test_a_trickled_second_request_on_a_kept_alive_connection_times_out(server: LocalServer) -> None:
    s = open_from(server, "127.0.0.6")
    s.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
    s.settimeout(PATIENCE)
    first = s.recv(65536)
    assert first.startswith(b"HTTP/1.1 200")
    s.sendall(b"GET /healthz HTTP/1.1\r\n")
    started = time.monotonic()
    s.settimeout(0.5)
    reply = b""
    while time.monotonic() - started < LIMITS.idle_seconds + PATIENCE / 4:  # a byte at a time, never the end
        try:
            s.sendall(b"X")
            reply = s.recv(65536)
            if not reply:
                break
            reply += answer(s, timeout=5.0)
            break
        except TimeoutError:
            continue
        except (BrokenPipeError, ConnectionResetError):
            break
    s.close()
    assert reply.startswith(b"HTTP/1.1 408") or reply == b"", reply[:80]
    assert LIMITS.idle_seconds - 0.5 < time.monotonic() - started < LIMITS.idle_seconds + PATIENCE / 4


def test_connections_in_all_are_capped_below_the_file_descriptor_limit(tmp_path: Path) -> None:
    limits = ConnectionLimits(per_address=5, total=8, head_seconds=30.0)
    with LocalServer(
        f"sqlite:///{tmp_path}/total.db", bot_delay=0.0, connections=limits, forwarded_allow_ips="192.0.2.1"
    ) as srv:
        held = [open_from(srv, f"127.0.0.{3 + i // 4}") for i in range(8)]  # 4 each from two addresses
        for s in held:
            s.sendall(b"GET / HTTP/1.1\r\n")
        late = open_from(srv, "127.0.0.9")
        assert answer(late).startswith(b"HTTP/1.1 503")
        late.close()
        for s in held:
            s.close()
        deadline = time.monotonic() + PATIENCE
        while True:  # the server hears the closes and has room again
            probe = open_from(srv, "127.0.0.9")
            probe.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            got = answer(probe)
            probe.close()
            if got.startswith(b"HTTP/1.1 200") or time.monotonic() > deadline:
                break
            time.sleep(0.1)
        assert got.startswith(b"HTTP/1.1 200")


def test_a_trusted_proxy_is_not_capped_per_address(tmp_path: Path) -> None:
    limits = ConnectionLimits(per_address=2, total=50)
    with LocalServer(
        f"sqlite:///{tmp_path}/proxy.db", bot_delay=0.0, connections=limits, forwarded_allow_ips="127.0.0.7"
    ) as srv:
        held = [open_from(srv, "127.0.0.7") for _ in range(6)]
        for s in held:
            s.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        assert all(answer(s).startswith(b"HTTP/1.1 200") for s in held)
        for s in held:
            s.close()
