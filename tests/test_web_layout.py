"""Every screen of the web app at a phone's size (390x844, touch) and a desktop's (1280x800), in a real
headless Chromium against a real server: the lobby, the table mid-hand, the hand summary, the game over
box, a replay, the statistics and the score pad.

Each screen must fit its width (the page never scrolls sideways, no element of the screen's own runs past
the right edge), and is written to ``results/screenshots/screen-NAME-WIDTH.png`` to be looked at (the
screenshots of docs/web.md are these, made smaller).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed")

from corazones.server.client import Api
from corazones.server.local import LocalServer
from tests.helpers import save_screenshot
from tests.test_web_feel import DESKTOP, HUMAN, PHONE, RANDOM, SIZES, context_for, new_page, play_until

#: Elements that run past the right edge of the window (a sideways-scrolling table may: its box does not).
OVERFLOW_JS = """() => {
  const w = document.documentElement.clientWidth;
  const wide = [];
  for (const el of document.querySelectorAll('body *')) {
    if (el.closest('.table-scroll, .pad-table-wrap, dialog, .sr-only, #announce, [hidden]')) continue;
    const r = el.getBoundingClientRect();
    if (r.width && r.right > w + 1) wide.push(el.tagName + '.' + el.className + ' ' + Math.round(r.right));
  }
  return {page: document.scrollingElement.scrollWidth - w, wide: wide.slice(0, 5)};
}"""


#: The table mid-hand: three tricks played, cards on the table, a card of ours to play.
MID_HAND_JS = """() => {
  const tb = window.__corazones.table;
  const v = tb.view;
  const zone = document.querySelector('.hand-zone');
  return !!v && !tb.store.sent && v.tricks_played >= 3 && v.trick.length >= 1 && zone.dataset.decision === 'play';
}"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalServer]:
    db = tmp_path_factory.mktemp("web-layout") / "corazones.sqlite"
    with LocalServer(f"sqlite:///{db}", grace=60.0, bot_delay=0.0) as srv:
        yield srv


def look(page: Any, name: str, width: int) -> None:
    """The screen fits its width; its screenshot is saved."""
    page.wait_for_timeout(600)  # the last motion (at most 420 ms) and redraw
    found = page.evaluate(OVERFLOW_JS)
    assert found["page"] <= 0 and not found["wide"], (name, width, found)
    save_screenshot(page, f"screen-{name}-{width}")


@pytest.mark.parametrize("size", SIZES)
def test_every_screen_fits_its_width(browser: Any, server: LocalServer, size: dict[str, int]) -> None:
    width = size["width"]
    api = Api(server.base)
    player = api.guest("Pat")["player"]
    page = new_page(context_for(browser, server, size), "fast", api=api, player=player)
    page.goto("/")
    page.wait_for_selector("#create-form")
    page.wait_for_selector("#view .list, #view .empty")
    look(page, "lobby", width)

    seats = [HUMAN, RANDOM, RANDOM, RANDOM]
    table = api.create(preset="standard", options={"hands": 2}, seats=seats, my_seat=0)["id"]
    page.goto(f"/#/table/{table}")
    page.wait_for_selector(".seat")
    # Mid-hand: three tricks played, a card of ours to choose, cards on the table.
    play_until(page, "over", until=MID_HAND_JS)
    look(page, "table", width)

    page.evaluate("localStorage.setItem('corazones.speed', 'instant')")
    play_until(page, "continue")
    look(page, "summary", width)
    page.click("#continue-btn")
    play_until(page, "over")
    look(page, "game-over", width)

    page.goto(f"/#/replay/{table}")
    page.wait_for_selector(".replay-board")
    for _ in range(3):
        page.click("#replay-next")
    look(page, "replay", width)

    page.goto("/#/stats")
    page.wait_for_selector(".stat-grid")
    page.wait_for_selector(".game-item")
    look(page, "stats", width)

    made = page.request.post("/api/pads", data={"preset": "standard", "names": ["Ana", "Bea", "Carl", "Dan"]}).json()
    key = {"X-Pad-Key": made["key"]}
    for hand in ({"counts": [3, 4, 6, 0], "cards": {"QS": [2]}}, {"points": [13, 0, 0, 13]}):
        assert page.request.post(f"/api/pads/{made['id']}/hands", data=hand, headers=key).ok
    page.goto(f"/pad/#{made['id']}.{made['key']}")
    page.wait_for_selector(".pad-table tbody tr")
    look(page, "pad", width)
    assert not page.errors, page.errors
    page.context.close()


def test_phone_and_desktop_sizes_are_the_ones_docs_promise() -> None:
    assert PHONE == {"width": 390, "height": 844} and DESKTOP == {"width": 1280, "height": 800}
