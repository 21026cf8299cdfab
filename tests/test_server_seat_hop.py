"""One person, one seat's information per deal: the seat hop of a hostile host, in both its forms.

Ana owns a table and sits in seat 0, Bea sits in seat 2, bots elsewhere.  Mid-deal Bea's seat is
vacated (the host removes her, or she stands up herself) and Ana tries ``stand``, ``sit 2``,
``stand``, ``sit 0`` as fast as she can send them: she must never receive seat 2's hand, its pass
or what it received, and the seat stays with its bot until the next deal (when a newcomer may take
it; Ana still may not hop, whatever she saw).  A restarted server keeps the rule (it is rebuilt from
the stored events).
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from corazones.core.cards import card_str
from corazones.server.client import Api, ApiError, TableClient, drain, play_to_end
from corazones.server.hub import Hub, Settings
from corazones.server.local import LocalServer
from corazones.server.refusal import Refused
from corazones.server.schema import RulesOptions
from corazones.services.store import Store
from tests.helpers import HUMAN, PATIENCE, RANDOM, guest


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalServer]:
    db = tmp_path_factory.mktemp("seat_hop") / "corazones.db"
    # Bots take a while over each move, so a deal cannot end between a hostile client's messages.
    with LocalServer(f"sqlite:///{db}", grace=60.0, bot_delay=0.3) as srv:
        yield srv


def seats_seen(c: TableClient) -> set[int]:
    """Every seat whose private view (a welcome, snapshot or event for that seat) reached ``c``."""
    seen: set[int] = set()
    for m in c.log:
        if m["type"] in ("welcome", "snapshot") and m.get("seat") is not None:
            seen.add(m["seat"])
        view = m.get("view")
        if isinstance(view, dict) and view.get("seat") is not None:
            seen.add(view["seat"])
    return seen


def cards_seen(c: TableClient) -> set[str]:
    """Every card of a hand, a pass or a received set that any view sent to ``c`` held."""
    cards: set[str] = set()
    for m in c.log:
        view = m.get("view")
        if isinstance(view, dict):
            for key in ("hand", "passed", "received"):
                cards |= set(view.get(key) or ())
    return cards


def reply_to(c: TableClient, msg: dict[str, Any]) -> dict[str, Any]:
    """Send ``msg`` and return its answer: the ``error`` refusing it, or the ``welcome`` a seat change brings."""
    c.send(msg)
    return c.wait(lambda m: m["type"] in ("error", "welcome"), timeout=PATIENCE)


@pytest.fixture
def table(server: LocalServer) -> Iterator[tuple[Api, Api, TableClient, TableClient, str]]:
    ana, bea = guest(server, "Ana"), guest(server, "Bea")
    info = ana.create(preset="standard", seats=[HUMAN, RANDOM, HUMAN, RANDOM], takeover_level="random")
    bea.join(info["id"], 2)
    a, b = TableClient(ana, info["id"]), TableClient(bea, info["id"])
    assert a.seat == 0 and b.seat == 2 and a.view is not None and a.view["decision"] == "pass"
    yield ana, bea, a, b, info["id"]
    a.close()
    b.close()


@pytest.mark.parametrize("vacate", ["host_removes", "player_stands"])
def test_no_seat_hop_within_a_deal(
    server: LocalServer, table: tuple[Api, Api, TableClient, TableClient, str], vacate: str
) -> None:
    ana, _bea, a, b, tid = table
    assert b.view is not None
    bea_cards = set(b.view["hand"])
    if vacate == "host_removes":
        ana.request("POST", f"/api/tables/{tid}/remove", {"seat": 2})
    else:
        b.send({"type": "stand"})
        b.wait(lambda m: m["type"] == "welcome" and m["role"] == "spectator", timeout=PATIENCE)
    a.wait(lambda m: m["type"] == "event" and m["event"]["kind"] == "seat" and m["event"]["seat"]["seat"] == 2)

    # The hop, sent all at once as a hostile client would (no waiting for answers in between).
    drain(a)
    for msg in ({"type": "stand"}, {"type": "sit", "seat": 2}, {"type": "stand"}, {"type": "sit", "seat": 0}):
        a.send(msg)
    a.wait(lambda m: m["type"] == "snapshot" and m["seat"] == 0, timeout=PATIENCE)  # back in her own seat
    refusals = [m for m in a.log if m["type"] == "error"]
    assert [m["code"] for m in refusals] == ["seat_taken"] and "next deal" in refusals[0]["message"]
    assert 2 not in seats_seen(a), "Ana was sent seat 2's view"
    assert not (cards_seen(a) & bea_cards), "Ana was sent cards of seat 2's hand"

    # The HTTP join is held to the same rule, and a newcomer may not take the vacated seat in this deal either.
    with pytest.raises(ApiError) as e:
        ana.join(tid, 2)
    assert e.value.status == 409 and e.value.detail["code"] == "seat_taken"
    cy = guest(server, "Cy")
    with pytest.raises(ApiError) as e:
        cy.join(tid, 2)
    assert e.value.status == 409 and "next deal" in e.value.detail["message"]
    info = ana.table(tid)
    assert info["seats"][2]["status"] == "bot" and info["seats"][2]["player"] is None

    # The next deal: the newcomer may take seat 2 now; Ana, who sat in seat 0 this deal too, may still not hop.
    a.wait(lambda m: m.get("view") is not None, timeout=PATIENCE)
    play_to_end([a], timeout=PATIENCE, stop=lambda: a.view is not None and a.view["hand_index"] >= 1)
    assert a.view is not None and a.view["hand_index"] == 1 and not a.game_over()
    spy = TableClient(cy, tid)
    sat = reply_to(spy, {"type": "sit", "seat": 2})
    assert sat["type"] == "welcome" and sat["seat"] == 2
    drain(a)
    assert reply_to(a, {"type": "stand"})["role"] == "spectator"
    refused = reply_to(a, {"type": "sit", "seat": 2})
    assert refused["type"] == "error" and refused["code"] == "seat_taken"  # Cy sits there now
    assert 2 not in seats_seen(a)

    # Seat 2's pass of the first deal was its earlier holders' (Bea's or its bot's): Cy, who holds the
    # seat only from this deal, does not get those cards by resuming from the start.
    spy.send({"type": "resume", "last_seq": 0})
    snap = spy.wait(lambda m: m["type"] == "snapshot" and m["missed"], timeout=PATIENCE)
    first_deal = []
    for m in snap["missed"]:
        if m["event"]["kind"] == "hand_start" and m["event"]["hand_index"] == 1:
            break
        first_deal.append(m["event"])
    passes = [ev["action"] for ev in first_deal if ev["kind"] == "action" and "pass" in ev["action"]]
    assert sorted(p["seat"] for p in passes) == [0, 1, 2, 3]
    assert all(p["pass"] is None for p in passes), passes
    spy.close()


def test_the_rule_survives_a_restart(tmp_path: Path) -> None:
    """Who held which seat in the deal is rebuilt from the stored events by the next process."""
    db = f"sqlite:///{tmp_path}/restart.db"
    with LocalServer(db, grace=60.0, bot_delay=0.0) as srv:
        ana, bea, cy = guest(srv, "Ana"), guest(srv, "Bea"), guest(srv, "Cy")
        tid = ana.create(preset="standard", seats=[HUMAN, RANDOM, HUMAN, RANDOM], takeover_level="random")["id"]
        bea.join(tid, 2)
        bea.request("POST", f"/api/tables/{tid}/leave", {})  # Ana has not passed: the deal waits for her
    with LocalServer(db, grace=60.0, bot_delay=1.0) as srv:
        ana, bea, cy = (Api(srv.base, x.token) for x in (ana, bea, cy))
        with pytest.raises(ApiError) as e:
            cy.join(tid, 2)
        assert e.value.detail["code"] == "seat_taken" and "next deal" in e.value.detail["message"]
        ana.request("POST", f"/api/tables/{tid}/leave", {})
        with pytest.raises(ApiError) as e:
            ana.join(tid, 2)
        assert e.value.detail["code"] == "seat_taken" and "seat 1 " in e.value.detail["message"]  # index 0
        assert ana.join(tid, 0)["seats"][0]["player"] is not None  # her own seat back
        assert bea.join(tid, 2)["seats"][2]["player"] is not None  # and Bea hers


def test_a_move_waiting_for_the_table_is_dropped_once_its_sender_lost_the_seat(tmp_path: Path) -> None:
    """The race a removed player could win: the move is read from the socket while the host's remove holds
    the table, and reaches the table just after.  It is refused (``not_seated``), not played for the seat."""
    store = Store(f"sqlite:///{tmp_path}/race.db").migrate()

    async def scenario() -> tuple[str, int]:
        hub = Hub(store, Settings(db_url="unused", bot_delay=0.0))
        hub.writer.start()
        try:
            ana, bea = store.add_player("ana", "guest"), store.add_player("bea", "guest")
            t = await hub.seating.create(
                ana.id, "ana", "standard", RulesOptions(), [HUMAN, HUMAN, RANDOM, RANDOM], 0, False, None, "random"
            )
            await hub.seating.join(t, bea.id, "bea", 1, None)
            assert t.game is not None and 1 in t.game.to_act()
            hand = t.game.observation(1).hand
            move = {"seat": 1, "pass": [card_str(c) for c in hand[:3]]}
            # Both requests are in flight at once: the remove takes the table's lock first, the move waits for it.
            removing = asyncio.create_task(hub.seating.remove(t, ana.id, 1))
            moving = asyncio.create_task(hub.turns.act(t, 1, move, "human", player=bea.id))
            await removing
            with pytest.raises(Refused) as refused:
                await moving
            return refused.value.code, t.seats[1].player or 0
        finally:
            await hub.stop()

    try:
        code, holder = asyncio.run(scenario())
        assert code == "not_seated"
        assert holder == 0  # the seat is nobody's: its bot plays it
        stored = [e.data for e in store.events(store.list_tables()[0].id) if e.kind == "action"]
        assert not [d for d in stored if d["action"]["seat"] == 1 and d["by"] == "human"], stored
    finally:
        store.close()
