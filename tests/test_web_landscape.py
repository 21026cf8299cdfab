"""A phone held sideways (844x390 and 667x375, touch), in a real headless Chromium against a real server: the
table fits the window whole, so a player never scrolls between the trick and the hand. At the pass, in the
first trick (the cards received listed), and mid-trick with a hint shown: every card of the hand is inside the
window and answers a touch, every seat's name and numbers show, the trick is clear of the seats and of the hand,
nothing scrolls, and every control is still at least 44 px high. A phone turned on its side while the player
is to move gets its hand laid out again at once.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed")

from corazones.server.client import Api
from corazones.server.local import LocalServer
from tests.helpers import save_screenshot
from tests.test_web_feel import HUMAN, MOVE_JS, PHONE, RANDOM, new_page, play_until
from tests.test_web_phone import SMALL_JS

SIDEWAYS = [
    pytest.param({"width": 844, "height": 390}, 4, "en", id="844x390-4-en"),
    pytest.param({"width": 667, "height": 375}, 4, "es", id="667x375-4-es"),
    pytest.param({"width": 667, "height": 375}, 3, "en", id="667x375-3-en"),  # 17 cards each
]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalServer]:
    db = tmp_path_factory.mktemp("web-landscape") / "corazones.sqlite"
    with LocalServer(f"sqlite:///{db}", grace=60.0, bot_delay=0.0) as srv:
        yield srv


def phone_table(browser: Any, server: LocalServer, size: dict[str, int], n: int, lang: str) -> Any:
    """Pat's table of ``n`` players on a touch phone whose window is ``size``, at its first pass."""
    api = Api(server.base)
    player = api.guest("Pat")["player"]
    seats = [HUMAN] + [RANDOM] * (n - 1)
    table = api.create(preset="standard", options={"hands": 1, "players": n}, seats=seats, my_seat=0)["id"]
    context = browser.new_context(viewport=size, base_url=server.base, has_touch=True, is_mobile=True)
    page = new_page(context, "fast", lang, api, player)
    page.goto(f"/#/table/{table}")
    page.wait_for_selector("[data-decision='pass']")
    page.wait_for_timeout(300)  # the felt is drawn again once its size is known
    return page


#: What does not fit a phone held sideways: anything of the table outside the window or covered, overlapping
#: boxes, a page that scrolls.
UNFIT_JS = """() => {
  const out = [];
  const W = innerWidth, H = innerHeight;
  const main = document.querySelector('main');
  if (main.scrollTop || document.scrollingElement.scrollTop) out.push('the page is scrolled');
  const rect = (e) => e.getBoundingClientRect();
  const inside = (r) => r.left >= -1 && r.top >= -1 && r.right <= W + 1 && r.bottom <= H + 1;
  const hit = (el, x, y) => {
    const top = document.elementFromPoint(x, y);
    return !!top && (el === top || el.contains(top));
  };
  const meet = (a, b) => Math.min(a.right, b.right) - Math.max(a.left, b.left) > 1
    && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 1;
  // Every card of the hand inside the window, its corner (rank and suit) and its foot answering a touch.
  for (const el of document.querySelectorAll('.hand .card')) {
    const r = rect(el);
    const name = el.dataset.card;
    if (!inside(r)) out.push(`card ${name} outside the window (${Math.round(r.top)}-${Math.round(r.bottom)})`);
    else if (!hit(el, r.left + 5, r.top + 12) || !hit(el, r.left + 5, r.bottom - 4)) out.push(`card ${name} covered`);
    if (r.height < 44) out.push(`card ${el.dataset.card} ${Math.round(r.height)} px high`);
  }
  const bar = document.querySelector('.hand-bar');
  if (bar && !inside(rect(bar))) out.push('the hand bar is outside the window');
  // Every seat's name and numbers show, and no two seats meet.
  const seats = [...document.querySelectorAll('.arena .seat')];
  for (const s of seats) {
    for (const sel of ['.name', '.nums']) {
      const el = s.querySelector(sel);
      const r = rect(el);
      const shown = inside(r) && hit(s, r.left + r.width / 2, r.top + r.height / 2);
      if (!shown) out.push(`${s.getAttribute('aria-label')}: ${sel} hidden`);
    }
  }
  for (let i = 0; i < seats.length; i++) for (let j = i + 1; j < seats.length; j++) {
    if (meet(rect(seats[i]), rect(seats[j]))) out.push(`seats ${i} and ${j} overlap`);
  }
  // The trick: inside the window, clear of the seats and of the hand's zone.
  const zone = rect(document.querySelector('.hand-zone'));
  for (const c of document.querySelectorAll('.arena .trick .card')) {
    const r = rect(c);
    const name = c.getAttribute('aria-label');
    if (!inside(r)) out.push(`trick card ${name} outside the window`);
    if (r.bottom > zone.top + 1) out.push(`trick card ${name} over the hand`);
    for (const s of seats) if (meet(r, rect(s))) out.push(`trick card ${name} over ${s.getAttribute('aria-label')}`);
  }
  return out;
}"""

#: Mid-trick, ours to play, with two cards or more on the table.
MID_TRICK_JS = """() => {
  const tb = window.__corazones.table;
  const v = tb.view;
  return !!v && v.decision === 'play' && !tb.store.showing() && v.trick.length >= 2 && v.tricks_played >= 1;
}"""


@pytest.mark.parametrize(("size", "n", "lang"), SIDEWAYS)
def test_a_phone_held_sideways_shows_the_trick_the_seats_and_the_hand_at_once(
    browser: Any, server: LocalServer, size: dict[str, int], n: int, lang: str
) -> None:
    page = phone_table(browser, server, size, n, lang)
    tag = f"{size['width']}x{size['height']}-{n}-{lang}"
    seen: dict[str, list[str]] = {"pass": page.evaluate(UNFIT_JS) + page.evaluate(SMALL_JS)}
    assert page.locator(".hand .card").count() == {3: 17, 4: 13}[n]
    save_screenshot(page, f"landscape-pass-{tag}")
    # The first trick: the cards received are listed above the hand.
    page.evaluate(MOVE_JS, "pass")
    page.wait_for_selector(".hand .card.received")
    page.wait_for_timeout(400)
    assert page.locator(".hand-zone p.prompt").count() == 1
    seen["received"] = page.evaluate(UNFIT_JS) + page.evaluate(SMALL_JS)
    # Mid-trick, with a hint shown (one more line above the hand).
    play_until(page, "over", until=MID_TRICK_JS)
    assert page.evaluate(MID_TRICK_JS), "the hand ended before a trick Pat plays into"
    page.wait_for_timeout(400)  # the last card's move
    seen["play"] = page.evaluate(UNFIT_JS) + page.evaluate(SMALL_JS)
    page.click("#hint-btn")
    page.wait_for_selector(".hand-zone p.prompt[role='status']")
    page.wait_for_timeout(200)
    seen["hint"] = page.evaluate(UNFIT_JS) + page.evaluate(SMALL_JS)
    save_screenshot(page, f"landscape-play-{tag}")
    # A card is played by touch (a first touch lifts it, a second plays it), with no scrolling.
    legal = page.evaluate("window.__corazones.table.view.legal.map((a) => a.play)")
    card = page.locator(f".hand .card[data-card='{legal[0]}']").first
    card.tap()
    card.tap()
    page.wait_for_function(f"() => !window.__corazones.table.view.hand.includes('{legal[0]}')")
    assert not any(seen.values()), {k: v for k, v in seen.items() if v}
    assert not page.errors, page.errors
    page.context.close()


def test_a_phone_turned_on_its_side_lays_its_hand_out_again_at_once(browser: Any, server: LocalServer) -> None:
    page = phone_table(browser, server, PHONE, 4, "en")
    assert page.evaluate("document.querySelector('.hand').classList.contains('two-rows')")
    # Pat's turn to pass: nothing happens at the table until Pat moves, and the phone is turned.
    page.set_viewport_size({"width": 844, "height": 390})
    page.wait_for_function("() => !document.querySelector('.hand').classList.contains('two-rows')")
    page.wait_for_timeout(300)
    assert page.evaluate(UNFIT_JS) == []
    # And back upright: the hand in two rows again, as it was.
    page.set_viewport_size(PHONE)
    page.wait_for_function("() => document.querySelector('.hand').classList.contains('two-rows')")
    assert not page.errors, page.errors
    page.context.close()
