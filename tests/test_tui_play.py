"""The full-screen game as a player meets it: the "wait for a key" pace, the language switch, the start screen."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Button, Input

from corazones.core.rules import Rules
from corazones.tui import settings as cfg
from corazones.tui.app import CorazonesApp
from corazones.tui.dialogs import GameOver, HandSummary
from corazones.tui.start import StartScreen
from corazones.tui.table import TableScreen
from tests.tui_driver import answer, settle, table_of

SIZE = (100, 32)


@pytest.fixture(autouse=True)
def private_dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    return tmp_path


def settings(**kw: Any) -> cfg.Settings:
    return cfg.Settings(**{"speed": "instant", "name": "Pat", "lang": "en", "levels": ["random"] * 10, **kw})


def test_wait_for_a_key_goes_on_after_the_last_trick_to_the_hand_summary() -> None:
    async def run() -> None:
        app = CorazonesApp(rules=Rules.preset("standard", hands=1), seed=5, settings=settings(speed="key"))
        async with app.run_test(size=SIZE) as pilot:
            for _ in range(200):
                if await answer(pilot) == "summary":
                    break
            else:
                raise AssertionError("the hand summary never came")
            await settle(pilot)
            assert isinstance(app.screen, GameOver)

    asyncio.run(run())


def test_the_last_trick_waits_for_a_key_pressed_on_the_empty_hand() -> None:
    async def run() -> None:
        app = CorazonesApp(rules=Rules.preset("standard", hands=1), seed=5, settings=settings(speed="key"))
        async with app.run_test(size=SIZE) as pilot:
            table = None
            for _ in range(200):
                await answer(pilot)
                table = table_of(app)
                if not table.ctl.observation().hand and table.pausing:
                    break
                if table.pending_hand is not None:
                    break
            assert table is not None and table.pausing  # the thirteenth trick stays on the table...
            await pilot.pause(0.3)
            assert table.pausing and app.screen is table
            await pilot.press("enter")  # ...until a key, pressed where the focus is: the empty hand
            await pilot.pause()
            assert isinstance(app.screen, HandSummary)

    asyncio.run(run())


@pytest.mark.parametrize("key", ["f", "k"])
def test_switching_language_at_the_table_keeps_the_speed_and_the_colours(key: str) -> None:
    async def run() -> None:
        s = settings()
        app = CorazonesApp(rules=Rules.preset("standard"), seed=5, settings=s, remember=False)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            await pilot.press(key)
            speed, four = s.speed, s.four_colour
            assert (speed, four) != ("instant", False)
            await pilot.press("l")
            await pilot.pause()
            assert app.lang == "es" and (s.speed, s.four_colour) == (speed, four)
            await pilot.press("l")
            await pilot.pause()
            assert app.lang == "en" and (s.speed, s.four_colour) == (speed, four)

    asyncio.run(run())


def start_app(**kw: Any) -> CorazonesApp:
    return CorazonesApp(settings=settings(**kw), remember=False)


def test_start_screen_refuses_target_zero_and_takes_empty_as_the_preset() -> None:
    async def run() -> None:
        app = start_app()
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            target = app.screen.query_one("#target", Input)
            hands = app.screen.query_one("#hands", Input)
            assert target.is_valid and hands.is_valid  # empty: the preset's, not an error
            target.value = "0"
            await pilot.pause()
            app.screen.query_one("#play", Button).press()
            await pilot.pause()
            assert isinstance(app.screen, StartScreen)
            shown = str(app.screen.query_one("#error").render())
            assert "Target score" in shown and "from 1 to" in shown
            target.value = ""
            await pilot.pause()
            app.screen.query_one("#play", Button).press()
            await pilot.pause(0.2)
            await settle(pilot)
            assert table_of(app).ctl.rules.target == 100

    asyncio.run(run())


def test_start_screen_escape_asks_before_quitting_and_focus_comes_back_after_the_table() -> None:
    async def run() -> None:
        app = start_app()
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await pilot.press("escape")
            await pilot.pause()
            assert app.is_running and isinstance(app.screen, StartScreen)
            assert "Escape" in str(app.screen.query_one("#error").render())
            app.screen.query_one("#play", Button).press()
            await pilot.pause(0.2)
            await settle(pilot)
            await answer(pilot)
            await pilot.press("q")
            await pilot.pause()
            assert isinstance(app.screen, StartScreen) and app.screen.focused is not None
            assert not isinstance(app.screen, TableScreen)
            await pilot.press("escape", "escape")
            await pilot.pause()
        assert app.return_code == 0

    asyncio.run(run())
