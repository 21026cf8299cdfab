"""Which X-Forwarded-For the server believes: none unless the operator names a proxy, so that nothing
on the server's machine (or a local proxy that passes a client's own header on) can claim another
client's address and escape the per-address limits; and under ``*`` no address is the operator's."""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner
from websockets.sync.client import connect

from corazones.cli.main import app
from corazones.server.local import LocalServer
from corazones.server.settings import Settings
from tests.helpers import HUMAN, PATIENCE, RANDOM


def post(server: LocalServer, path: str, body: Any, address: str, token: str | None = None) -> tuple[int, Any]:
    """POST ``body`` claiming to be client ``address`` (``X-Forwarded-For``): the status and the JSON answer."""
    headers = {"Content-Type": "application/json", "X-Forwarded-For": address}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    req = urllib.request.Request(server.base + path, json.dumps(body).encode(), headers, method="POST")
    try:
        with urllib.request.urlopen(req, timeout=30) as resp:
            return resp.status, json.loads(resp.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def wait_for(check: Any) -> None:
    end = time.monotonic() + PATIENCE
    while not check():
        assert time.monotonic() < end, "timed out"
        time.sleep(0.02)


def create_as(server: LocalServer, name: str, address: str) -> int:
    """A new guest makes a table, both requests claiming ``address``: the table's status code."""
    status, made = post(server, "/api/auth/guest", {"name": name}, address)
    assert status == 200, made
    body = {"preset": "standard", "seats": [HUMAN, RANDOM, RANDOM, RANDOM]}
    return post(server, "/api/tables", body, address, made["token"])[0]


def test_serve_trusts_no_proxy_unless_told(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``corazones serve`` without --forwarded-allow-ips: uvicorn is told to believe no X-Forwarded-For
    (left to itself it would trust the loopback); the flag, or the variable, names the proxies."""
    monkeypatch.delenv("FORWARDED_ALLOW_IPS", raising=False)
    runs: list[dict[str, Any]] = []
    monkeypatch.setattr("uvicorn.run", lambda app, **kw: runs.append(kw))
    made: list[Settings] = []
    monkeypatch.setattr("corazones.server.app.create_app", lambda settings: made.append(settings) or object())
    db = str(tmp_path / "c.db")
    for args, env, proxies in (
        ((), {}, ""),
        (("--forwarded-allow-ips", "127.0.0.1"), {}, "127.0.0.1"),
        ((), {"FORWARDED_ALLOW_IPS": "10.0.0.2"}, "10.0.0.2"),
    ):
        result = CliRunner().invoke(app, ["serve", "--port", "0", "--db", db, *args], env=env)
        assert result.exit_code == 0, result.output
        run = runs[-1]
        assert run["forwarded_allow_ips"] == proxies and run["proxy_headers"] is bool(proxies), args
        assert made[-1].trusted("127.0.0.1") is (proxies == "127.0.0.1")


def test_behind_no_proxy_a_claimed_address_is_not_believed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """As serve runs by default: two guests from this machine claiming two addresses are one address,
    for the tables it may create and for its open connections."""
    monkeypatch.delenv("FORWARDED_ALLOW_IPS", raising=False)
    with LocalServer(
        f"sqlite:///{tmp_path}/c.db", forwarded_allow_ips=None, bot_delay=0.0, tables_per_address=1
    ) as srv:
        assert create_as(srv, "Ana", "203.0.113.1") == 200
        assert create_as(srv, "Bea", "203.0.113.2") == 429
        url = srv.base.replace("http", "ws") + "/ws/tables/nope"
        with connect(url, additional_headers={"X-Forwarded-For": "203.0.113.3"}):
            wait_for(lambda: srv.hub.admission.addresses == {"127.0.0.1": 1})


def test_trusting_everyone_exempts_nobody_from_the_table_cap(tmp_path: Path) -> None:
    """Under ``--forwarded-allow-ips '*'`` every address is a "proxy": none of them may create tables
    without limit (before, every client was the operator's and uncounted)."""
    with LocalServer(f"sqlite:///{tmp_path}/c.db", forwarded_allow_ips="*", bot_delay=0.0, tables_per_address=1) as srv:
        assert create_as(srv, "Ana", "203.0.113.9") == 200
        assert create_as(srv, "Bea", "203.0.113.9") == 429
        assert create_as(srv, "Cy", "203.0.113.10") == 200  # another client is believed, and counted apart


def test_a_named_proxy_is_still_the_operators_own(tmp_path: Path) -> None:
    """A request straight from a proxy named with --forwarded-allow-ips (no header: not forwarded) is not
    counted; the clients it forwards are, each on their own."""
    with LocalServer(
        f"sqlite:///{tmp_path}/c.db", forwarded_allow_ips="127.0.0.1", bot_delay=0.0, tables_per_address=1
    ) as srv:
        assert create_as(srv, "Ana", "203.0.113.1") == 200
        assert create_as(srv, "Bea", "203.0.113.1") == 429
        assert create_as(srv, "Cy", "127.0.0.1") == 200
        assert create_as(srv, "Di", "127.0.0.1") == 200
