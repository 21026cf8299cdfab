"""Hostile values a client author may send, each refused with a clear answer (never a 500, a dropped
connection or a reply that is not JSON): huge integers in paths and queries, non-finite numbers,
refusals that must echo the ``ref`` of the act they refuse, and names that impersonate a bot, a seat
or a card."""

from __future__ import annotations

import http.client
import json
from collections.abc import Iterator

import pytest

from corazones.server.auth import clean_name, impersonates
from corazones.server.client import Api, ApiError, TableClient, drain
from corazones.server.local import LocalServer, ManualClock
from corazones.server.schema import LIMITS
from tests.helpers import HUMAN, PATIENCE, RANDOM, guest

HUGE = "9" * 30


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalServer]:
    db = tmp_path_factory.mktemp("inputs") / "corazones.db"
    with LocalServer(f"sqlite:///{db}", grace=60.0, bot_delay=0.0, clock=ManualClock()) as srv:
        yield srv


def raw_request(
    server: LocalServer, method: str, path: str, body: bytes | None = None, key: str | None = None
) -> tuple[int, bytes]:
    """One request on a fresh connection: the status and body (a dropped connection fails the test)."""
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=PATIENCE)
    try:
        headers = {"Content-Type": "application/json"} if body is not None else {}
        if key is not None:
            headers["X-Pad-Key"] = key
        conn.request(method, path, body=body, headers=headers)
        resp = conn.getresponse()
        return resp.status, resp.read()
    finally:
        conn.close()


@pytest.mark.parametrize(
    "path",
    [
        f"/api/games?player={HUGE}",
        f"/api/games?player=-{HUGE}",
        f"/api/players/{HUGE}/stats",
        f"/api/players/-{HUGE}/stats",
        "/api/players/9223372036854775808/stats",
        "/api/players/0/stats",
    ],
)
def test_huge_integers_in_paths_and_queries_are_refused_not_crashed(server: LocalServer, path: str) -> None:
    status, body = raw_request(server, "GET", path)
    assert status in (404, 422), (status, body[:200])
    assert b"Traceback" not in body and json.loads(body)["detail"]


def test_huge_hand_number_of_a_pad_is_refused(server: LocalServer) -> None:
    status, body = raw_request(
        server, "POST", "/api/pads", json.dumps({"preset": "standard", "names": ["A", "B", "C", "D"]}).encode()
    )
    assert status == 201, body
    pad, key = json.loads(body)["id"], json.loads(body)["key"]
    status, body = raw_request(server, "DELETE", f"/api/pads/{pad}/hands/{HUGE}", key=key)
    assert status in (404, 422), (status, body[:200])


def test_non_finite_numbers_are_refused_everywhere(server: LocalServer) -> None:
    ana = guest(server, "Ana")
    tid = ana.create(preset="quick", seats=[HUMAN, RANDOM, RANDOM, RANDOM])["id"]
    a = TableClient(ana, tid)
    for raw in ('{"type":"ping","t":NaN}', '{"type":"ping","t":Infinity}', '{"type":"ping","t":-Infinity}'):
        drain(a)
        a.send(raw)
        reply = a.wait(lambda m: m["type"] in ("pong", "error"), timeout=PATIENCE)
        assert reply["type"] == "error" and reply["code"] == "malformed", reply
    a.send({"type": "ping", "t": 1.5})
    assert a.wait(lambda m: m["type"] == "pong")["t"] == 1.5
    # every form a ping's t may take is named, never a union branch's inner name; deep nesting is said as such
    for raw, said in (
        ('{"type":"ping","t":1e400}', "t: Input should be a valid integer or Input should be a finite number"),
        ('{"type":"ping","t":"soon"}', "t: Input should be a valid integer or Input should be a valid number"),
        ('{"type":"ping","t":' + "[" * 1500 + "]" * 1500 + "}", "Nested too deeply"),
    ):
        drain(a)
        a.send(raw)
        reply = a.wait(lambda m: m["type"] in ("pong", "error"), timeout=PATIENCE)
        assert reply["type"] == "error" and said in reply["message"] and "constrained" not in reply["message"], reply
    a.send('{"type":"ping","t":' + HUGE + "}")  # a huge integer is echoed as a (finite) number, still JSON
    pong = a.ws.recv(timeout=PATIENCE)
    assert isinstance(json.loads(pong, parse_constant=lambda c: pytest.fail(f"{c} in {pong}"))["t"], float)
    a.close()
    # HTTP bodies: NaN where a number is expected is a 422 naming the field
    status, body = raw_request(
        server, "POST", "/api/pads", b'{"preset": "standard", "names": ["A","B","C","D"], "revoke_penalty": NaN}'
    )
    assert status == 422, (status, body[:200])


def test_a_rate_limited_act_echoes_its_ref(server: LocalServer) -> None:
    ana = guest(server, "Bo")
    tid = ana.create(preset="quick", seats=[HUMAN, RANDOM, RANDOM, RANDOM])["id"]
    a = TableClient(ana, tid)
    clock = server.settings.clock
    assert isinstance(clock, ManualClock)
    with clock.frozen():
        drain(a)
        burst = LIMITS["ws_burst"]
        for i in range(burst):
            a.send({"type": "ping", "t": i})
        for _ in range(burst):
            assert a.wait(lambda m: m["type"] in ("pong", "error"))["type"] == "pong"
        a.act({"play": "2C"}, ref="mine-17")
        reply = a.wait(lambda m: m["type"] == "error", timeout=PATIENCE)
        assert reply["code"] == "rate_limited" and reply["ref"] == "mine-17"
        # a malformed act keeps its ref too
        clock.advance(1.0)
        a.send({"type": "act", "action": {"play": "QS", "bid": 1}, "ref": "mine-18"})
        reply = a.wait(lambda m: m["type"] == "error", timeout=PATIENCE)
        assert reply["code"] == "malformed" and reply["ref"] == "mine-18"
    a.close()


@pytest.mark.parametrize(
    "name",
    [
        "standard bot",
        "Expert Bot",
        "bot",
        "seat 1",
        "Seat 3",
        "asiento 2",
        "QS",
        "10h",
        "Q♠",
        "expert",
        "stan\u200bdard bot",
        "ｓｅａｔ　１",
        "bot estándar",
        "moon shooter",
        "Cazador de luna",
    ],
)
def test_names_that_impersonate_bots_seats_or_cards_are_refused(server: LocalServer, name: str) -> None:
    with pytest.raises(ApiError) as e:
        Api(server.base).guest(name)
    assert e.value.status == 422 and "bot" in e.value.detail["message"], e.value.detail


def test_invisible_characters_are_dropped_from_names(server: LocalServer) -> None:
    api = Api(server.base)
    reply = api.guest("A\u200bn\u2060a\u00ad")
    assert reply["player"]["name"] == "Ana"
    for ok in ("Robot", "Bottega", "Seatbelt", "Q", "Ana 2"):
        assert Api(server.base).guest(ok)["player"]["name"] == ok


def test_name_rules() -> None:
    assert clean_name("\u200b\u200c\u200d\ufeffZoe\u2060") == "Zoe"
    for blank in ("\u3164", "\u2800\u2800", "\u115f", " \u200b\u00ad ", "\uffa0\u3164"):
        assert clean_name(blank) == "", repr(blank)  # draws nothing: no name
    assert clean_name("\u3164Zoe").endswith("Zoe")  # a visible name is kept as it was (its login key too)
    assert impersonates("Random bot") and impersonates("SEAT 12") and impersonates("10♥")
    assert not impersonates("Ana") and not impersonates("Botín")


def test_table_names_chat_lines_and_unknown_ids_are_cleaned(server: LocalServer) -> None:
    """A table's name is cleaned as a player's is (a blank one gets the default), a chat line that
    draws nothing is refused, and an unknown table id is echoed clipped and with its escapes shown."""
    api = guest(server, "Tess")
    hostile = api.create(name="\x1b[2J\x1b]0;pwned\x07Mesa\u202e\nuno", seats=[HUMAN, RANDOM, RANDOM, RANDOM])
    assert hostile["name"] == "Mesa uno"
    blank = api.create(name="\u3164\u200b ", seats=[HUMAN, RANDOM, RANDOM, RANDOM])
    assert blank["name"].startswith("Tess · ")
    c = TableClient(api, blank["id"])
    drain(c)
    for text in ("\u200b", "\u2060\u200d", "\u00ad", "\u3164", " \u2800 "):
        c.send({"type": "chat", "text": text, "ref": "c"})
        reply = c.wait(
            lambda m: m["type"] == "error" or (m["type"] == "event" and m["event"]["kind"] == "chat"), timeout=PATIENCE
        )
        assert reply["type"] == "error" and reply["code"] == "malformed", (repr(text), reply)
    c.close()
    with pytest.raises(ApiError) as e:
        api.table("x" * 5000)
    assert e.value.status == 404 and len(e.value.detail["message"]) < 100
    with pytest.raises(ApiError) as e:
        api.table("%1b%5b2J%e2%80%ae")
    assert "\x1b" not in e.value.detail["message"] and "\u202e" not in e.value.detail["message"]


@pytest.mark.parametrize(
    ("body", "content_type", "said"),
    [
        (None, None, "This request needs a body: a JSON object, sent as application/json."),
        (b'{"name": ', "application/json", "The body is not valid JSON (at character 9)"),
        (b"name=Ana", "text/plain", "The body must be a JSON object, sent as application/json."),
        (b'["Ana"]', "application/json", "The body must be a JSON object, sent as application/json."),
    ],
)
def test_a_body_that_is_no_json_object_is_refused_in_words(
    server: LocalServer, body: bytes | None, content_type: str | None, said: str
) -> None:
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=PATIENCE)
    try:
        conn.request(
            "POST", "/api/auth/guest", body=body, headers={"Content-Type": content_type} if content_type else {}
        )
        resp = conn.getresponse()
        status, detail = resp.status, json.loads(resp.read())["detail"]
    finally:
        conn.close()
    assert status == 422 and detail["code"] == "malformed"
    assert detail["message"].startswith(said), detail
    assert detail["reason"]["template"].startswith(said.split(" (")[0].split(":")[0]), detail


def test_an_unknown_address_and_a_wrong_method_are_refused_as_every_refusal_is(server: LocalServer) -> None:
    status, body = raw_request(server, "GET", "/api/no-such-thing")
    detail = json.loads(body)["detail"]
    assert status == 404 and detail["code"] == "not_found"
    assert detail["message"] == "There is nothing at /api/no-such-thing; the HTTP API is in docs/protocol.md."
    status, body = raw_request(server, "GET", "/api/auth/guest")
    detail = json.loads(body)["detail"]
    assert status == 405 and detail["code"] == "method_not_allowed"
    assert detail["message"] == "/api/auth/guest does not take GET; it takes POST."
    assert detail["reason"]["params"] == {"path": "/api/auth/guest", "method": "GET", "allowed": "POST"}
    # A route's own refusal keeps its detail.
    status, body = raw_request(server, "GET", "/api/tables/nosuchtable")
    assert status == 404 and json.loads(body)["detail"]["message"] == "There is no table nosuchtable."


def test_a_write_to_an_unknown_address_is_refused_naming_what_is_there(server: LocalServer) -> None:
    """A write where the API has no route is a 404 as a read is (the static files, which answer every
    address the API does not, take only reads); a write to a page of the web app names the methods it takes."""
    for method in ("POST", "PUT", "DELETE"):
        status, body = raw_request(server, method, "/api/no-such-thing")
        detail = json.loads(body)["detail"]
        assert status == 404 and detail["code"] == "not_found", (method, status, detail)
        assert detail["message"] == "There is nothing at /api/no-such-thing; the HTTP API is in docs/protocol.md."
    status, body = raw_request(server, "POST", "/")
    detail = json.loads(body)["detail"]
    assert status == 405 and detail["code"] == "method_not_allowed", detail
    assert detail["message"] == "/ does not take POST; it takes GET, HEAD.", detail


def test_the_welcome_sends_whole_limits_as_whole_numbers(server: LocalServer) -> None:
    ana = guest(server, "Whole")
    info = ana.create(preset="standard", seats=[HUMAN, RANDOM, RANDOM, RANDOM])
    c = TableClient(ana, info["id"])
    try:
        limits = next(m for m in c.log if m["type"] == "welcome")["limits"]
    finally:
        c.close()
    assert limits["ws_message_bytes"] == LIMITS["ws_message_bytes"]
    assert all(isinstance(v, int) for k, v in limits.items() if float(v).is_integer()), limits
