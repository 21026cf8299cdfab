"""The web protocol end to end on a real server (uvicorn, WebSockets, SQLite, bot processes).

Besides what each test names, every finished game here is checked message by
message for hidden cards (:func:`assert_no_hidden_cards`): at each moment a
connection may only have seen its own dealt and received cards, cards played
face up so far in the hand, the dealer draw, and the kitty once the hand ended.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from corazones.core.commitment import check as check_commitment
from corazones.core.records import loads, verify_record
from corazones.core.rules import Rules
from corazones.server.client import Api, ApiError, TableClient, drain, play_to_end
from corazones.server.local import LocalServer
from corazones.server.schema import Event, HintReply, Snapshot, Welcome, render_doc
from tests.helpers import PATIENCE, cards_in, guest

CARD = re.compile(r"^(10|[2-9TJQKA])[CDSH]$")
ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalServer]:
    db = tmp_path_factory.mktemp("server") / "corazones.db"
    # A long grace: a player who joins over HTTP and then connects is away meanwhile, and on a loaded machine
    # that can last longer than a short grace (a bot would play their first cards).  The takeover test has
    # a server of its own with a short one.
    with LocalServer(f"sqlite:///{db}", grace=30.0, bot_delay=0.0, lease_ttl=5.0) as srv:
        yield srv


class LeakChecker:
    """Replays what one connection received against the finished game's replay (dealt hands, passes)."""

    def __init__(self, replay: dict[str, Any], seat: int | None) -> None:
        self.replay = replay
        self.seat = seat
        self.rules = Rules.from_dict(replay["rules"])
        self.hand = 0
        self.played: set[str] = set()
        self.public: set[str] = set()  # dealer draw, revealed kitty of the hand just ended

    def mine(self) -> set[str]:
        if self.seat is None or self.hand >= len(self.replay["hands"]):
            return set()
        h = self.replay["hands"][self.hand]
        own = set(h["hands"][self.seat])
        off = self.rules.pass_offset(h["pass_direction"])
        if off:
            giver = (self.seat - off) % self.rules.players
            own |= set(h["passes"][giver] or ())
        return own

    def allowed(self) -> set[str]:
        return self.mine() | self.played | self.public

    def event(self, msg: dict[str, Any]) -> None:
        ev = msg["event"]
        kind = ev["kind"]
        if kind == "hand_start":
            self.hand, self.played, self.public = ev["hand_index"], set(), set()
        elif kind == "game_start":
            self.public |= set(ev["draw"])
        elif kind == "action":
            action = ev["action"]
            if "play" in action:
                self.played.add(action["play"])
            if "pass" in action and action["seat"] != self.seat:
                assert action["pass"] is None, f"seat {self.seat} saw seat {action['seat']}'s pass"
        elif kind == "hand_end":
            self.public |= set(ev["result"]["kitty"])
        elif kind == "game_over":
            return
        leaked = cards_in(msg) - self.allowed()
        assert not leaked, f"seat {self.seat} received hidden cards {sorted(leaked)} in {json.dumps(msg)[:300]}"

    def snapshot(self, msg: dict[str, Any]) -> None:
        if msg["missed"]:
            for m in msg["missed"]:
                self.event(m)
        elif msg["view"] is not None:
            view = msg["view"]
            self.hand = view["hand_index"]
            self.played = {c for t in msg["tricks"] for _, c in t["plays"]} | {c for _, c in view["trick"]}
        body = {k: v for k, v in msg.items() if k not in ("missed", "history")}
        leaked = cards_in(body) - self.allowed()
        assert not leaked, f"seat {self.seat} received hidden cards {sorted(leaked)} in a snapshot"

    def check(self, log: list[dict[str, Any]]) -> None:
        seed = str(self.replay["seed"])
        revealed = False
        for msg in log:
            text = json.dumps(msg)
            revealed = revealed or '"game_over"' in text or '"finished"' in text
            assert revealed or seed not in text, "the seed was sent before the end of the game"
            if msg["type"] == "event":
                self.event(msg)
            elif msg["type"] == "snapshot":
                self.snapshot(msg)
            elif msg["type"] == "hint":
                assert cards_in(msg) <= self.allowed()


def assert_no_hidden_cards(api: Api, table: str, clients: list[TableClient]) -> None:
    replay = api.request("GET", f"/api/games/{table}/replay")
    for c in clients:
        LeakChecker(replay, c.seat).check(c.log)


def assert_numbered(log: list[dict[str, Any]]) -> None:
    """Events arrive once each, in order, without gaps (snapshots re-base the count)."""
    last = None
    for msg in log:
        if msg["type"] == "snapshot":
            last = msg["seq"]
            missed = [m["seq"] for m in msg["missed"]]
            assert missed == sorted(set(missed))
        elif msg["type"] == "event":
            assert last is not None and msg["seq"] == last + 1, (last, msg["seq"])
            last = msg["seq"]


# ---------------------------------------------------------------------------------------------


def test_protocol_document_is_generated_from_the_schema() -> None:
    doc = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
    assert render_doc(doc) == doc, "run `python -m corazones.server.schema` to update docs/protocol.md"


def test_health_options_catalog(server: LocalServer) -> None:
    api = Api(server.base)
    health = api.request("GET", "/healthz")
    assert health["ok"] is True and health["db"] == "ok"
    opts = api.request("GET", "/api/options")
    names = [p["name"] for p in opts["presets"]]
    assert "standard" in names and "cancellation_hearts" in names
    assert "expert" in opts["levels"] and "add_to_others" in opts["choices"]["moon"]
    omnibus = next(p for p in opts["presets"] if p["name"] == "omnibus")
    assert omnibus["rules"]["card_points"] == {"QS": 13, "JD": -10}
    es = api.request("GET", "/api/i18n/es")
    assert isinstance(es, dict) and es and all(isinstance(v, str) for v in es.values())
    assert api.request("GET", "/api/i18n/en") == {}
    with pytest.raises(ApiError) as e:
        api.request("GET", "/api/i18n/xx")
    assert e.value.status == 404


def test_guests_accounts_and_tokens(server: LocalServer) -> None:
    api = Api(server.base)
    me = api.guest("\x1b[31mAna\u202e")
    assert me["player"]["name"] == "Ana" and me["player"]["kind"] == "guest"
    assert api.request("GET", "/api/me")["id"] == me["player"]["id"]
    acc = Api(server.base).request("POST", "/api/auth/register", {"name": "Bea", "password": "correct horse"})
    assert acc["player"]["kind"] == "account"
    with pytest.raises(ApiError) as e:
        Api(server.base).request("POST", "/api/auth/register", {"name": "bea", "password": "another one"})
    assert e.value.status == 409
    with pytest.raises(ApiError) as e:
        Api(server.base).request("POST", "/api/auth/login", {"name": "Bea", "password": "wrong horse"})
    assert e.value.status == 401
    again = Api(server.base).request("POST", "/api/auth/login", {"name": "BEA", "password": "correct horse"})
    assert again["player"]["id"] == acc["player"]["id"]
    with pytest.raises(ApiError) as e:
        Api(server.base).request("POST", "/api/auth/register", {"name": "Cy", "password": "short"})
    assert e.value.status == 422 and "password" in e.value.detail["message"]
    for bad in ("nope", api.token[:-2] + "xx"):  # type: ignore[index]
        with pytest.raises(ApiError) as e:
            Api(server.base, bad).request("GET", "/api/me")
        assert e.value.status == 401


def test_table_creation_refuses_bad_rules_with_the_reason(server: LocalServer) -> None:
    api = guest(server, "Ana")
    cases = [
        ({"preset": "nope"}, "Unknown preset"),
        ({"preset": "standard", "options": {"players": 9}}, "players"),
        ({"preset": "standard", "options": {"moon": "sideways"}}, "moon"),
        ({"preset": "standard", "options": {"colour": "red"}}, "colour"),
        ({"preset": "standard", "seats": [{"kind": "human"}]}, "4 players"),
        ({"preset": "standard", "seats": [{"kind": "bot"}] * 4}, "human seats"),
        ({"preset": "standard", "seats": [{"kind": "alien"}] * 4}, "seats"),
    ]
    for body, word in cases:
        with pytest.raises(ApiError) as e:
            api.create(**body)
        assert e.value.status == 422, body
        assert word in e.value.detail["message"], (body, e.value.detail)


def test_game_against_bots_commitment_record_replay_stats(server: LocalServer) -> None:
    api = guest(server, "Solo")
    info = api.create(preset="omnibus", options={"players": 5, "hands": 1, "target": None}, takeover_level="random")
    assert info["status"] == "playing" and info["commitment"] and info["seed"] is None
    assert [s["status"] for s in info["seats"]][1:] == ["bot"] * 4
    c = TableClient(api, info["id"])
    Snapshot.model_validate(c.snapshot)
    assert c.snapshot["table"]["commitment"] == info["commitment"]
    play_to_end([c], timeout=120)
    drain(c)
    over = next(m["event"] for m in c.log if m["type"] == "event" and m["event"]["kind"] == "game_over")
    assert check_commitment(over["seed"], over["commitment"])
    for m in c.log:
        if m["type"] == "event":
            Event.model_validate(m)
    text = api.request("GET", f"/api/games/{info['id']}/record", raw=True)
    record = loads(text)
    game = verify_record(record)
    assert game.over and record["seed"] == over["seed"]
    assert record.get("commitment", over["commitment"]) == over["commitment"]
    assert record["players"][0] == "Solo"
    replay = api.request("GET", f"/api/games/{info['id']}/replay")
    assert len(replay["hands"]) == 1 and len(replay["hands"][0]["tricks"]) == 10
    stats = api.request("GET", f"/api/players/{c.snapshot['table']['seats'][0]['player']}/stats")
    assert stats["games"] >= 1 and stats["hands"] >= 1
    finished = api.table(info["id"])
    assert finished["status"] == "finished" and finished["seed"] == over["seed"]
    assert info["id"] not in [t["id"] for t in api.request("GET", "/api/tables")]
    assert info["id"] in [g["id"] for g in api.request("GET", "/api/games")]
    assert_numbered(c.log)
    assert_no_hidden_cards(api, info["id"], [c])
    # a finished table still opens, read-only, with its seed
    late = TableClient(guest(server, "Late"), info["id"])
    assert late.snapshot["table"]["seed"] == over["seed"] and late.view["game_over"]
    late.close()
    c.close()


def test_two_humans_a_spectator_and_what_each_sees(server: LocalServer) -> None:
    ana, bea, cy = guest(server, "Ana"), guest(server, "Bea"), guest(server, "Cy")
    seats = [
        {"kind": "human"},
        {"kind": "human"},
        {"kind": "bot", "level": "random"},
        {"kind": "bot", "level": "beginner"},
    ]
    info = ana.create(preset="quick", seats=seats, private=True, takeover_level="random")
    assert info["status"] == "open" and info["invite_url"]
    assert info["id"] not in [t["id"] for t in cy.request("GET", "/api/tables")]  # private: not listed
    with pytest.raises(ApiError) as e:
        bea.join(info["id"])
    assert e.value.status == 403
    invite = info["invite_url"].split("invite=")[1]
    a = TableClient(ana, info["id"])
    assert a.view is None and a.seat == 0
    joined = bea.join(info["id"], invite=invite)
    assert joined["status"] == "playing"
    assert bea.join(info["id"], invite=invite)["status"] == "playing"  # joining twice is harmless
    b = TableClient(bea, info["id"])
    spectator = TableClient(cy, info["id"])
    assert spectator.role == "spectator" and spectator.seat is None
    assert "hand" not in spectator.view and "legal" not in spectator.view
    assert b.seat == 1 and len(b.view["hand"]) == 13
    a.send({"type": "chat", "text": "hola \x1b]0;pwned\x07 <b>\u202e"})
    line = spectator.wait(lambda m: m["type"] == "event" and m["event"]["kind"] == "chat")["event"]
    assert line["name"] == "Ana" and line["seat"] == 0 and "\x1b" not in line["text"] and "\u202e" not in line["text"]
    play_to_end([a, b], timeout=120)
    for c in (a, b, spectator):
        if not any(m["type"] == "event" and m["event"].get("status") == "finished" for m in c.log):
            c.wait(lambda m: m["type"] == "event" and m["event"].get("status") == "finished", timeout=PATIENCE)
    for m in spectator.log:
        if m["type"] == "event" and m.get("view"):
            assert "hand" not in m["view"]
    for c in (a, b, spectator):
        assert_numbered(c.log)
    assert_no_hidden_cards(ana, info["id"], [a, b, spectator])
    for c in (a, b, spectator):
        c.close()


def test_reconnect_grace_bot_takeover_and_taking_the_seat_back(tmp_path: Path) -> None:
    with LocalServer(f"sqlite:///{tmp_path}/grace.db", grace=0.3, bot_delay=0.0, lease_ttl=5.0) as server:
        ana, bea = guest(server, "Ana"), guest(server, "Bea")
        seats = [
            {"kind": "human"},
            {"kind": "human"},
            {"kind": "bot", "level": "random"},
            {"kind": "bot", "level": "random"},
        ]
        info = ana.create(preset="quick", seats=seats, takeover_level="random")
        # Both connected before the table starts (Bea as a spectator, then she joins): the only seat that can
        # be away is the one this test drops, however slowly this machine connects.
        a = TableClient(ana, info["id"])
        b = TableClient(bea, info["id"])
        bea.join(info["id"])
        b.wait(lambda m: m["type"] == "snapshot" and m["seat"] == 1)
        last = a.seq
        a.close()

        def bot_played_for_ana() -> bool:
            return any(
                m["type"] == "event"
                and m["event"]["kind"] == "action"
                and m["event"]["action"]["seat"] == 0
                and m["event"]["by"] == "bot"
                for m in b.log
            )

        play_to_end([b], timeout=120, stop=bot_played_for_ana)
        seat_events = [m["event"]["seat"] for m in b.log if m["type"] == "event" and m["event"]["kind"] == "seat"]
        statuses = [seat["status"] for seat in seat_events]
        assert "away" in statuses and "bot" in statuses
        a = TableClient(ana, info["id"], last_seq=last)
        snap = a.snapshot
        assert snap["missed_complete"] and snap["missed"]
        assert [m["seq"] for m in snap["missed"]] == list(range(last + 1, snap["seq"] + 1))
        assert any(m["event"]["kind"] == "action" and m["event"]["by"] == "bot" for m in snap["missed"])
        assert snap["table"]["seats"][0]["status"] == "human"
        b.wait(
            lambda m: m["type"] == "event" and m["event"]["kind"] == "seat" and m["event"]["seat"]["status"] == "human"
        )
        count = len(a.log)
        play_to_end([a, b], timeout=120)
        after = [m for m in a.log[count:] if m["type"] == "event" and m["event"]["kind"] == "action"]
        assert all(m["event"]["by"] == "human" for m in after if m["event"]["action"]["seat"] == 0)
        assert_no_hidden_cards(ana, info["id"], [a, b])
        a.close()
        b.close()


def test_hint_sit_and_stand(server: LocalServer) -> None:
    ana, bea = guest(server, "Ana"), guest(server, "Bea")
    seats = [
        {"kind": "human"},
        {"kind": "human"},
        {"kind": "bot", "level": "random"},
        {"kind": "bot", "level": "random"},
    ]
    info = ana.create(preset="quick", seats=seats, takeover_level="random")
    a = TableClient(ana, info["id"], lang="es")
    b = TableClient(bea, info["id"])
    assert b.role == "spectator"
    b.send({"type": "hint"})
    assert b.wait(lambda m: m["type"] == "error")["code"] == "not_seated"
    b.send({"type": "sit", "seat": 1})
    b.wait(lambda m: m["type"] == "welcome" and m["seat"] == 1)
    snap = b.wait(lambda m: m["type"] == "snapshot")
    assert snap["role"] == "seat" and snap["table"]["status"] == "playing" and len(snap["view"]["hand"]) == 13
    a.wait(lambda m: m["type"] == "event" and m["event"]["kind"] == "table")
    drain(a)
    a.send({"type": "hint", "level": "standard"})
    reply = a.wait(lambda m: m["type"] == "hint")
    HintReply.model_validate(reply)
    assert reply["reason"] and set(reply["action"]["pass"]) <= set(a.view["hand"])
    b.send({"type": "stand"})
    b.wait(lambda m: m["type"] == "welcome" and m["role"] == "spectator")
    seat_events = a.wait(lambda m: m["type"] == "event" and m["event"]["kind"] == "seat")
    assert seat_events["event"]["seat"]["status"] == "bot" and seat_events["event"]["seat"]["player"] is None
    Welcome.model_validate(a.log[0])
    play_to_end([a], timeout=120)
    a.close()
    b.close()
