"""The full-screen game as a player meets it: the "wait for a key" pace, the language switch, the start screen."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Button, Input, Static

from corazones.core.rules import Rules
from corazones.tui import settings as cfg
from corazones.tui.app import CorazonesApp
from corazones.tui.dialogs import BidDialog, DeclareDialog, GameOver, HandSummary
from corazones.tui.start import StartScreen
from corazones.tui.table import TableScreen, arrange
from corazones.tui.widgets import HandView, SeatBox
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


@pytest.mark.parametrize("players", [4, 5, 6, 7, 8, 9, 10, 11])
def test_every_player_count_fits_80x24_with_whole_seat_boxes_and_the_hand(players: int) -> None:
    preset = "standard" if players <= 4 else "cancellation_hearts"
    over = {} if players == 4 else {"players": players}

    async def run() -> None:
        app = CorazonesApp(rules=Rules.preset(preset, **over), seed=3, settings=settings(), remember=False)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            table = table_of(app)
            boxes = list(table.query(SeatBox))
            assert sorted(b.seat for b in boxes) == list(range(players))
            for box in boxes:  # every seat whole on the screen (with 11, the top row once ran off the right edge)
                region = box.region
                assert region.height == 4 and region.width >= 16, (box.id, region)
                assert region.x >= 0 and region.right <= 80 and region.bottom <= 24, (box.id, region)
            for a in boxes:
                for b in boxes:
                    assert a is b or not a.region.overlaps(b.region), (a.id, b.id)
            hand = table.query_one("#hand")
            assert hand.region.height >= 1 and hand.region.bottom <= 23
            assert "Choose 3 cards" in str(table.query_one("#center", Static).render())

    asyncio.run(run())


def test_eleven_seats_sit_clockwise_with_one_at_each_end_of_your_row() -> None:
    seats = arrange(11, 0)
    assert seats.beside_left == [1] and seats.left == [3, 2] and seats.top == [4, 5, 6, 7]
    assert seats.right == [8, 9] and seats.beside_right == [10]
    assert arrange(9, 0).beside_left == [] and len(arrange(9, 0).top) == 4

    async def run() -> None:
        rules = Rules.preset("cancellation_hearts", players=11)
        app = CorazonesApp(rules=rules, seed=3, settings=settings(), remember=False)
        async with app.run_test(size=(100, 32)) as pilot:
            await settle(pilot)
            table = table_of(app)
            for box in table.query(SeatBox):
                assert box.region.width >= 20 and box.region.right <= 100 and box.region.bottom <= 32, box.id
            you, left, right = (table.query_one(f"#seat{s}", SeatBox).region for s in (0, 1, 10))
            assert left.y == you.y == right.y and left.right <= you.x and you.right <= right.x

    asyncio.run(run())


@pytest.mark.parametrize("size", [(80, 24), (100, 32)])
def test_the_auction_dialog_sits_above_the_hand_which_stays_in_sight(size: tuple[int, int]) -> None:
    async def run() -> None:
        app = CorazonesApp(rules=Rules.preset("auction_hearts", hands=1), seed=5, settings=settings(), remember=False)
        async with app.run_test(size=size) as pilot:
            await settle(pilot)
            dialog = app.screen
            assert isinstance(dialog, BidDialog)
            await pilot.pause()
            hand = table_of(app).query_one(HandView)
            box = dialog.query_one(".dialog").region
            assert hand.region.height >= 1 and hand.region.bottom <= size[1]
            assert box.bottom <= hand.region.y, (box, hand.region)  # the whole hand shows under the dialog
            assert box.height <= 12
            await pilot.resize_terminal(100 if size[0] == 80 else 80, 32 if size[1] == 24 else 24)
            await pilot.pause()
            await pilot.pause()
            assert dialog.query_one(".dialog").region.bottom <= hand.region.y
            await pilot.press("2", "enter")  # still answers as before
            await settle(pilot)
            assert not isinstance(app.screen, BidDialog)

    asyncio.run(run())


def test_the_pass_button_is_sized_for_its_words_after_a_language_switch() -> None:
    async def run() -> None:
        app = CorazonesApp(rules=Rules.preset("standard"), seed=8, settings=settings(), remember=False)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            button = table_of(app).query_one("#passbtn", Button)
            for label in ("Pass 3 cards", "Pasar 3 cartas", "Pass 3 cards"):
                if str(button.label) != label:
                    await pilot.press("l")
                    await pilot.pause()
                assert str(button.label) == label
                assert button.region.width >= len(label) + 2, (label, button.region)  # not "Pasar 3" any more

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


def test_the_default_name_is_saved_as_no_name_and_resumed_in_the_language_shown(private_dirs: Path) -> None:
    async def leave_in_spanish() -> None:
        app = CorazonesApp(rules=Rules.preset("standard"), seed=8, settings=settings(name=""), remember=False)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            await pilot.press("l")
            await pilot.pause()
            assert table_of(app).ctl.names[0] == "Usted"
            await pilot.press("q")
            await pilot.pause()

    async def resume(lang: str) -> tuple[list[str], bool, str, str]:
        """The names, whether yours is the default, the middle of the table and your box's title, once resumed."""
        app = CorazonesApp(settings=settings(name="", lang=lang), resume=True, remember=False)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            table = table_of(app)
            assert table.ctl.observation().dealer == 0  # the middle names you as the dealer
            center = str(table.query_one("#center", Static).render())
            return list(table.ctl.names), table.ctl.default_name, center, str(table.query_one("#seat0").border_title)

    asyncio.run(leave_in_spanish())
    seats = cfg.saved_game_path().with_name("saved-game.seats.json")
    meta = json.loads(seats.read_text(encoding="utf-8"))
    assert meta["names"][0] is None and meta["names"][1:] == ["Ana", "Bruno", "Carmen"]
    names, default, center, title = asyncio.run(resume("en"))
    assert names[0] == "You" and default and "Dealer: You" in center and title == "You"
    assert asyncio.run(resume("es"))[0][0] == "Usted"
    # a save of an older version holds the word of its moment: read back as the default too
    seats.write_text(json.dumps({**meta, "names": ["Usted", *meta["names"][1:]]}), encoding="utf-8")
    assert asyncio.run(resume("en"))[0][0] == "You"
    # a name of one's own is kept as it is
    seats.write_text(json.dumps({**meta, "names": ["Lu", *meta["names"][1:]]}), encoding="utf-8")
    names, default, _center, _title = asyncio.run(resume("es"))
    assert names[0] == "Lu" and not default


def test_the_replay_header_names_the_last_hand_at_the_end(private_dirs: Path) -> None:
    from corazones.core.game import Game
    from corazones.core.records import make_record
    from corazones.players.registry import make_player
    from corazones.tui.replay import ReplayScreen

    game = Game(Rules.preset("quick"), 9)
    while not game.over:
        seat = game.to_act()[0]
        game.apply(make_player("random", str(seat)).act(game.observation(seat)))
    n = len(game.actions)
    assert len(game.history) == 1

    async def run() -> None:
        app = CorazonesApp(record=make_record(game), lang="en", remember=False)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, ReplayScreen)
            await pilot.press("end")
            await pilot.pause()
            header = str(screen.query_one("#header", Static).render())
            assert f"hand 1 · action {n} of {n}" in header, header  # not "hand 2": there is none
            await pilot.press("left")
            await pilot.pause()
            assert f"hand 1 · action {n - 1} of {n}" in str(screen.query_one("#header", Static).render())

    asyncio.run(run())


def test_no_color_draws_every_card_in_the_text_colour_and_strikes_the_unplayable(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from rich.style import Style
    from textual.filter import monochrome_style

    from corazones.tui.widgets import card_label

    monkeypatch.setenv("NO_COLOR", "1")

    async def run() -> None:
        app = CorazonesApp(rules=Rules.preset("standard"), seed=4, settings=settings(), remember=False)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            assert app.no_color  # Textual then shows every colour as its grey (textual.filter.Monochrome)
            hand = table_of(app).query_one(HandView)
            hand.blur()
            cards = list(hand.cards)
            assert any(c // 13 == 1 for c in cards) and any(c // 13 == 3 for c in cards)
            playable = {c for c in cards if c // 13 != 3}  # "lead a card", hearts not broken
            hand.show(cards, playable)
            text = hand.render()
            spans = [sp for sp in text.spans if text.plain[sp.start : sp.end].strip()]
            assert len(spans) == len(cards)
            for card, span in zip(cards, spans, strict=True):
                style = span.style if isinstance(span.style, Style) else Style.parse(span.style)
                if card in playable:  # a diamond in the text's colour, not a red that turns dark grey
                    assert (style.color is None or style.color.is_default) and not style.strike, (card, style)
                else:  # a readable grey, and struck through
                    grey = monochrome_style(style).color
                    assert style.strike and grey is not None and grey.triplet is not None, (card, style)
                    assert grey.triplet.red >= 0x70, grey
            assert not card_label(40).style  # the trick's and the messages' cards too

    try:
        asyncio.run(run())
    finally:
        monkeypatch.delenv("NO_COLOR")
        CorazonesApp(settings=settings(), remember=False)  # colours again for the tests that follow
    assert card_label(40).style == "red"


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
            assert screen.names[0] == "Asiento 1"  # the record's "seat 0", counted from 1

    asyncio.run(run())
