"""The web game walked through as people use it, in a real headless Chromium (Playwright) against a real server
(uvicorn, SQLite in a temporary folder, ``random`` bots without delay): a friend who opens an invitation on a
phone, a spectator on a phone held sideways, a player reviewing their game on a phone in Spanish.

Each test is a defect met on such a walk: the invitation's question had no menu and no language list (an empty
bar on a phone); a spectator's trick covered the seat at the bottom of a sideways phone; a reviewed replay
ran past a phone's right edge.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed")

from corazones.server.client import Api, TableClient, play_to_end
from corazones.server.local import LocalServer
from tests.helpers import PATIENCE, save_screenshot, watched_page
from tests.test_web_feel import HUMAN, PHONE, RANDOM
from tests.test_web_landscape import UNFIT_JS
from tests.test_web_review import page_for, played, review_seat

SIDEWAYS = {"width": 844, "height": 390}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalServer]:
    db = tmp_path_factory.mktemp("web-walk") / "corazones.sqlite"
    with LocalServer(f"sqlite:///{db}", grace=60.0, bot_delay=0.0) as srv:
        yield srv


def phone_page(browser: Any, server: LocalServer, size: dict[str, int], lang: str, speed: str = "fast") -> Any:
    """A touch phone's page of ``size`` with no name yet, in ``lang``."""
    context = browser.new_context(viewport=size, base_url=server.base, has_touch=True, is_mobile=True)
    context.add_init_script(
        f"localStorage.setItem('corazones.lang', '{lang}'); localStorage.setItem('corazones.speed', '{speed}');"
    )
    return watched_page(context)


def test_an_invitation_on_a_phone_keeps_the_menu_and_the_language(browser: Any, server: LocalServer) -> None:
    """A friend opens an invitation on a phone, in a language they do not read: the bar above the question shows
    the menu and the language list (it was empty), the question is asked again in the language chosen with the
    name typed kept, and answering it still takes the seat the invitation was for."""
    host = Api(server.base)
    host.guest("Ana")
    info = host.create(preset="standard", options={"hands": 1}, seats=[HUMAN, HUMAN, RANDOM, RANDOM], my_seat=0)
    info = host.table(info["id"])
    page = phone_page(browser, server, PHONE, "en")
    page.goto(info["invite_url"])
    page.wait_for_selector("#invite-name")
    assert page.locator("#lang").is_visible(), "no language list above the invitation"
    assert page.locator("#nav a[href='#/']").is_visible(), "no way to the lobby above the invitation"
    page.fill("#invite-name", "Beto")
    page.select_option("#lang", "es")
    page.wait_for_selector("label[for=invite-name]:has-text('Su nombre')")
    assert page.inner_text("#view h2") == "Le han invitado a una mesa"
    assert page.input_value("#invite-name") == "Beto"
    assert page.inner_text("#nav a[href='#/']") == "Salón"
    page.click("#invite-go")
    page.wait_for_selector("[data-decision='pass']")
    seats = host.table(info["id"])["seats"]
    assert [s["name"] for s in seats[:2]] == ["Ana", "Beto"], seats
    assert "Elija 3 cartas" in page.inner_text("#prompt")
    assert not page.errors, page.errors
    page.context.close()


#: The trick's note ("Bot 2 takes the trick") over a seat's box: its name or numbers hidden while it shows.
NOTE_OVER_SEAT_JS = """() => {
  const note = document.querySelector('.arena .trick-note');
  if (!note) return [];
  const r = note.getBoundingClientRect();
  const meet = (b) => Math.min(r.right, b.right) - Math.max(r.left, b.left) > 1
    && Math.min(r.bottom, b.bottom) - Math.max(r.top, b.top) > 1;
  return [...document.querySelectorAll('.arena .seat')].filter((s) => meet(s.getBoundingClientRect()))
    .map((s) => `the note over ${s.getAttribute('aria-label')}`);
}"""


#: No card on its way, nor gone (a card played travels from its seat, a trick taken shrinks into its winner's
#: pile and stays there faded until drawn again: over the seats, as meant).
STILL = "document.getAnimations().length === 0"


@pytest.mark.parametrize("free", [True, False], ids=["seat-to-take", "full-table"])
def test_a_spectator_on_a_phone_held_sideways_sees_the_trick_clear_of_every_seat(
    browser: Any, server: LocalServer, free: bool
) -> None:
    """Someone watching on a phone held sideways has a seat's box at the bottom of the felt too (a player's own
    seat is the hand there): the trick's cards and its note stay clear of it, as of the others, when that box
    offers its seat (a bot keeps a person's seat: *Take this seat* makes it taller) and when it does not."""
    host = Api(server.base)
    host.guest("Host")
    table = host.create(
        preset="standard", options={"hands": 1}, seats=[HUMAN] + [RANDOM] * 3, my_seat=None if free else 0
    )["id"]
    page = phone_page(browser, server, SIDEWAYS, "es", speed="normal")
    page.goto(f"/#/table/{table}")
    page.wait_for_selector("#invite-name")
    page.fill("#invite-name", "Sam")
    page.click("#invite-go")
    page.wait_for_selector(".seat")
    player = None
    if free:
        host.request("POST", f"/api/tables/{table}/start", {})
    else:  # the host plays seat 0 (at random, at once: the page shows it at its own pace)
        player = TableClient(host, table)
        threading.Thread(target=play_to_end, args=([player],), kwargs={"timeout": 2 * PATIENCE}, daemon=True).start()
    page.wait_for_selector(".arena .seat[data-seat='0'] .nums")
    assert (page.locator(".arena .seat[data-seat='0'] button:has-text('Ocupar')").count() > 0) is free
    seen: dict[str, list[str]] = {}
    # Three tricks, each seen with three cards down and then with its note, while nothing moves (looked at in
    # the same evaluation: the trick may start its way to the winner's pile just after).
    cards = f"() => document.querySelectorAll('.arena .trick .card').length >= 3 && {STILL} && ({UNFIT_JS})()"
    note = (
        f"() => !!document.querySelector('.arena .trick-note') && {STILL}"
        f" && [...({UNFIT_JS})(), ...({NOTE_OVER_SEAT_JS})()]"
    )
    for _ in range(3):
        seen[f"cards {len(seen)}"] = page.wait_for_function(cards).json_value()
        seen[f"note {len(seen)}"] = page.wait_for_function(note).json_value()
        page.wait_for_function("() => !document.querySelector('.arena .trick-note')")
    save_screenshot(page, f"walk-spectator-sideways-{'free' if free else 'full'}")
    if player is not None:
        player.close()
    assert not any(seen.values()), {k: v for k, v in seen.items() if v}
    assert not page.errors, page.errors
    page.context.close()


#: What of the replay runs past the window's right edge (a table that scrolls sideways in its own box may not).
PAST_EDGE_JS = """() => {
  const w = document.documentElement.clientWidth;
  const out = [];
  const main = document.querySelector('main');
  const over = main.scrollWidth - main.clientWidth;
  if (over > 1) out.push(`the page scrolls sideways by ${over} px`);
  for (const el of document.querySelectorAll('.replay-board, .replay-board *')) {
    if (el.closest('.table-scroll') && !el.matches('.table-scroll')) continue;
    const r = el.getBoundingClientRect();
    const name = `${el.tagName.toLowerCase()}.${el.className}`;
    if (r.width && r.right > w + 1) out.push(`${name} ends at ${Math.round(r.right)}`);
  }
  return out.slice(0, 8);
}"""


def test_a_reviewed_replay_fits_a_phone_in_spanish(browser: Any, server: LocalServer) -> None:
    """A player reviews their game on a phone in Spanish: the review's summary (five columns, "imprecisiones")
    scrolls in its own box, and the replay, its buttons and its headings stay inside the screen."""
    api, player, game = played(server, "Lola", hands=2)
    page = page_for(browser, server, PHONE, api, player, lang="es")
    page.goto(f"/#/replay/{game}")
    page.wait_for_selector("#review-go")
    assert page.evaluate(PAST_EDGE_JS) == []
    review_seat(page)
    page.wait_for_timeout(300)
    found = page.evaluate(PAST_EDGE_JS)
    save_screenshot(page, "walk-review-es-390", full_page=True)
    assert found == [], found
    assert not page.errors, page.errors
    page.context.close()
