"""The full-screen score sheet takes the line mode's commands as typed: help, edit N HAND, del N, quit."""

from __future__ import annotations

import contextlib
from collections import Counter
from collections.abc import AsyncIterator
from typing import Any

import pytest
from textual.widgets import Input, Select

from corazones.core import Rules
from corazones.core.pad import Entry, Pad, PadError
from corazones.tui.pad.app import PadApp, SetupScreen, SheetScreen
from tests.tui_driver import enter, run_pilot

LINES = ("3 4 6 0 QS=Carl", "0 13 0 0 QS=Dan", "1 1 1 10 QS=Ana")


@contextlib.asynccontextmanager
async def sheet_of(lang: str = "en") -> AsyncIterator[tuple[Any, SheetScreen]]:
    app = PadApp(Pad(Rules.preset("standard"), ("Ana", "Bea", "Carl", "Dan")), lang=lang)
    async with app.run_test(size=(80, 24)) as pilot:
        sheet = app.screen
        assert isinstance(sheet, SheetScreen)
        for line in LINES:
            await enter(pilot, line)
        assert len(sheet.pad.rows) == 3
        yield pilot, sheet


def shown(sheet: SheetScreen, widget: str) -> str:
    return " ".join(str(sheet.query_one(widget).render()).split())


@pytest.mark.parametrize(("lang", "word", "says"), [("en", "help", "Commands:"), ("es", "ayuda", "Órdenes:")])
def test_help_typed_in_the_sheet_lists_the_commands(lang: str, word: str, says: str) -> None:
    """A line the sheet cannot read ends "or type help": typing help must answer, not be refused in turn."""

    async def run() -> None:
        async with sheet_of(lang) as (pilot, sheet):
            await enter(pilot, word)
            assert shown(sheet, "#pad-error") == ""
            assert says in shown(sheet, "#pad-help") and "edit N" in shown(sheet, "#pad-help")
            await enter(pilot, "2 2 2 7 QS=Bea")  # the next hand: the help gives way to the usual line
            assert says not in shown(sheet, "#pad-help") and len(sheet.pad.rows) == 4

    run_pilot(run())


def test_edit_n_hand_typed_in_the_sheet_replaces_that_hand_at_once() -> None:
    async def run() -> None:
        async with sheet_of() as (pilot, sheet):
            await enter(pilot, "edit 2 13 0 0 0 QS=Dan")
            assert shown(sheet, "#pad-error") == ""
            assert sheet.pad.entries[1].counts == (13, 0, 0, 0) and sheet.editing is None
            assert [r.totals for r in sheet.pad.rows] == [(3, 4, 19, 0), (16, 4, 19, 13), (30, 5, 20, 23)]
            assert sheet.query_one("#pad-entry", Input).value == ""
            await enter(pilot, "edit two")
            assert "give the hand's number" in shown(sheet, "#pad-error")

    run_pilot(run())


def test_deleting_a_hand_while_editing_another_ends_the_edit() -> None:
    """The rows after a deleted hand move up: the edit must not land on another hand (or on none)."""

    async def run() -> None:
        async with sheet_of() as (pilot, sheet):
            await enter(pilot, "edit 3")
            assert sheet.editing == 2
            await enter(pilot, "del 1")
            assert sheet.editing is None and "editing" not in shown(sheet, "#pad-title")
            assert [e.counts for e in sheet.pad.entries] == [(0, 13, 0, 0), (1, 1, 1, 10)]
            await enter(pilot, "5 5 3 0 QS=Bea")  # a new hand, as the title says
            assert shown(sheet, "#pad-error") == ""
            assert [e.counts for e in sheet.pad.entries] == [(0, 13, 0, 0), (1, 1, 1, 10), (5, 5, 3, 0)]

    run_pilot(run())


def test_quit_typed_in_the_sheet_asks_first_then_leaves() -> None:
    async def run() -> None:
        async with sheet_of() as (pilot, sheet):
            await enter(pilot, "quit")
            await pilot.pause()
            assert pilot.app.is_running and "3 hands not saved" in shown(sheet, "#pad-error")
            await enter(pilot, "quit")
            await pilot.pause()
            assert not pilot.app.is_running

    run_pilot(run())


@pytest.mark.parametrize(
    ("preset", "names", "players"), [("black_maria", "Ana,Bea,Carl", 3), ("cancellation_hearts", "", 6)]
)
def test_choosing_another_game_in_the_setup_gives_it_its_own_number_of_players(
    preset: str, names: str, players: int
) -> None:
    """``corazones pad`` opens the setup on the standard game (4 players): another game must not keep its 4."""

    async def run() -> None:
        app = PadApp(rules=Rules.preset("standard"))  # as the command line opens it, with no -r or -n
        async with app.run_test(size=(80, 24)) as pilot:
            setup = app.screen
            assert isinstance(setup, SetupScreen)
            setup.query_one("#pad-preset", Select).value = preset
            await pilot.pause()
            setup.query_one("#pad-names", Input).value = names
            setup.query_one("#pad-names", Input).focus()
            await pilot.press("enter")
            await pilot.pause()
            sheet = app.screen
            assert isinstance(sheet, SheetScreen), str(setup.query_one("#pad-setup-error").render())
            assert sheet.pad.rules.name == preset and sheet.pad.players == players

    run_pilot(run())


def test_the_setup_keeps_the_command_lines_number_of_players_for_its_game() -> None:
    async def run() -> None:
        app = PadApp(rules=Rules.preset("standard", players=5))  # corazones pad -n 5
        async with app.run_test(size=(80, 24)) as pilot:
            setup = app.screen
            players = setup.query_one("#pad-players", Input)
            assert players.value == "5"
            setup.query_one("#pad-preset", Select).value = "black_maria"
            await pilot.pause()
            assert players.value == "3"
            setup.query_one("#pad-preset", Select).value = "standard"
            await pilot.pause()
            assert players.value == "5"

    run_pilot(run())


# ------------------------------------------------------------ the points way, checked together
@pytest.mark.parametrize(
    ("preset", "points", "cards"),
    [
        ("standard", [7, 7, 6, 6], "13 × ♥ 1, Q♠ 13"),  # 26, but only 13 hearts: nobody has the Q♠
        ("standard", [12, 12, 1, 1], "13 × ♥ 1, Q♠ 13"),
        ("cancellation_hearts", [10, 10, 10, 10, 6, 6], "26 × ♥ 1, 2 × Q♠ 13"),  # two Q♠, nobody has 13
        ("chasse_coeur", [12, 12, 12, 28], "12 × ♥ 2-J K A 1, Q♠ 13, Q♥ 13, Q♦ 13, Q♣ 13"),  # 38 hearts needed
        ("eagle_hearts", [9, 9, 9, 9], "9 × ♥ 2-10 1, Q♠ 13, A♥ 5, K♥ 4, Q♥ 3, J♥ 2"),  # nobody has the Q♠
    ],
)
def test_points_each_possible_alone_but_not_together_are_refused(preset: str, points: list[int], cards: str) -> None:
    rules = Rules.preset(preset)
    pad = Pad(rules, tuple(f"P{i}" for i in range(rules.players)))
    with pytest.raises(PadError) as refused:
        pad.add(Entry.by_points(points))
    assert refused.value.template.startswith("these points cannot all happen in one hand")
    assert str(refused.value).endswith(f"({cards}) gives every player their points")
    assert not pad.rows


@pytest.mark.parametrize(
    ("preset", "points"),
    [
        ("standard", [13, 13, 0, 0]),
        ("standard", [14, 12, 0, 0]),
        ("omnibus", [6, 0, 0, 10]),  # Q♠, three hearts and J♦; ten hearts
        ("omnibus", [-10, 13, 13, 0]),
        ("cancellation_hearts", [13, 13, 10, 10, 6, 0]),
        ("chasse_coeur", [26, 26, 12, 0]),
        ("spot_hearts", [0, 0, 117, 0]),
    ],
)
def test_points_that_a_hand_can_give_together_are_taken(preset: str, points: list[int]) -> None:
    rules = Rules.preset(preset)
    pad = Pad(rules, tuple(f"P{i}" for i in range(rules.players)))
    moon = {"moon": "add_to_others"} if max(points) == pad.layout().pos_total else {}
    pad.add(Entry.by_points(points, **moon))
    assert len(pad.rows) == 1


def test_the_line_mode_says_why_points_cannot_happen_together() -> None:
    from io import StringIO

    from corazones.cli.pad_cmd import run_lines

    out = StringIO()
    pad = Pad(Rules.preset("standard"), ("Ana", "Bea", "Carl", "Dan"))
    run_lines(pad, "en", StringIO("p 7 7 6 6\n"), out, None, None, err=StringIO())
    assert "Not accepted: these points cannot all happen in one hand" in out.getvalue()
    assert not pad.rows


def test_points_too_long_to_check_together_are_taken_as_before(monkeypatch: pytest.MonkeyPatch) -> None:
    """Rules with many values of their own could make the search long: past its budget the row is not refused."""
    from corazones.core.pad import scoring

    values = Counter({1: 13, 13: 1})
    assert scoring.shareable(values, [7, 7, 6, 6]) is False
    assert scoring.shareable(values, [13, 13, 0, 0]) is True
    monkeypatch.setattr(scoring, "SHARE_STEPS", 0)
    assert scoring.shareable(values, [7, 7, 6, 6]) is None
    pad = Pad(Rules.preset("standard"), ("Ana", "Bea", "Carl", "Dan"))
    pad.add(Entry.by_points([7, 7, 6, 6]))
    assert pad.totals == (7, 7, 6, 6)
