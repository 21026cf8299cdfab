"""A game's end on a real server: the results and the ratings go to the players seated at the start,
read from the stored ``game_start`` once for both."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from corazones.server.client import TableClient, play_to_end
from corazones.server.local import LocalServer
from corazones.services import ratings
from tests.helpers import HUMAN, PATIENCE, RANDOM, guest


def test_the_game_start_is_read_once_for_the_results_and_the_ratings(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with LocalServer(f"sqlite:///{tmp_path}/c.db", bot_delay=0.0) as srv:
        store = srv.hub.store
        reads: list[tuple[str, ...]] = []
        events = store.events

        def counted(table_id: str, after: int = 0, kinds: Any = None) -> Any:
            if kinds is not None and "game_start" in kinds:
                reads.append(tuple(kinds))
            return events(table_id, after, kinds)

        monkeypatch.setattr(store, "events", counted)
        api = guest(srv, "Ana")
        info = api.create(
            preset="standard",
            options={"hands": 1, "target": None},
            seats=[HUMAN, RANDOM, RANDOM, RANDOM],
            takeover_level="random",
        )
        ana = info["seats"][0]["player"]
        c = TableClient(api, info["id"])
        play_to_end([c], timeout=120)
        c.close()
        end = time.monotonic() + PATIENCE
        while not (changes := ratings.changes(store, info["id"])):
            assert time.monotonic() < end, "the game was not rated"
            time.sleep(0.05)
        assert [(x.seat, x.player_id) for x in changes] == [(0, ana)]
        assert [r.player_id for r in store.results(info["id"])] == [ana, None, None, None]
        assert reads == [("game_start",)]
