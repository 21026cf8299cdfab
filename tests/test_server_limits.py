"""Limits of the server on a real one (uvicorn, WebSockets, SQLite), with small limits set through the
app factory: the hello timeout, connections per table and per client address, token expiry and
renewal, the HTTP write rate counted per player; and the protocol's promises that docs/protocol.md
states (views only on the last event of a batch, the commitment's formula)."""

from __future__ import annotations

import contextlib
import hashlib
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from itsdangerous import TimestampSigner, URLSafeTimedSerializer
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from corazones.core.commitment import PREFIX, commit
from corazones.server.auth import _SALT
from corazones.server.client import Api, ApiError, TableClient, play_to_end
from corazones.server.local import LocalServer, ManualClock
from tests.helpers import HUMAN, PATIENCE, RANDOM, guest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalServer]:
    db = tmp_path_factory.mktemp("limits") / "corazones.db"
    with LocalServer(
        f"sqlite:///{db}",
        bot_delay=0.0,
        table_connections=2,
        ws_per_address=3,
        http_writes_per_minute=10,
        clock=ManualClock(),
    ) as srv:
        yield srv


def refused(api: Api, table: str) -> dict[str, Any]:
    """Connect, say hello, and expect an error then a close with code 1008; the error."""
    with connect(api.ws_url(table), open_timeout=PATIENCE) as ws:
        with contextlib.suppress(ConnectionClosed):  # a refusal at the door may close before the hello
            ws.send(json.dumps({"type": "hello", "token": api.token}))
        error = json.loads(ws.recv(timeout=PATIENCE))
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=PATIENCE)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
    return error  # type: ignore[no-any-return]


def test_a_connection_that_never_says_hello_is_closed(tmp_path: Path) -> None:
    # A server of its own: with half a second to say hello, every connection of the other tests would be
    # racing the client's own thread on a loaded machine.
    with LocalServer(f"sqlite:///{tmp_path}/hello.db", bot_delay=0.0, hello_timeout=0.5) as server:
        api = guest(server, "Quiet")
        table = api.create(preset="quick", seats=[HUMAN, RANDOM, RANDOM, RANDOM])["id"]
        with connect(api.ws_url(table), open_timeout=PATIENCE) as ws:
            error = json.loads(ws.recv(timeout=PATIENCE))  # nothing sent: the server speaks first, after the timeout
            assert error["type"] == "error" and error["code"] == "auth" and "hello" in error["message"]
            with pytest.raises(ConnectionClosed) as closed:
                ws.recv(timeout=PATIENCE)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008


def test_connections_per_table_and_per_address_are_capped(server: LocalServer) -> None:
    ana, bea = guest(server, "Ana"), guest(server, "Bea")
    first = ana.create(preset="quick", seats=[HUMAN, RANDOM, RANDOM, RANDOM])["id"]
    second = bea.create(preset="quick", seats=[HUMAN, RANDOM, RANDOM, RANDOM])["id"]

    # The table takes two connections (the limit set here; 200 by default), the third is refused.
    a1, a2 = TableClient(ana, first), TableClient(bea, first)
    assert a1.view is not None and a2.role == "spectator"
    welcome = next(m for m in a1.log if m["type"] == "welcome")
    assert welcome["limits"]["table_connections"] == 2 and welcome["limits"]["ws_per_address"] == 3
    error = refused(bea, first)
    assert error["code"] == "rate_limited" and "too many connections" in error["message"]

    # The address holds two; a third is allowed (another table), a fourth is not, whatever the table.
    b1 = TableClient(bea, second)
    error = refused(ana, second)
    assert error["code"] == "rate_limited" and "from your address: at most 3" in error["message"]

    # Closing one frees its place at once.
    a2.close()
    deadline = time.monotonic() + PATIENCE
    while sum(server.hub.admission.addresses.values()) > 2:
        assert time.monotonic() < deadline, "the closed connection was never counted off"
        time.sleep(0.05)
    b2 = TableClient(ana, second)
    assert b2.role == "spectator"
    for c in (a1, b1, b2):
        c.close()


def old_token(server: LocalServer, player_id: int, age_days: float) -> str:
    """A token for ``player_id`` signed by the server's own secret, issued ``age_days`` ago."""
    secret = server.hub.store.secret("token", lambda: "unused")
    issued = int(time.time() - age_days * 86400)

    class Then(TimestampSigner):
        def get_timestamp(self) -> int:
            return issued

    return URLSafeTimedSerializer(secret, salt=_SALT, signer=Then).dumps({"p": player_id})


def test_tokens_expire_and_are_renewed(server: LocalServer) -> None:
    api = guest(server, "Old")
    me = api.request("GET", "/api/me")
    table = api.create(preset="quick", seats=[HUMAN, RANDOM, RANDOM, RANDOM])["id"]

    recent = Api(server.base, old_token(server, me["id"], 29))
    assert recent.request("GET", "/api/me")["id"] == me["id"]
    fresh = recent.request("POST", "/api/auth/refresh", {})
    assert fresh["player"]["id"] == me["id"] and fresh["token"] != recent.token
    assert Api(server.base, fresh["token"]).request("GET", "/api/me")["id"] == me["id"]

    stale = Api(server.base, old_token(server, me["id"], 31))
    for method, path in (("GET", "/api/me"), ("POST", "/api/auth/refresh")):
        with pytest.raises(ApiError) as e:
            stale.request(method, path, {} if method == "POST" else None)
        assert e.value.status == 401
    with connect(stale.ws_url(table), open_timeout=PATIENCE) as ws:
        ws.send(json.dumps({"type": "hello", "token": stale.token}))
        error = json.loads(ws.recv(timeout=PATIENCE))
    assert error["code"] == "auth"


def test_the_write_rate_is_counted_per_player(server: LocalServer) -> None:
    # Every test here comes from 127.0.0.1: were writes counted per address, they would share 10 a minute.
    # The rate limits' clock stands still meanwhile, so the budget is exactly 10 however slowly they are sent.
    clock = server.settings.clock
    assert isinstance(clock, ManualClock)
    ana, bea = guest(server, "Rate A"), guest(server, "Rate B")
    with clock.frozen():
        for _ in range(10):
            ana.request("POST", "/api/auth/refresh", {})
        with pytest.raises(ApiError) as e:
            ana.request("POST", "/api/auth/refresh", {})
        assert e.value.status == 429 and e.value.detail["code"] == "rate_limited"
        # Said in words with its limit, and with the reason the web app translates.
        assert e.value.detail["message"] == "At most 10 writes a minute: wait a little and try again."
        assert e.value.detail["reason"] == {
            "template": "At most {n} writes a minute: wait a little and try again.",
            "params": {"n": 10},
        }
        assert bea.request("POST", "/api/auth/refresh", {})["player"]["name"] == "Rate B"
        clock.advance(9.0)  # ten a minute: one write and a half
        ana.request("POST", "/api/auth/refresh", {})
        with pytest.raises(ApiError) as e:
            ana.request("POST", "/api/auth/refresh", {})
        assert e.value.status == 429


def test_the_manual_clock_stands_still_while_frozen_and_never_goes_back() -> None:
    clock = ManualClock()
    before = clock()
    with clock.frozen():
        stood = clock()
        assert stood >= before
        time.sleep(0.01)
        assert clock() == stood
        clock.advance(5.0)
        assert clock() == stood + 5.0
        with pytest.raises(RuntimeError), clock.frozen():
            pass
    assert clock() >= stood + 5.0  # runs on from where it stood
    clock.advance(60.0)
    assert clock() >= stood + 65.0


def test_only_the_last_event_of_a_batch_carries_a_view(server: LocalServer) -> None:
    api = guest(server, "Batch")
    table = api.create(preset="quick", seats=[HUMAN, RANDOM, RANDOM, RANDOM])["id"]
    client = TableClient(api, table)
    play_to_end([client])
    kinds = [(m["event"]["kind"], m["view"] is not None) for m in client.events]
    for i, (kind, has_view) in enumerate(kinds):
        nxt = kinds[i + 1][0] if i + 1 < len(kinds) else None
        if kind in ("hand_end", "game_over", "game_start", "seat", "chat"):
            assert not has_view, (i, kind)
        elif kind == "action":
            assert has_view == (nxt != "hand_end"), (i, kind, nxt)  # the hand's last play comes with more
        elif kind == "hand_start":
            assert has_view, (i, kind)
        elif kind == "table":  # the start's batch begins with it, the end's batch ends with it
            assert has_view == (i > 0 and kinds[i - 1][0] == "game_over"), (i, kinds[i - 1 : i + 2])
    assert [k for k, _ in kinds[-4:]] == ["action", "hand_end", "game_over", "table"]
    client.close()


def test_the_documented_commitment_is_the_one_computed() -> None:
    seed = "any seed"
    assert commit(seed) == hashlib.sha256(f"corazones-seed-v1:{seed}".encode()).hexdigest()
    doc = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
    assert f'SHA-256("{PREFIX}" + seed)' in doc
    assert "SHA-256(seed as UTF-8)" not in doc


def test_the_events_resent_to_one_address_are_budgeted(tmp_path: Path) -> None:
    """Resuming from the start again and again gets the snapshot alone once the address's budget is
    spent (``missed_complete`` false), and the events again when it has refilled."""
    clock = ManualClock()
    with LocalServer(f"sqlite:///{tmp_path}/resent.db", bot_delay=0.0, missed_events_per_minute=40, clock=clock) as srv:
        api = guest(srv, "Ana")
        tid = api.create(preset="standard", seats=[HUMAN, RANDOM, RANDOM, RANDOM])["id"]
        c = TableClient(api, tid)
        play_to_end([c], stop=lambda: c.view is not None and c.view["tricks_played"] >= 5 and c.my_turn())

        def resume() -> dict[str, Any]:
            c.send({"type": "resume", "last_seq": 0})
            return c.wait(lambda m: m["type"] == "snapshot", timeout=PATIENCE)

        with clock.frozen():
            first = resume()
            assert first["missed_complete"] and len(first["missed"]) == first["seq"] > 20
            second = resume()  # more than the 40 a minute now
            assert not second["missed_complete"] and second["missed"] == []
            assert second["view"] == first["view"]  # the state itself is still sent
            clock.advance(60)
            third = resume()
            assert third["missed_complete"] and len(third["missed"]) == third["seq"]
        c.close()
