"""Per-address limits count an IPv6 client by its /64 (the network one subscriber is usually given, whose
addresses it may switch between at will), an IPv4 client by its address and an IPv4 address written as
IPv6 as that IPv4 address: in every count (connections at accept time, WebSockets and pad followers,
the HTTP write budget, tables created, missed events resent).  Clients are claimed with
``X-Forwarded-For`` through the loopback, which a LocalServer trusts as a proxy."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import connect

from corazones.server.addresses import client_key
from corazones.server.client import TableClient, play_to_end
from corazones.server.connections import Admission
from corazones.server.guard import ConnectionLimits, guarded_protocol
from corazones.server.local import LocalServer, ManualClock
from corazones.server.settings import Settings
from tests.helpers import HUMAN, PATIENCE, RANDOM, guest
from tests.test_server_proxies import create_as, post


@pytest.mark.parametrize(
    ("address", "key"),
    [
        ("203.0.113.9", "203.0.113.9"),
        ("2001:db8:1:2::1", "2001:db8:1:2::/64"),
        ("2001:DB8:1:2:ffff:ffff:ffff:ffff", "2001:db8:1:2::/64"),
        ("2001:db8:1:3::1", "2001:db8:1:3::/64"),
        ("::ffff:192.0.2.7", "192.0.2.7"),
        ("fe80::1%eth0", "fe80::/64"),
        ("?", "?"),
        ("testclient", "testclient"),
    ],
)
def test_the_client_an_address_counts_as(address: str, key: str) -> None:
    assert client_key(address) == key


def test_the_websockets_of_one_ipv6_slash_64_are_counted_together() -> None:
    admission = Admission(Settings(db_url="sqlite://", ws_per_address=2))
    assert admission.admit("2001:db8:1:2::1") and admission.admit("2001:db8:1:2::2")
    assert not admission.admit("2001:db8:1:2:9:9:9:9")  # a third address of the same /64
    assert admission.admit("2001:db8:1:3::1")  # another /64 is another client
    assert admission.admit("::ffff:192.0.2.7") and admission.admit("192.0.2.7")
    assert not admission.admit("192.0.2.7")
    admission.release("2001:db8:1:2::2")  # released by any address of the /64
    assert admission.admit("2001:db8:1:2::3")


class _Transport:
    def __init__(self, host: str) -> None:
        self.host = host
        self.written = b""
        self.closed = False

    def get_extra_info(self, name: str) -> Any:
        return (self.host, 40000, 0, 0) if name == "peername" else None

    def write(self, data: bytes) -> None:
        self.written += data

    def close(self) -> None:
        self.closed = True

    def is_closing(self) -> bool:
        return self.closed


class _Inner:
    def __init__(self, **_: Any) -> None:
        pass

    def connection_made(self, transport: Any) -> None:
        pass

    def connection_lost(self, exc: Exception | None) -> None:
        pass


class _Config:
    forwarded_allow_ips = ""
    proxy_headers = False


def test_the_connection_guard_caps_an_ipv6_slash_64_as_one_address() -> None:
    async def run() -> list[bool]:
        protocol = guarded_protocol(ConnectionLimits(per_address=2, total=100), _Inner)  # type: ignore[arg-type]
        refused = []
        made = []
        for host in ("2001:db8:1:2::1", "2001:db8:1:2::2", "2001:db8:1:2::3", "2001:db8:1:3::1", "2001:db8:1:3::2"):
            p: Any = protocol(_Config(), None, None)
            t = _Transport(host)
            p.connection_made(t)
            made.append(p)
            refused.append(t.closed and b"503" in t.written)
        assert protocol.counts.by_address == {"2001:db8:1:2::/64": 2, "2001:db8:1:3::/64": 2}  # type: ignore[attr-defined]
        made[0].connection_lost(None)  # one closes: its /64 may open another, from any of its addresses
        again = _Transport("2001:db8:1:2:ab::")
        protocol(_Config(), None, None).connection_made(again)
        refused.append(again.closed)
        for p in made:
            if p.timer is not None:
                p.timer.cancel()
        return refused

    assert asyncio.run(run()) == [False, False, True, False, False, False]


def _server(tmp_path: Path, clock: ManualClock, **limits: Any) -> LocalServer:
    return LocalServer(f"sqlite:///{tmp_path}/v6.db", bot_delay=0.0, clock=clock, **limits)


def test_the_tables_created_by_an_ipv6_slash_64_are_counted_together(tmp_path: Path) -> None:
    clock = ManualClock()
    with _server(tmp_path, clock, tables_per_address=1) as srv, clock.frozen():
        assert create_as(srv, "Ana", "2001:db8:5:5::1") == 200
        assert create_as(srv, "Bea", "2001:db8:5:5::2") == 429  # a new address of the same /64
        assert create_as(srv, "Cy", "2001:db8:5:6::1") == 200  # another /64
        assert create_as(srv, "Di", "::ffff:203.0.113.4") == 200
        assert create_as(srv, "Eve", "203.0.113.4") == 429  # the same IPv4 client


def test_the_writes_of_an_ipv6_slash_64_share_one_budget(tmp_path: Path) -> None:
    clock = ManualClock()
    with _server(tmp_path, clock, http_writes_per_minute=3) as srv, clock.frozen():
        for n, host in enumerate(("2001:db8:5:5::1", "2001:db8:5:5::2", "2001:db8:5:5:ffff::3")):
            assert post(srv, "/api/auth/guest", {"name": f"Eve{n}"}, host)[0] == 200
        status, body = post(srv, "/api/auth/guest", {"name": "Fay"}, "2001:db8:5:5:abcd::9")
        assert status == 429 and body["detail"]["code"] == "rate_limited", body
        assert post(srv, "/api/auth/guest", {"name": "Gil"}, "2001:db8:5:6::1")[0] == 200


def test_the_events_resent_to_an_ipv6_slash_64_share_one_budget(tmp_path: Path) -> None:
    """A spectator resuming from the start, again and again, each time from a new address of its /64."""
    clock = ManualClock()
    with _server(tmp_path, clock, missed_events_per_minute=40) as srv:
        api = guest(srv, "Hal")
        tid = api.create(preset="standard", seats=[HUMAN, RANDOM, RANDOM, RANDOM])["id"]
        c = TableClient(api, tid)
        play_to_end([c], stop=lambda: c.view is not None and c.view["tricks_played"] >= 5 and c.my_turn())
        watcher = guest(srv, "Ivy")

        def resume_from(host: str) -> dict[str, Any]:
            url = srv.base.replace("http", "ws") + f"/ws/tables/{tid}"
            with connect(url, additional_headers={"X-Forwarded-For": host}) as ws:
                ws.send(json.dumps({"type": "hello", "token": watcher.token, "last_seq": 0}))
                while True:
                    msg = json.loads(ws.recv(timeout=PATIENCE))
                    if msg["type"] == "snapshot":
                        return msg  # type: ignore[no-any-return]

        with clock.frozen():
            first = resume_from("2001:db8:9:9::1")
            assert first["missed_complete"] and first["seq"] > 20
            assert not resume_from("2001:db8:9:9::2")["missed_complete"]  # the /64's budget is spent
            assert resume_from("2001:db8:9:10::1")["missed_complete"]  # another /64's is not
        c.close()
