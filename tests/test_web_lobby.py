"""The lobby in a real headless Chromium (Playwright) against a real server (uvicorn, SQLite in a temporary
folder), and the HTTP routes behind its ratings panel.

* The open tables are drawn again every few seconds: a *Join* or *Watch* reached by keyboard keeps the focus.
* A player's profile (from the ratings panel) with a name of 40 letters and no space stays inside its dialog
  on a phone.
* A player profile asked for an id the database cannot hold is refused (422) as the statistics are, not a
  server error.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from corazones.server.client import Api, ApiError, TableClient, drain, play_to_end
from corazones.server.local import LocalServer
from tests.helpers import PATIENCE, watched_page

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalServer]:
    db = tmp_path_factory.mktemp("web-lobby") / "corazones.sqlite"
    with LocalServer(f"sqlite:///{db}", grace=60.0, bot_delay=0.0) as srv:
        yield srv


def test_a_profile_of_an_id_too_large_for_the_database_is_refused(server: LocalServer) -> None:
    api = Api(server.base)
    for path in ("/api/players/99999999999999999999/profile", "/api/players/-1/profile"):
        with pytest.raises(ApiError) as refused:
            api.request("GET", path)
        assert refused.value.status == 422, (path, refused.value)
    with pytest.raises(ApiError) as missing:
        api.request("GET", "/api/players/123456/profile")
    assert missing.value.status == 404


def test_the_open_tables_keep_the_keyboard_focus_when_drawn_again(browser: Any, server: LocalServer) -> None:
    host = Api(server.base)
    host.guest("Anfitriona")
    seats = [
        {"kind": "human"},
        {"kind": "human"},
        {"kind": "bot", "level": "random"},
        {"kind": "bot", "level": "random"},
    ]
    host.create(preset="standard", seats=seats, my_seat=0, name="Mesa del foco")
    context = browser.new_context(viewport=DESKTOP, base_url=server.base)
    page = watched_page(context)
    page.goto("/#/")
    row = "table.list tr:has-text('Mesa del foco')"
    page.wait_for_selector(f"{row} button")  # the list is drawn after the page (count() does not wait)
    # a screen reader's list of buttons says which table each Join and Watch is for
    assert page.get_by_role("button", name="Join Mesa del foco").count() == 1
    assert page.get_by_role("link", name="Watch Mesa del foco").count() == 1
    for control in ("button", "a"):  # Join, then Watch
        page.locator(f"{row} {control}").focus()
        # the list is drawn again every 5 seconds: wait for one redraw (the row is replaced)
        old = page.locator(row).element_handle()
        page.wait_for_function("old => !old.isConnected", arg=old, timeout=15_000)
        here = "(e => e.closest('tr') && e.closest('tr').textContent.includes('Mesa del foco'))(document.activeElement)"
        assert page.evaluate(here) and page.evaluate("document.activeElement.tagName") == control.upper()
    assert page.errors == []
    context.close()


def test_a_profile_of_a_long_name_stays_inside_its_dialog_on_a_phone(browser: Any, server: LocalServer) -> None:
    """A name of 40 letters and no space (the most a name holds) wraps in the profile's heading."""
    name = "Wolfeschlegelsteinhausenbergerdorffsmith"
    api = Api(server.base)
    api.guest(name)
    info = api.create(preset="standard", options={"hands": 1, "target": None}, takeover_level="random")
    c = TableClient(api, info["id"])
    play_to_end([c], timeout=2 * PATIENCE)
    drain(c)
    c.close()
    context = browser.new_context(viewport=PHONE, base_url=server.base, has_touch=True, is_mobile=True)
    page = watched_page(context)
    page.goto("/#/")
    page.locator("#leaderboard button.link", has_text=name).click()
    page.wait_for_selector("dialog[open] #profile")
    heading = page.locator("dialog[open] h3")
    assert heading.inner_text() == name
    box, dialog = heading.bounding_box(), page.locator("dialog[open]").bounding_box()
    assert box is not None and dialog is not None
    assert box["x"] + box["width"] <= dialog["x"] + dialog["width"], (box, dialog)
    assert page.evaluate("(h => h.scrollWidth <= h.clientWidth)(document.querySelector('dialog[open] h3'))")
    assert page.errors == []
    context.close()
