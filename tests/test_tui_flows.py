"""The full-screen game through the flows a player goes through: choosing the game, leaving at the end, saving."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Input, Select

from corazones.core.rules import Rules
from corazones.tui import settings as cfg
from corazones.tui.app import CorazonesApp
from corazones.tui.dialogs import GameOver
from corazones.tui.start import StartScreen
from tests.tui_driver import answer, settle, table_of

SIZE = (100, 32)


@pytest.fixture(autouse=True)
def private_dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    return tmp_path


def settings(**kw: Any) -> cfg.Settings:
    return cfg.Settings(**{"speed": "instant", "name": "Pat", "lang": "en", "levels": ["random"] * 10, **kw})


def test_choosing_another_game_keeps_the_name_levels_speed_and_target_typed_before() -> None:
    async def run() -> None:
        app = CorazonesApp(settings=cfg.Settings(speed="instant", lang="en"), remember=False)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            screen = app.screen
            screen.query_one("#name", Input).value = "Lu"
            screen.query_one("#target", Input).value = "50"
            screen.query_one("#level0", Select).value = "beginner"
            screen.query_one("#speed", Select).value = "slow"
            await pilot.pause()
            screen.query_one("#preset", Select).value = "omnibus"
            await pilot.pause()
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, StartScreen)
            assert screen.query_one("#name", Input).value == "Lu"
            assert screen.query_one("#target", Input).value == "50"
            assert screen.query_one("#level0", Select).value == "beginner"
            assert screen.query_one("#speed", Select).value == "slow"
            screen.query_one("#play").press()  # type: ignore[attr-defined]
            await pilot.pause(0.2)
            table = table_of(app)
            assert table.ctl.rules.name == "omnibus" and table.ctl.rules.target == 50
            assert table.ctl.names[0] == "Lu" and table.ctl.levels[1] == "beginner"

    asyncio.run(run())


async def _to_the_last_trick(pilot: Any, app: CorazonesApp) -> None:
    """Play until the game is over with its last trick still on the table (the speed that waits for a key)."""
    for _ in range(400):
        await answer(pilot)
        table = table_of(app)
        if table.ctl.game.over and table.pausing:
            return
    raise AssertionError("the last trick never stayed on the table")


@pytest.mark.parametrize("key", ["q", "ctrl+c"])
def test_leaving_while_the_last_trick_is_on_the_table_keeps_the_finished_record(private_dirs: Path, key: str) -> None:
    copy = private_dirs / "mine.json"

    async def run() -> None:
        app = CorazonesApp(
            rules=Rules.preset("standard", hands=1),
            seed=5,
            settings=settings(speed="key"),
            remember=False,
            record_to=copy,
        )
        async with app.run_test(size=SIZE) as pilot:
            await _to_the_last_trick(pilot, app)
            await pilot.press(key)
            await pilot.pause()

    asyncio.run(run())
    kept = list(cfg.games_dir().glob("game-*.json"))
    assert len(kept) == 1, kept
    record = json.loads(kept[0].read_text(encoding="utf-8"))
    assert record["format"] == "corazones-record" and len(record["actions"]) == 56  # 4 passes, 52 cards
    assert json.loads(copy.read_text(encoding="utf-8")) == record
    assert not cfg.saved_game_path().exists()  # a finished game is not offered to resume


def test_a_game_saved_with_w_and_played_to_the_end_leaves_nothing_to_resume() -> None:
    async def run() -> None:
        app = CorazonesApp(rules=Rules.preset("standard", hands=1), seed=5, settings=settings(), remember=False)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            await answer(pilot)
            await settle(pilot)
            await pilot.press("w")
            await pilot.pause()
            assert cfg.saved_game_path().is_file()
            for _ in range(400):
                if await answer(pilot) == "over":
                    break
            assert isinstance(app.screen, GameOver)
            assert not cfg.saved_game_path().exists()
            await pilot.press("n")
            await pilot.pause()
            assert isinstance(app.screen, StartScreen) and not app.screen.query("#resume")

    asyncio.run(run())
