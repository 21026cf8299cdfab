"""Hostile clients: every refusal is an error reply, the game goes on for everyone, nothing hidden leaks.

One two-human table is attacked from every side (a seated player, a
spectator, a stranger with a forged token), then played to the end; the
hidden-card check of test_server_protocol then runs over every message each
connection received, the attackers' included.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from corazones.server.client import Api, ApiError, TableClient, drain, play_to_end
from corazones.server.local import LocalServer, ManualClock
from corazones.server.schema import LIMITS, ErrorReply
from tests.helpers import HUMAN, PATIENCE, RANDOM, guest
from tests.test_server_protocol import assert_no_hidden_cards


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalServer]:
    db = tmp_path_factory.mktemp("hostile") / "corazones.db"
    with LocalServer(f"sqlite:///{db}", grace=30.0, bot_delay=0.0, clock=ManualClock()) as srv:
        yield srv


def clock(server: LocalServer) -> ManualClock:
    """The clock of the server's rate limits: tests that count a budget freeze it, so the count does not
    depend on how fast this machine sends."""
    found = server.settings.clock
    assert isinstance(found, ManualClock)
    return found


def error_for(c: TableClient, msg: Any) -> dict[str, Any]:
    """Send ``msg`` and return the error reply it earns (a well-formed ``ErrorReply``)."""
    drain(c)
    c.send(msg)
    try:
        reply = c.wait(lambda m: m["type"] == "error", timeout=PATIENCE)
    except TimeoutError:
        raise AssertionError(f"no error reply to {str(msg)[:80]}; last messages {c.log[-3:]}") from None
    ErrorReply.model_validate(reply)
    assert reply["message"] and "Traceback" not in reply["message"]
    return reply


@pytest.fixture
def table(server: LocalServer) -> Iterator[tuple[Api, Api, TableClient, TableClient, str]]:
    ana, bea = guest(server, "Ana"), guest(server, "Bea")
    info = ana.create(preset="quick", seats=[HUMAN, HUMAN, RANDOM, RANDOM], takeover_level="random")
    bea.join(info["id"])
    a, b = TableClient(ana, info["id"]), TableClient(bea, info["id"])
    yield ana, bea, a, b, info["id"]
    a.close()
    b.close()


def test_each_attack_is_refused_and_the_game_goes_on(
    server: LocalServer, table: tuple[Api, Api, TableClient, TableClient, str]
) -> None:
    ana, _bea, a, b, tid = table
    assert a.view["decision"] == "pass"
    hand = a.view["hand"]
    not_mine = next(c for c in b.view["hand"])

    # --- malformed, oversized, unknown, binary
    assert error_for(a, "not json {")["code"] == "malformed"
    assert error_for(a, "[1, 2, 3]")["code"] == "malformed"
    assert error_for(a, {"type": "teleport"})["code"] == "unknown_type"
    assert error_for(a, {"no": "type"})["code"] == "unknown_type"
    assert error_for(a, {"type": "act"})["code"] == "malformed"
    assert error_for(a, {"type": "act", "action": {"play": "QS", "bid": 3}})["code"] == "malformed"
    assert error_for(a, {"type": "act", "action": {"play": "QS"}, "extra": 1})["code"] == "malformed"
    assert error_for(a, {"type": "act", "action": {"pass": hand[:3], "seat": "0"}})["code"] == "malformed"
    assert error_for(a, {"type": "chat", "text": "x" * (LIMITS["chat_chars"] + 1)})["code"] == "malformed"
    assert error_for(a, {"type": "chat", "text": "\x1b[2J\u202e"})["code"] == "malformed"  # nothing left to say
    assert error_for(a, json.dumps({"type": "chat", "text": "y" * 5000}))["code"] == "too_large"
    assert error_for(a, b"\x00\x01binary")["code"] == "malformed"
    assert error_for(a, {"type": "hello", "token": ana.token})["code"] == "malformed"
    assert error_for(a, "9" * 3000)["code"] in ("malformed",)  # a huge number is not a message

    # --- not a card, not held, for another seat, twice, out of turn
    assert error_for(a, {"type": "act", "action": {"pass": ["ZZ", "QS", "AH"]}})["code"] == "bad_action"
    bad = error_for(a, {"type": "act", "action": {"pass": [*hand[:2], not_mine]}, "ref": "r1"})
    assert bad["code"] == "illegal" and bad["ref"] == "r1"
    assert error_for(a, {"type": "act", "action": {"seat": 1, "pass": b.view["hand"][:3]}})["code"] == "not_your_seat"
    assert error_for(a, {"type": "act", "action": {"play": hand[0]}})["code"] == "illegal"  # a play during the pass
    a.act({"pass": hand[:3]})
    a.wait(lambda m: m["type"] == "event" and m["event"]["kind"] == "action" and m["event"]["action"]["seat"] == 0)
    assert error_for(a, {"type": "act", "action": {"pass": hand[3:6]}})["code"] == "not_your_turn"  # twice
    b.act({"pass": b.view["hand"][:3]})
    b.wait(lambda m: m["type"] == "event" and m["event"]["kind"] == "action" and m["event"]["action"]["seat"] == 1)
    # play until Bea (a human, so the table waits) must act, then Ana plays out of turn
    play_to_end([a, b], stop=lambda: b.my_turn() and not a.my_turn() and a.view["to_act"] == [1] and a.view["hand"])
    clock(server).advance(2.0)  # the message budget refills (the attacks above spent most of it)
    assert error_for(a, {"type": "act", "action": {"play": a.view["hand"][0]}})["code"] == "not_your_turn"
    assert error_for(a, {"type": "hint", "level": "grandmaster"})["code"] == "malformed"

    # --- a spectator and a stranger
    cy = guest(server, "Cy")
    spy = TableClient(cy, tid)
    assert error_for(spy, {"type": "act", "action": {"seat": 0, "play": "2C"}})["code"] == "not_seated"
    assert error_for(spy, {"type": "hint"})["code"] == "not_seated"
    assert error_for(spy, {"type": "sit", "seat": 0})["code"] == "seat_taken"
    assert error_for(spy, {"type": "sit", "seat": 2})["code"] == "seat_taken"  # a bot's seat from the start

    with connect(ana.ws_url(tid), compression=None) as ws:  # a forged token is refused and the socket closed
        ws.send(json.dumps({"type": "hello", "token": ana.token[:-3] + "abc"}))  # type: ignore[index]
        reply = json.loads(ws.recv(timeout=PATIENCE))
        assert reply["type"] == "error" and reply["code"] == "auth"
        with pytest.raises(ConnectionClosed):
            ws.recv(timeout=PATIENCE)
    with connect(ana.ws_url("no-such-table"), compression=None) as ws:
        ws.send(json.dumps({"type": "hello", "token": ana.token}))
        assert json.loads(ws.recv(timeout=PATIENCE))["code"] == "not_found"

    # --- the game goes on and ends for everyone, and no message carried a hidden card
    play_to_end([a, b], timeout=120)
    spy.wait(lambda m: m["type"] == "event" and m["event"].get("status") == "finished")
    assert spy.game_over()
    assert_no_hidden_cards(ana, tid, [a, b, spy])
    spy.close()


def test_flooding_is_rate_limited_then_closed(
    server: LocalServer, table: tuple[Api, Api, TableClient, TableClient, str]
) -> None:
    _ana, _bea, a, b, _tid = table
    burst, extra = LIMITS["ws_burst"], 30
    with clock(server).frozen():  # the budgets refill only by advance(), however slowly this machine sends
        for i in range(burst + extra):
            a.send({"type": "ping", "t": i})
        replies = [a.wait(lambda m: m["type"] in ("pong", "error")) for _ in range(burst + extra)]
        assert [r["type"] for r in replies] == ["pong"] * burst + ["error"] * extra  # the burst, then refusals
        assert [r["t"] for r in replies[:burst]] == list(range(burst))
        assert {r["code"] for r in replies[burst:]} == {"rate_limited"}
        clock(server).advance(0.5)  # five messages' worth at ten a second
        a.send({"type": "ping", "t": 4242})
        assert a.wait(lambda m: m["type"] == "pong")["t"] == 4242  # the limit refills
        # chat has its own, slower limit: a burst of 5, whatever the message budget holds
        clock(server).advance(1.0)
        for i in range(8):
            a.send({"type": "chat", "text": f"spam {i}"})
        chat = [a.wait(lambda m: m["type"] == "error" or (m["type"] == "event" and m["event"]["kind"] == "chat"))
                for _ in range(8)]  # fmt: skip
        assert [m["type"] for m in chat] == ["event"] * 5 + ["error"] * 3
        assert {m["code"] for m in chat if m["type"] == "error"} == {"rate_limited"}
        # the other player is not affected
        b.send({"type": "ping", "t": 1})
        assert b.wait(lambda m: m["type"] == "pong")["t"] == 1
        # an endless flood closes the connection
        with pytest.raises(ConnectionClosed):
            for _ in range(LIMITS["ws_flood_close"] + LIMITS["ws_burst"] + 50):
                a.send("{bad")
            while True:
                a.recv(timeout=PATIENCE)
        b.send({"type": "ping", "t": 2})
        assert b.wait(lambda m: m["type"] == "pong")["t"] == 2


def test_huge_frame_closes_the_connection(
    server: LocalServer, table: tuple[Api, Api, TableClient, TableClient, str]
) -> None:
    _ana, _bea, a, b, _tid = table
    with pytest.raises(ConnectionClosed):
        a.send("x" * (LIMITS["ws_frame_hard_bytes"] + 10))
        while True:
            a.recv(timeout=PATIENCE)
    b.send({"type": "ping", "t": 3})
    assert b.wait(lambda m: m["type"] == "pong")["t"] == 3


def test_http_limits(server: LocalServer) -> None:
    """Body size, validation, auth, unknown tables, the open-table cap, and the write budget, counted with
    the rate limits' clock stopped: the number of writes before the first 429 is the budget, not a race
    against how long this machine takes to send them."""
    with clock(server).frozen():
        api = guest(server, "Dee")
        with pytest.raises(ApiError) as e:
            api.request("POST", "/api/tables", {"preset": "standard", "name": "x" * (LIMITS["http_body_bytes"] + 1)})
        assert e.value.status == 413
        with pytest.raises(ApiError) as e:
            api.request("POST", "/api/tables", {"preset": "standard", "my_seat": 99})
        assert e.value.status == 422
        with pytest.raises(ApiError) as e:
            Api(server.base).request("POST", "/api/tables", {"preset": "standard"})
        assert e.value.status == 401
        with pytest.raises(ApiError) as e:
            api.request("POST", "/api/tables/nope/join", {"seat": 0})
        assert e.value.status == 404
        created = [api.create(preset="quick") for _ in range(LIMITS["open_tables_per_player"])]
        assert len(created) == LIMITS["open_tables_per_player"]
        with pytest.raises(ApiError) as e:
            api.create(preset="quick")
        assert e.value.status == 429 and "unfinished tables" in e.value.detail["message"]
        # As the refusal says, leaving one frees its place (a table she left no longer waits for her).
        assert "leave it" in e.value.detail["message"]
        api.request("POST", f"/api/tables/{created[0]['id']}/leave", {})
        api.create(preset="quick")
        # Dee has spent the 413, 422 and 404 above, the tables, the refused one, the leave and the table
        # after it (the 401 carried no token, so it counted against the address).  With the clock standing
        # still, exactly the rest of the budget passes and every write after it is refused.
        spent = 3 + LIMITS["open_tables_per_player"] + 1 + 2
        left = LIMITS["http_writes_per_minute"] - spent
        statuses = []
        for _ in range(left + 5):
            try:
                api.request("POST", "/api/tables/nope/leave", {})
            except ApiError as err:
                statuses.append((err.status, err.detail["code"]))
        assert statuses == [(404, "not_found")] * left + [(429, "rate_limited")] * 5
