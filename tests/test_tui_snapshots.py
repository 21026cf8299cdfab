"""SVG snapshots of the terminal app's main screens (pytest-textual-snapshot; update with --snapshot-update).

Fixed seeds, names and sizes make them reproducible; a changed picture fails until it is looked at and accepted.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Input

from corazones.core.rules import Rules
from corazones.tui import settings as cfg
from corazones.tui.app import CorazonesApp
from tests.tui_driver import answer, settle

SIZE = (110, 34)


@pytest.fixture(autouse=True)
def private_dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))


def app_for(preset: str, seed: int = 5, **over: Any) -> CorazonesApp:
    # random opponents: the pictures must not change when the standard player's heuristics are tuned
    s = cfg.Settings(speed="instant", name="Pat", lang="en", levels=["random"] * 10)
    return CorazonesApp(rules=Rules.preset(preset, **over), seed=seed, settings=s, remember=False)


def test_start_screen(snap_compare: Any) -> None:
    async def before(pilot: Any) -> None:
        for field in pilot.app.screen.query(Input):
            field.cursor_blink = False
        await pilot.pause()

    app = CorazonesApp(settings=cfg.Settings(speed="normal", lang="en", name="Pat"), remember=False)
    assert snap_compare(app, terminal_size=SIZE, run_before=before)


def test_table_choosing_cards_to_pass(snap_compare: Any) -> None:
    async def before(pilot: Any) -> None:
        await settle(pilot)
        await pilot.press("right", "enter", "end", "enter")

    assert snap_compare(app_for("standard"), terminal_size=SIZE, run_before=before)


def test_table_eight_seats_two_decks_mid_trick(snap_compare: Any) -> None:
    async def before(pilot: Any) -> None:
        for _ in range(3):
            await answer(pilot)
        await settle(pilot)

    assert snap_compare(app_for("cancellation_hearts", players=8), terminal_size=SIZE, run_before=before)


def test_hand_summary_four_colours(snap_compare: Any) -> None:
    async def first_only(pilot: Any) -> None:
        pilot.app.settings.four_colour = True
        from corazones.tui.dialogs import HandSummary

        for _ in range(400):
            await settle(pilot)
            if isinstance(pilot.app.screen, HandSummary):
                return
            await answer(pilot)

    assert snap_compare(app_for("omnibus", target=200), terminal_size=SIZE, run_before=first_only)


def test_auction_bid_dialog(snap_compare: Any) -> None:
    async def before(pilot: Any) -> None:
        await settle(pilot)
        # a blinking cursor is drawn or not depending on when the picture is taken: hold it steady
        for field in pilot.app.screen.query(Input):
            field.cursor_blink = False
        await pilot.pause()

    assert snap_compare(app_for("auction_hearts", seed=3), terminal_size=SIZE, run_before=before)


def test_rules_help_in_spanish(snap_compare: Any) -> None:
    async def before(pilot: Any) -> None:
        await settle(pilot)
        await pilot.press("l", "r")

    assert snap_compare(app_for("black_maria"), terminal_size=SIZE, run_before=before)


# The table at the two sizes the terminal game is laid out for, with four and with eight seats.
@pytest.mark.parametrize("size", [(80, 24), (100, 32)], ids=["80x24", "100x32"])
@pytest.mark.parametrize(
    ("preset", "over"), [("standard", {}), ("cancellation_hearts", {"players": 8})], ids=["4p", "8p"]
)
def test_table_fits_the_window(snap_compare: Any, size: tuple[int, int], preset: str, over: dict[str, Any]) -> None:
    async def before(pilot: Any) -> None:
        await settle(pilot)
        await pilot.press("right", "enter")

    assert snap_compare(app_for(preset, **over), terminal_size=size, run_before=before)
