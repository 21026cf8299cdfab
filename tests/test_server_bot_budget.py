"""Bot time is budgeted: a live table's bot moves go before hints, a flood of hints is refused (never
left unanswered), each player gets one hint at a time within a rate, and a table of bots only plays
while someone watches it, one per player.  Real worker processes and a real server with expert bots.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator

import pytest

from corazones.core.game import Game
from corazones.core.rules import Rules
from corazones.server.bots import MOVE, BotPools, Busy
from corazones.server.client import ApiError, TableClient, drain
from corazones.server.local import LocalServer, ManualClock
from corazones.server.schema import LIMITS
from tests.helpers import HUMAN, PATIENCE, RANDOM, guest

EXPERT = {"kind": "bot", "level": "expert"}


def an_observation() -> object:
    game = Game(Rules.preset("standard"), "budget-seed")
    return game.observation(game.to_act()[0])


def test_a_live_tables_move_goes_before_waiting_hints() -> None:
    async def run() -> list[str]:
        pools = BotPools(1, 1, hints_waiting=50)
        try:
            obs = an_observation()
            await pools.think(obs, "expert", "warm", MOVE)  # the worker is up
            order: list[str] = []

            async def hint(i: int) -> None:
                await pools.hint(obs, "expert")  # type: ignore[arg-type]
                order.append(f"hint{i}")

            async def move() -> None:
                await pools.think(obs, "expert", "s", MOVE)  # type: ignore[arg-type]
                order.append("move")

            hints = [asyncio.create_task(hint(i)) for i in range(6)]
            await asyncio.sleep(0.05)  # every hint is queued before the move is asked
            await asyncio.gather(*hints, move())
            return order
        finally:
            pools.shutdown()

    order = asyncio.run(run())
    assert order.index("move") <= 1, order  # at most the one hint already running went first


def test_a_flood_of_hints_is_refused_at_once_not_left_waiting() -> None:
    async def run() -> tuple[int, int]:
        pools = BotPools(1, 1, hints_waiting=2)
        try:
            obs = an_observation()
            results = await asyncio.wait_for(
                asyncio.gather(*(pools.hint(obs, "expert") for _ in range(12)), return_exceptions=True),  # type: ignore[arg-type]
                PATIENCE,
            )
            busy = sum(1 for r in results if isinstance(r, Busy))
            answered = sum(1 for r in results if not isinstance(r, BaseException))
            return busy, answered
        finally:
            pools.shutdown()

    busy, answered = asyncio.run(run())
    assert busy + answered == 12 and busy >= 9 and answered >= 1  # one running, two waiting, the rest refused


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalServer]:
    db = tmp_path_factory.mktemp("budget") / "corazones.db"
    with LocalServer(f"sqlite:///{db}", grace=60.0, bot_delay=0.0, clock=ManualClock()) as srv:
        yield srv


def test_one_guests_hint_flood_gets_an_answer_for_every_request(server: LocalServer) -> None:
    clock = server.settings.clock
    assert isinstance(clock, ManualClock)
    ana = guest(server, "Ana")
    tid = ana.create(preset="standard", seats=[HUMAN, EXPERT, EXPERT, EXPERT])["id"]
    sockets = [TableClient(ana, tid) for _ in range(5)]
    with clock.frozen():  # the hint budget refills only when the test says
        for c in sockets:
            drain(c)
        for _ in range(4):
            for c in sockets:
                c.send({"type": "hint", "level": "expert"})
        replies = [
            c.wait(lambda m: m["type"] in ("hint", "error"), timeout=PATIENCE) for c in sockets for _ in range(4)
        ]
    answered = [r for r in replies if r["type"] == "hint"]
    refused = [r for r in replies if r["type"] == "error"]
    assert len(answered) + len(refused) == 20
    assert {r["code"] for r in refused} == {"rate_limited"}
    assert 1 <= len(answered) <= 3  # the burst of one player, whatever the number of sockets
    for c in sockets:
        c.close()


def test_a_table_of_bots_plays_only_while_watched_and_one_per_player(server: LocalServer) -> None:
    bo = guest(server, "Bo")
    show = bo.create(preset="standard", seats=[RANDOM] * 4, my_seat=None)["id"]
    with pytest.raises(ApiError) as e:
        bo.create(preset="standard", seats=[RANDOM] * 4, my_seat=None)
    assert e.value.status == 429 and "bots only" in e.value.detail["message"]
    assert bo.create(preset="standard", seats=[HUMAN, RANDOM, RANDOM, RANDOM])  # a table with a person is fine

    t = server.hub.tables[show]
    time.sleep(1.0)
    assert t.game is not None and len(t.game.actions) == 0  # nobody sits, nobody watches: it waits
    watcher = TableClient(bo, show)
    watcher.wait(lambda m: m["type"] == "event" and m["event"]["kind"] == "action", timeout=PATIENCE)
    watcher.close()
    assert LIMITS["bot_tables_per_player"] == 1
