"""The full-screen game as a player meets it: the "wait for a key" pace, the language switch, the start screen."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Button, Input, Static

from corazones.core.rules import Rules
from corazones.tui import settings as cfg
from corazones.tui.app import CorazonesApp
from corazones.tui.dialogs import BidDialog, DeclareDialog, GameOver, HandSummary
from corazones.tui.start import StartScreen
from corazones.tui.table import TableScreen
from corazones.tui.widgets import SeatBox
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


def test_auction_typing_at_once_the_hint_key_the_bids_and_the_chips_paid() -> None:
    async def run() -> None:
        app = CorazonesApp(rules=Rules.preset("auction_hearts", hands=1), seed=3, settings=settings(), remember=False)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            dialog = app.screen
            assert isinstance(dialog, BidDialog)
            said = str(dialog.query_one("#bids", Static).render())
            assert "Bids so far" in said or "Nobody has bid yet" in said
            await pilot.press("1", "2")  # typed the moment the box appears: both digits kept
            assert dialog.query_one("#amount", Input).value == "12"
            await pilot.press("question_mark")  # with the focus in the bid box
            await pilot.pause()
            assert str(dialog.query_one("#hint", Static).render()) != "?: hint"
            await pilot.press("enter")
            await settle(pilot)
            assert isinstance(app.screen, DeclareDialog)
            assert "You won the auction" in str(app.screen.query_one(".title", Static).render())
            await pilot.press("s")
            await settle(pilot)
            table = table_of(app)
            obs = table.ctl.observation()
            assert obs.declarer == 0
            box = table.query_one("#seat0", SeatBox)
            assert str(box.border_subtitle) == f"chips {obs.chips[0] - 12}"
            assert f"Pool: {obs.pool + 12}" in str(table.query_one("#center", Static).render())

    asyncio.run(run())


@pytest.mark.parametrize("players", [4, 5, 6, 7, 8])
def test_every_player_count_fits_80x24_with_whole_seat_boxes_and_the_hand(players: int) -> None:
    preset = "standard" if players <= 4 else "cancellation_hearts"
    over = {} if players == 4 else {"players": players}

    async def run() -> None:
        app = CorazonesApp(rules=Rules.preset(preset, **over), seed=3, settings=settings(), remember=False)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            table = table_of(app)
            for box in table.query(SeatBox):
                region = box.region
                assert region.height == 4 and region.width >= 16, (box.id, region)
                assert region.bottom <= 24
            hand = table.query_one("#hand")
            assert hand.region.height >= 1 and hand.region.bottom <= 23
            assert "Choose 3 cards" in str(table.query_one("#center", Static).render())

    asyncio.run(run())


def test_below_80x24_the_table_asks_for_a_larger_window() -> None:
    async def run() -> None:
        app = CorazonesApp(rules=Rules.preset("standard"), seed=3, settings=settings(), remember=False)
        async with app.run_test(size=(60, 20)) as pilot:
            await settle(pilot)
            table = table_of(app)
            said = str(table.query_one("#toosmall", Static).render())
            assert "Make the window at least 80×24" in said and "60×20" in said
            assert table.query_one("#toosmall").region.height > 0
            assert table.query_one("#hand").region.height == 0
            await pilot.resize_terminal(80, 24)
            await pilot.pause()
            assert table.query_one("#hand").region.height >= 1
            assert app.focused is table.query_one("#hand")  # the keys reach the hand again, with no Tab
            await pilot.resize_terminal(60, 18)
            await pilot.pause()
            await pilot.resize_terminal(100, 32)
            await pilot.pause()
            assert app.focused is table.query_one("#hand")

    asyncio.run(run())


def test_partnership_shows_the_partner_and_the_team_scores_and_the_team_target() -> None:
    async def run() -> None:
        app = CorazonesApp(rules=Rules.preset("partnership", hands=1), seed=3, settings=settings(), remember=False)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            table = table_of(app)
            assert "(partner)" in str(table.query_one("#seat2", SeatBox).border_title)
            assert "(partner)" not in str(table.query_one("#seat1", SeatBox).border_title)
            center = str(table.query_one("#center", Static).render())
            assert "Teams: Pat+Bruno 0 · Ana+Carmen 0" in center
            await pilot.press("r")
            await pilot.pause()
            shown = " ".join(str(w.render()) for w in app.screen.query(Static))
            assert "when a team reaches" in shown
            await pilot.press("escape")
            for _ in range(200):
                if await answer(pilot) == "summary":
                    break
            # the summary was just closed by answer(); its team line was on it
            assert table.ctl.game.history

    asyncio.run(run())


def test_pass_message_stays_with_the_cards_received_and_passers_keep_their_count() -> None:
    async def run() -> None:
        app = CorazonesApp(rules=Rules.preset("standard"), seed=5, settings=settings(), remember=False)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            table = table_of(app)
            box = str(table.query_one("#seat1", SeatBox).render())
            assert "13 cards" in box and "passed" in box  # the bots passed already: 10 in hand, 3 face down
            assert "speed: instant" in str(table.query_one("#keys", Static).render())
            await answer(pilot)
            await settle(pilot)
            said = str(table.message)
            assert "You passed" in said and "You received from" in said

    asyncio.run(run())


def test_the_end_screen_names_the_record_copy_too(private_dirs: Path) -> None:
    record = private_dirs / "mine.json"

    async def run() -> None:
        app = CorazonesApp(
            rules=Rules.preset("standard", hands=1), seed=5, settings=settings(), remember=False, record_to=record
        )
        async with app.run_test(size=SIZE) as pilot:
            for _ in range(300):
                if await answer(pilot) == "over":
                    break
            assert isinstance(app.screen, GameOver)
            shown = " ".join(str(w.render()) for w in app.screen.query(Static))
            assert "Record saved:" in shown and str(record) in shown

    asyncio.run(run())
    assert record.is_file()


def test_language_switch_rewords_the_message_your_default_name_and_the_start_screen_choices() -> None:
    async def run() -> None:
        s = settings(name="")
        app = CorazonesApp(rules=Rules.preset("standard"), seed=5, settings=s, remember=False)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            table = table_of(app)
            assert table.ctl.names[0] == "You"
            table.say("Speed: fast")
            await pilot.press("l")
            await pilot.pause()
            assert table.ctl.names[0] == "Usted" and str(table.message) == "Idioma: español"
            await pilot.press("q")
            await pilot.pause()
            start = app.screen
            assert isinstance(start, StartScreen)
            passes = start.query_one("#passes")
            labels = [str(option[0]) for option in passes._options]  # type: ignore[attr-defined]
            assert any("izquierda, derecha" in label for label in labels), labels

    asyncio.run(run())


def test_the_replay_viewer_says_default_seat_names_in_its_language(private_dirs: Path) -> None:
    from corazones.core.game import Game
    from corazones.core.records import make_record
    from corazones.players.registry import make_player
    from corazones.tui.replay import ReplayScreen

    game = Game(Rules.preset("standard", hands=1), 4)
    while not game.over:
        seat = game.to_act()[0]
        game.apply(make_player("random", str(seat)).act(game.observation(seat)))

    async def run() -> None:
        app = CorazonesApp(record=make_record(game), lang="es", remember=False)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, ReplayScreen)
            assert screen.names[0] == "asiento 0"

    asyncio.run(run())
