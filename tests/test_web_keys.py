"""The table played without a mouse or without seeing it, in a real headless Chromium (Playwright)
against a real server: the focus stays where a keyboard user put it while the table is drawn anew at
every card (the speed, *Motion*, a tab, *Hint*, *Last trick* and its *Close*), and what a hint in a
dialog says is in the dialog itself.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed")

from corazones.server.local import LocalServer
from tests.helpers import PATIENCE
from tests.test_web_feel import DESKTOP, HUMAN, RANDOM, open_table, play_until, state, step

FOCUSED_JS = "() => document.activeElement ? document.activeElement.id : ''"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalServer]:
    db = tmp_path_factory.mktemp("web-keys") / "corazones.sqlite"
    with LocalServer(f"sqlite:///{db}", grace=60.0, bot_delay=0.0) as srv:
        yield srv


def said(page: Any) -> int:
    return int(page.evaluate("() => (window.__corazones.announced || []).length"))


def keep_playing_until_drawn_anew(page: Any, times: int = 3) -> None:
    """Let the table draw itself anew ``times`` times (cards played and announced), making Pat's own
    moves through the table's handlers (which never touch the focus)."""
    start = said(page)
    deadline = time.monotonic() + PATIENCE
    while said(page) < start + times:
        assert time.monotonic() < deadline, "the table stopped moving"
        if state(page) in ("play", "pass"):
            step(page)
        page.wait_for_timeout(50)


def test_the_focus_stays_on_a_control_while_the_table_is_drawn_anew(browser: Any, server: LocalServer) -> None:
    page, _, _ = open_table(browser, server, DESKTOP, "standard", {"hands": 1}, [HUMAN] + [RANDOM] * 3, "fast")
    play_until(page, "", until="() => window.__corazones.table.view.tricks_played >= 1")
    for control in ("speed", "motion", "tab-log", "fair-chip"):
        page.focus(f"#{control}")
        keep_playing_until_drawn_anew(page)
        assert page.evaluate(FOCUSED_JS) == control, f"#{control} lost the focus"
    # Hint, pressed with Enter on Pat's turn: the hint is drawn and the focus is still on Hint.
    play_until(page, "play")
    page.focus("#hint-btn")
    page.keyboard.press("Enter")
    page.wait_for_function("() => window.__corazones.table.store.hint !== null")
    assert page.evaluate(FOCUSED_JS) == "hint-btn"
    # Last trick opens and closes by keyboard: the focus stays on it, and Close gives it back.
    page.focus("#last-trick-btn")
    page.keyboard.press("Enter")
    page.wait_for_selector("#last-trick")
    assert page.evaluate(FOCUSED_JS) == "last-trick-btn"
    assert page.get_attribute("#last-trick-btn", "aria-pressed") == "true"
    page.focus("#last-trick button")
    page.keyboard.press("Enter")
    page.wait_for_function("() => !document.getElementById('last-trick')")
    assert page.evaluate(FOCUSED_JS) == "last-trick-btn"
    assert not page.errors, page.errors
    page.context.close()


def test_a_hint_asked_in_a_dialog_is_shown_and_said_in_the_dialog(browser: Any, server: LocalServer) -> None:
    page, _, _ = open_table(browser, server, DESKTOP, "auction_hearts", {"hands": 1}, [HUMAN] + [RANDOM] * 3)
    dialog = page.locator("dialog[open]")
    dialog.get_by_role("heading", name="Auction: your bid").wait_for()
    dialog.get_by_role("button", name="Hint", exact=True).focus()
    page.keyboard.press("Enter")
    page.wait_for_function("() => window.__corazones.table.store.hint !== null")
    # The page behind a modal dialog is inert: the hint is in the dialog, as a status a screen reader says.
    hint = dialog.get_by_role("status")
    assert hint.inner_text().startswith("Hint: ")
    assert page.evaluate("() => window.__corazones.table.store.hint.reason") in hint.inner_text()
    assert hint.is_visible()
    assert dialog.get_by_role("button", name="Hint", exact=True).evaluate("(b) => b === document.activeElement")
    assert not page.errors, page.errors
    page.context.close()


def test_a_screen_reader_hears_each_hands_points_and_who_won(browser: Any, server: LocalServer) -> None:
    page, _, _ = open_table(browser, server, DESKTOP, "standard", {"hands": 1}, [HUMAN] + [RANDOM] * 3, "instant")
    play_until(page, "over")
    heard = page.evaluate("() => window.__corazones.announced")
    ends = [line for line in heard if line.startswith("Hand 1 is over. Points taken: ")]
    assert len(ends) == 1, heard[-6:]
    # "Hand 1 is over. Points taken: You 3, Bot 2 0, …. Totals: …": the points are up to the next full stop.
    points = ends[0].removeprefix("Hand 1 is over. Points taken: ").split(". ", 1)[0]
    taken = dict(part.rsplit(" ", 1) for part in points.split(", "))
    assert set(taken) == {"You", "Bot 2", "Bot 3", "Bot 4"}
    assert sum(map(int, taken.values())) == 26
    winners = page.evaluate(
        "() => window.__corazones.table.view.winners.map((s) => (s === 0 ? 'You' : 'Bot ' + (s + 1)))"
    )
    over = [line for line in heard if line.startswith("Game over, won by ")]
    assert over == [f"Game over, won by {', '.join(winners)}."], over  # the seed is in the log, not read out
    assert not page.errors, page.errors
    page.context.close()
