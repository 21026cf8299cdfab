"""The table at the sizes the phone and desktop tests do not walk, in a real headless Chromium against a real
server: a phone on its side (844x390) and a desktop at 200% zoom (640x400 at scale 2). On such a short screen
the table is drawn to fit the window (tests/test_web_landscape.py), but seven seats make the felt grow past it
and the page scroll: every card of the hand stays clear of the side panel below it, seven seats' boxes keep
clear of one another, and the *Speed* list stays the same element while the game goes on (a list made again
closes under the mouse of whoever opened it).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed")

from corazones.server.local import LocalServer
from tests.helpers import save_screenshot
from tests.test_web_feel import DESKTOP, HUMAN, RANDOM, open_table, play_until, state, step

LANDSCAPE = {"width": 844, "height": 390}
ZOOMED = {"width": 640, "height": 400}
SHORT = [
    pytest.param((LANDSCAPE, 1), id="phone-landscape"),
    pytest.param((ZOOMED, 2), id="desktop-200pct"),
]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalServer]:
    db = tmp_path_factory.mktemp("web-sizes") / "corazones.sqlite"
    with LocalServer(f"sqlite:///{db}", grace=60.0, bot_delay=0.0) as srv:
        yield srv


def short_table(browser: Any, server: LocalServer, size: tuple[dict[str, int], int], n: int) -> Any:
    """Pat's table of ``n`` players on a short screen, at its first pass."""
    viewport, scale = size
    page, _api, _table = open_table(
        browser,
        server,
        viewport,
        "standard",
        {"hands": 1, "players": n},
        [HUMAN] + [RANDOM] * (n - 1),
        "instant",
        device_scale_factor=scale,
    )
    page.wait_for_function("() => document.querySelector('.hand-zone')?.dataset.decision === 'pass'")
    page.wait_for_timeout(200)  # the felt is drawn again once its size is known
    return page


#: The cards of the hand whose bottom edge, scrolled into view, is under something else (the side panel).
COVERED_CARDS_JS = """() => {
  const out = [];
  for (const el of document.querySelectorAll('.hand .card')) {
    el.scrollIntoView({block: 'nearest'});
    const r = el.getBoundingClientRect();
    const x = r.left + Math.min(6, r.width / 2), y = r.bottom - 3;
    const top = document.elementFromPoint(x, y);
    const hit = !!top && (el === top || el.contains(top));
    if (!hit) out.push(`${el.dataset.card} under ${top ? top.className : 'nothing'}`);
  }
  return out;
}"""


@pytest.mark.parametrize("size", SHORT)
def test_on_a_short_screen_the_side_panel_does_not_cover_the_hand(
    browser: Any, server: LocalServer, size: tuple[dict[str, int], int]
) -> None:
    # Three players hold 17 cards each: the longest hand, above the side panel.
    page = short_table(browser, server, size, 3)
    assert page.evaluate(COVERED_CARDS_JS) == []
    felt = page.locator(".felt").bounding_box()
    side = page.locator(".side").bounding_box()
    assert felt is not None and side is not None
    assert side["y"] >= felt["y"] + felt["height"] - 1, (felt, side)
    assert page.evaluate("document.documentElement.scrollWidth") <= size[0]["width"]
    save_screenshot(page, f"sizes-hand-{size[0]['width']}")
    assert not page.errors, page.errors
    page.context.close()


#: Every two seat boxes that overlap, and every seat whose numbers are under something else.
SEATS_JS = """() => {
  const out = [];
  const seats = [...document.querySelectorAll('.arena .seat')];
  const rs = seats.map((e) => e.getBoundingClientRect());
  for (let i = 0; i < rs.length; i++) for (let j = i + 1; j < rs.length; j++) {
    const a = rs[i], b = rs[j];
    const meet = a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
    if (meet) out.push(`seats ${i} and ${j} overlap`);
  }
  for (const el of seats) {
    const nums = el.querySelector('.nums');
    nums.scrollIntoView({block: 'nearest'});
    const r = nums.getBoundingClientRect();
    const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    if (!top || !el.contains(top)) out.push(`${el.querySelector('.name').textContent}: numbers hidden`);
  }
  return out;
}"""


@pytest.mark.parametrize("size", SHORT)
def test_seven_seats_on_a_short_screen_keep_clear_of_one_another(
    browser: Any, server: LocalServer, size: tuple[dict[str, int], int]
) -> None:
    page = short_table(browser, server, size, 7)
    assert page.locator(".arena .seat").count() == 6
    assert page.evaluate(SEATS_JS) == []
    assert page.evaluate(COVERED_CARDS_JS) == []
    # Still so once cards are on the table (the trick keeps clear of the boxes as before).
    play_until(page, "play")
    page.wait_for_timeout(200)
    assert page.evaluate(SEATS_JS) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= size[0]["width"]
    save_screenshot(page, f"sizes-seven-{size[0]['width']}")
    assert not page.errors, page.errors
    page.context.close()


def test_the_speed_list_stays_the_same_element_as_cards_land(browser: Any, server: LocalServer) -> None:
    page, _api, _table = open_table(
        browser, server, DESKTOP, "standard", {"hands": 1}, [HUMAN, RANDOM, RANDOM, RANDOM], "fast"
    )
    page.evaluate(
        "() => { window.__speed = document.getElementById('speed');"
        " window.__motion = document.getElementById('motion'); }"
    )
    start = page.evaluate("window.__corazones.announced.length")
    while page.evaluate("window.__corazones.announced.length") < start + 6:
        step(page)
        page.wait_for_timeout(50)
        assert state(page) not in ("continue", "over")
    assert page.evaluate("() => document.getElementById('speed') === window.__speed")
    assert page.evaluate("() => document.getElementById('motion') === window.__motion")
    assert page.locator("#speed").input_value() == "fast"
    # It still works, and says what is chosen after the next card.
    page.select_option("#speed", "slow")
    assert page.evaluate("localStorage.getItem('corazones.speed')") == "slow"
    page.click("label.motion-chip")
    assert page.evaluate("localStorage.getItem('corazones.motion')") == "off"
    assert page.locator("#top .chip, .felt-top .chip").filter(has_text="Speed").count() == 1
    assert not page.errors, page.errors
    page.context.close()
