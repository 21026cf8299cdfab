"""The seat boxes at the two sizes the table is laid out for: every line whole, the level read in full or short."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from rich.cells import cell_len
from textual.widgets import DataTable

from corazones.core.rules import Rules
from corazones.i18n import translator
from corazones.players.registry import make_player
from corazones.tui import controller
from corazones.tui import settings as cfg
from corazones.tui.app import CorazonesApp
from corazones.tui.dialogs import GameOver, ScoreSheet
from corazones.tui.table import TableScreen, commitment_text
from corazones.tui.texts import set_lang
from corazones.tui.widgets import SeatBox
from tests.tui_driver import answer, settle, table_of

#: what a box may call a level: its whole name, or the shorter one a narrow box gives the longest
LEVEL_WORDS = {
    "beginner": ("beginner",),
    "shooter": ("moon shooter",),
    "moonshot": ("searching moon shooter", "searching shooter"),
}


@pytest.fixture(autouse=True)
def private_dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))


@pytest.fixture(autouse=True)
def quick_bots(monkeypatch: pytest.MonkeyPatch) -> None:
    """The boxes name the level chosen; the searching levels would take seconds a card, so random ones play."""
    monkeypatch.setattr(controller, "make_player", lambda level, seed: make_player("random", seed))


def box_lines(box: SeatBox) -> list[str]:
    return str(box.render()).split("\n")


def check_boxes(table: TableScreen, lang: str) -> None:
    """Every box's lines fit its width (nothing cut, with or without an ellipsis) and name the level."""
    for box in table.query(SeatBox):
        width = box.content_size.width
        lines = box_lines(box)
        assert len(lines) <= box.content_size.height, (box.id, lines)
        for line in lines:
            assert cell_len(line) <= width, (box.id, width, line)
        level = table.ctl.levels[box.seat]
        if level is not None:
            words = {translator(lang).gettext(w) for w in LEVEL_WORDS[level]}
            assert words & {line.strip() for line in [*lines, *str(box.border_title).split(" · ")]}, (box.id, lines)


@pytest.mark.parametrize("size", [(80, 24), (100, 32)], ids=["80x24", "100x32"])
@pytest.mark.parametrize("lang", ["en", "es"])
@pytest.mark.parametrize(
    ("preset", "over", "level"),
    [
        ("black_maria", {}, "moonshot"),
        ("standard", {}, "shooter"),
        ("cancellation_hearts", {"players": 8}, "moonshot"),
        ("kitty", {}, "beginner"),
    ],
    ids=["3p", "4p", "8p", "kitty"],
)
def test_seat_boxes_show_whole_lines_and_the_level(
    size: tuple[int, int], lang: str, preset: str, over: dict[str, Any], level: str
) -> None:
    async def run() -> None:
        s = cfg.Settings(speed="instant", name="Pat", lang=lang, levels=[level] * 10)
        app = CorazonesApp(rules=Rules.preset(preset, **over), seed=4, settings=s, remember=False)
        try:
            async with app.run_test(size=size) as pilot:
                await settle(pilot)
                table = table_of(app)
                check_boxes(table, lang)  # while the others pass: "13 cards · passed" and the level
                for _ in range(8):  # a few tricks in, penalty cards taken
                    await answer(pilot)
                    await settle(pilot)
                    check_boxes(table_of(app), lang)
        finally:
            set_lang("en")

    asyncio.run(run())


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_header_keeps_the_seed_commitment_in_sight_at_80_columns(lang: str) -> None:
    # "Corazones con anulación (dos barajas) · mano 1 · a 100 · 1 mano" once pushed the commitment off the edge
    async def run() -> None:
        s = cfg.Settings(speed="instant", name="Pat", lang=lang, levels=["random"] * 10)
        rules = Rules.preset("cancellation_hearts", players=8, hands=1)
        app = CorazonesApp(rules=rules, seed=4, settings=s, remember=False)
        try:
            async with app.run_test(size=(80, 24)) as pilot:
                await settle(pilot)
                table = table_of(app)
                header = str(table.query_one("#header").render())
                assert cell_len(header) <= 78, header
                assert commitment_text(table.ctl)[:8] + "…" in header, header
                assert header.startswith("Corazones · ") and "1 · " in header, header
                await pilot.resize_terminal(100, 32)
                await pilot.pause()
                header = str(table.query_one("#header").render())
                assert translator(lang).gettext("Cancellation Hearts (two decks)") in header, header  # room: whole
        finally:
            set_lang("en")

    asyncio.run(run())


def test_the_final_score_sheet_of_eight_players_fits_80_columns() -> None:
    # one line a cell ("18 (+18)") made the sheet 90 columns wide: Gloria's column was off the dialog's edge
    async def run() -> None:
        s = cfg.Settings(speed="instant", name="Pat", lang="es", levels=["random"] * 10)
        rules = Rules.preset("cancellation_hearts", players=8, hands=1)
        app = CorazonesApp(rules=rules, seed=4, settings=s, remember=False)
        try:
            async with app.run_test(size=(80, 24)) as pilot:
                for _ in range(300):
                    if await answer(pilot) == "over":
                        break
                assert isinstance(app.screen, GameOver)
                await pilot.pause()
                sheet = app.screen.query_one(DataTable)
                assert sheet.virtual_size.width <= sheet.size.width, (sheet.virtual_size, sheet.size)
                assert sheet.region.right <= app.screen.query_one(".dialog").region.right
                # a longer game: the sheet scrolls, and the final score is the row in sight
                over = app.screen
                assert isinstance(over, GameOver)
                obs = replace(over.obs, history=over.obs.history * 5)
                await app.push_screen(GameOver(obs, over.names, over.seed, None, over.commitment))
                await pilot.pause()
                await pilot.pause()
                sheet = app.screen.query_one(DataTable)
                assert sheet.max_scroll_y > 0 and sheet.scroll_y == sheet.max_scroll_y
                dialog = app.screen.query_one(".dialog").region
                assert app.screen.query_one("#quit").region.bottom <= dialog.bottom  # the buttons in sight
                # the sheet at the table (s) as well: its Close button stays in sight
                await app.push_screen(ScoreSheet(obs.history * 2, over.names, obs.rules))
                await pilot.pause()
                await pilot.pause()
                assert app.screen.query_one("#close").region.bottom <= app.screen.query_one(".dialog").region.bottom
        finally:
            set_lang("en")

    asyncio.run(run())
