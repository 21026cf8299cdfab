"""The web app end to end: a real server (uvicorn, SQLite in a temporary folder) and Debian's
headless Chromium driven by Playwright, through the UI only (clicks and keys, as a person plays).

Three stories: a whole game against bots (keyboard pass and play, the fair-shuffle reveal checked
against the commitment, the record verified, the replay and statistics pages); two people in two
browser contexts (one a phone in Spanish) playing each other with an invite link and chat; a
reconnect in the middle of a hand (a dropped socket, then a closed and reopened page) that comes
back to the same hand and plays on.

Screenshots of the main screens, phone and desktop, go to ``results/screenshots/`` (ignored by
git) as artifacts of the run.
"""

from __future__ import annotations

import contextlib
import hashlib
import re
import time
from collections.abc import Iterator
from typing import Any

import pytest

from corazones.core.commitment import check
from corazones.core.records import loads, verify_record

pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed")

from playwright.sync_api import TimeoutError as PlaywrightTimeout

from corazones.server.local import LocalServer
from tests.helpers import PATIENCE, save_screenshot, watched_page

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
CARD_NAME = re.compile(
    r"^(two|three|four|five|six|seven|eight|nine|ten|jack|queen|king|ace) of (clubs|diamonds|spades|hearts)"
)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalServer]:
    db = tmp_path_factory.mktemp("web") / "corazones.sqlite"
    # A long grace period: a page that goes away keeps its seat, and no bot plays its cards.
    with LocalServer(f"sqlite:///{db}", grace=60.0, bot_delay=0.0) as srv:
        yield srv


def new_page(browser: Any, server: LocalServer, size: dict[str, int], lang: str = "en", speed: str = "instant") -> Any:
    context = browser.new_context(viewport=size, base_url=server.base)
    context.add_init_script(
        f"localStorage.setItem('corazones.speed', '{speed}'); "
        f"if (!localStorage.getItem('corazones.lang')) localStorage.setItem('corazones.lang', '{lang}');"
    )
    page = watched_page(context)
    return page


def shot(page: Any, name: str) -> None:
    page.evaluate("document.getElementById('view').scrollTop = 0")
    save_screenshot(page, name)


def sign_in_and_create(page: Any, name: str, preset: str, seats: dict[int, str] | None = None) -> str:
    """From the lobby: a guest name, a new table of ``preset`` (seat choices by index); returns the table id."""
    page.goto("/")
    page.fill("#guest-name", name)
    page.click("#guest-go")
    page.wait_for_selector("text=You play as")
    page.select_option("#preset", preset)
    for seat, value in (seats or {}).items():
        page.select_option(f"#seat-{seat}", value)
    page.click("#create-btn")
    page.wait_for_url(re.compile(r"#/table/"))
    return str(page.evaluate("location.hash.split('/')[2]"))


DECISION_JS = """() => {
  if (document.getElementById('game-over')) return 'over';
  if (document.getElementById('continue-btn')) return 'continue';
  if (document.querySelector('dialog[open]')) return 'dialog';
  const zone = document.querySelector('.hand-zone');
  return zone ? (zone.dataset.decision || '') : '';
}"""


def decision(page: Any) -> str:
    """What the page asks of its player now: over, continue, dialog, pass, play or nothing."""
    return str(page.evaluate(DECISION_JS))


def hand_cards(page: Any) -> list[str]:
    return [str(c) for c in page.eval_on_selector_all(".hand .card", "els => els.map(e => e.dataset.card)")]


def click_card(card: Any) -> None:
    """Touch the visible left edge of a card (cards overlap), as a person does.

    The table may move on meanwhile (a bot's card arrives and the hand is drawn again): a click
    that finds no card to press within a moment is given up, and the game loop looks again.
    """
    with contextlib.suppress(PlaywrightTimeout):
        card.click(position={"x": 6, "y": 30}, timeout=3000)


def press(page: Any, selector: str) -> None:
    """Click a button that may be drawn again meanwhile (see click_card)."""
    with contextlib.suppress(PlaywrightTimeout):
        page.click(selector, timeout=3000)


def act_once(page: Any) -> str:
    """Make whatever decision the page asks for, through the UI; returns what it was."""
    d = decision(page)
    if d == "continue":
        press(page, "#continue-btn")
    elif d == "dialog":
        dlg = page.locator("dialog[open]")
        choice = re.compile("No bid|No pujar|Subtract|Restarme|Add|Sumar|clubs|tréboles")
        dlg.locator("button").filter(has_text=choice).first.click()
    elif d == "pass":
        # pick cards not yet picked until there are enough: a click lost to a redraw must not leave the
        # next round toggling the picked ones off again (n + 1 clicks over n cards never settle)
        n = int(page.evaluate("window.__corazones.table.view.pass_count"))
        for _ in range(n):
            if page.locator(".hand .card.selected").count() >= n:
                break
            click_card(page.locator(".hand .card:not(.selected)").first)
        press(page, "#pass-btn")
    elif d == "play":
        legal = page.locator(".hand .card:not([aria-disabled='true'])")
        if legal.count():
            click_card(legal.first)
    return d


def stuck(page: Any) -> dict[str, Any]:
    """What a page shows when a game does not end: its decision, the hand's state and the last lines announced."""
    return {
        "decision": decision(page),
        "selected": page.locator(".hand .card.selected").count(),
        "legal": page.locator(".hand .card:not([aria-disabled='true'])").count(),
        "announced": page.evaluate("(window.__corazones.announced || []).slice(-5)"),
        "errors": getattr(page, "errors", None),
        "store": page.evaluate(
            "(() => { const s = window.__corazones.table.store;"
            " return {sent: s.sent, queue: s.queue.length, shownTrick: !!s.shownTrick, held: s.held, busy: s.busy,"
            " selected: [...s.selected], decision: s.view && s.view.decision}; })()"
        ),
        "shot": save_screenshot(page, "stuck"),
    }


def play_to_the_end(pages: list[Any], deadline: float = 5 * PATIENCE, on_step: Any = None) -> None:
    end = time.monotonic() + deadline
    while not all(decision(p) == "over" for p in pages):
        assert time.monotonic() < end, f"the game did not end in time: {[stuck(p) for p in pages]}"
        for p in pages:
            d = act_once(p)
            if on_step:
                on_step(p, d)
        pages[0].wait_for_timeout(60)


def test_whole_game_against_bots(browser: Any, server: LocalServer) -> None:
    page = new_page(browser, server, DESKTOP, speed="fast")
    page.goto("/")
    page.wait_for_selector("#create-form")
    shot(page, "lobby-desktop")
    table = sign_in_and_create(page, "Ana", "quick")

    # The fair-shuffle commitment is on the table from the start.
    page.wait_for_selector("[data-decision='pass']")
    commitment = str(page.evaluate("window.__corazones.table.commitment"))
    assert re.fullmatch(r"[0-9a-f]{64}", commitment)
    assert page.locator(".felt-top").inner_text().count(commitment[:8]) == 1

    # Pass by keyboard alone: the hand is one tab stop, arrows move, Space picks, Enter passes.
    cards = hand_cards(page)
    assert len(cards) == 13 and cards == sorted_by_suit(cards)
    labels = page.eval_on_selector_all(".hand .card", "els => els.map(e => e.getAttribute('aria-label'))")
    assert all(CARD_NAME.match(label) for label in labels), labels
    page.focus(".hand .card[tabindex='0']")
    page.keyboard.press("Space")
    for _ in range(2):
        page.keyboard.press("ArrowRight")
        page.keyboard.press("Space")
    assert page.locator(".hand .card.selected").count() == 3
    shot(page, "pass-desktop")
    page.keyboard.press("Enter")
    page.wait_for_selector(".hand-zone:not([data-decision='pass'])")

    # A hint names a move and says why.
    page.wait_for_selector("[data-decision='play']", timeout=PATIENCE * 1000)
    page.click("#hint-btn")
    hint = page.wait_for_selector("p.prompt[role='status']").inner_text()
    assert hint.startswith("Hint: play ") and " — " in hint and len(hint.split(" — ")[1]) > 5

    # First card by keyboard too; what is played is announced in words.  A key pressed on a hand that
    # was drawn while the table still showed events (no decision then) plays nothing, as for a player,
    # who presses again: so does the test, on the hand drawn for the decision.
    played = "() => (window.__corazones.announced || []).some((line) => /^You play \\w+ of /.test(line))"
    for _ in range(5):
        page.wait_for_selector("[data-decision='play']", timeout=PATIENCE * 1000)
        page.focus(".hand .card[tabindex='0']")
        page.keyboard.press("Enter")
        with contextlib.suppress(PlaywrightTimeout):
            page.wait_for_function(played, timeout=10_000)
            break
    page.wait_for_function(played, timeout=1_000)
    announced = "\n".join(page.evaluate("window.__corazones.announced"))
    assert re.search(r"You play (two|three|four|five|six|seven|eight|nine|ten|jack|queen|king|ace) of", announced)
    assert re.search(r"Bot \d plays (two|three|four|five|six|seven|eight|nine|ten|jack|queen|king|ace) of", announced)
    assert page.locator("#announce[aria-live='polite']").count() == 1

    trick_shot = {}

    def capture(p: Any, d: str) -> None:
        if "trick" not in trick_shot and p.locator(".trick .card").count() >= 3:
            shot(p, "trick-desktop")
            trick_shot["trick"] = True
        if d == "continue" and "summary" not in trick_shot:
            trick_shot["summary"] = True

    page.evaluate("localStorage.setItem('corazones.speed', 'instant')")
    play_to_the_end([page], on_step=capture)
    shot(page, "game-over-desktop")

    # The seed is revealed and matches the commitment, in the browser and here.
    page.click("text=Check the fair shuffle")
    page.wait_for_selector("#seed-check.ok")
    seed = page.locator("#seed").inner_text().strip()
    assert hashlib.sha256(f"corazones-seed-v1:{seed}".encode()).hexdigest() == commitment
    assert check(seed, commitment) and page.locator("#commitment").inner_text().strip() == commitment
    shot(page, "fairness-desktop")

    # The record downloads and verifies: every deal from the seed, every move and score legal.
    href = page.locator("#game-over a[download]").get_attribute("href")
    record = page.request.get(href)
    assert record.ok
    data = loads(record.text())
    assert str(data["seed"]) == seed
    verify_record(data)

    # Score sheet: a column per player, a row per hand, the totals.
    page.click("#tab-scores")
    sheet = page.locator("table.scores[aria-label='Score sheet']")
    assert sheet.locator("thead th").count() == 5
    assert sheet.locator("tbody tr").count() == len(data["hands"]) >= 1
    shot(page, "score-sheet-desktop")

    # The replay, trick by trick (arrow keys), and the statistics.
    page.goto(f"/#/replay/{table}")
    page.wait_for_selector("#replay-next")
    page.keyboard.press("ArrowRight")
    assert page.locator(".replay-trick figure").count() == 4
    page.click("#replay-next")
    assert "Trick 2 of" in page.locator(".replay-controls").inner_text()
    shot(page, "replay-desktop")
    page.goto("/#/stats")
    page.wait_for_selector(".stat-grid")
    assert page.locator(".stat").first.inner_text().startswith("1")
    shot(page, "stats-desktop")
    assert not page.errors, page.errors
    page.context.close()


def sorted_by_suit(cards: list[str]) -> list[str]:
    suits, ranks = "CDSH", ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
    return sorted(cards, key=lambda c: (suits.index(c[-1]), ranks.index(c[:-1])))


def test_two_people_play_each_other(browser: Any, server: LocalServer) -> None:
    ana = new_page(browser, server, DESKTOP)
    sign_in_and_create(ana, "Ana", "quick", seats={1: "human"})
    ana.wait_for_selector("text=Waiting for players")
    invite = ana.locator(".center-msg input").input_value()
    assert "invite=" in invite
    shot(ana, "waiting-room-desktop")

    # Bea opens the link on a phone, in Spanish, gives her name and sits down.
    bea = new_page(browser, server, PHONE, lang="es")
    bea.goto(invite)
    bea.fill("#invite-name", "Bea")
    bea.click("#invite-go")
    bea.wait_for_selector("[data-decision='pass']")
    ana.wait_for_selector("[data-decision='pass']")
    assert "Elija 3 cartas" in bea.locator("#prompt").inner_text()
    shot(bea, "pass-phone-es")

    # Each sees their own hand and nobody else's.
    a_cards, b_cards = set(hand_cards(ana)), set(hand_cards(bea))
    assert len(a_cards) == len(b_cards) == 13 and not a_cards & b_cards
    assert "Bea" in ana.locator(".arena").inner_text()

    # Chat both ways.
    ana.click("#tab-chat")
    ana.fill("#chat-input", "good luck!")
    ana.press("#chat-input", "Enter")
    bea.wait_for_function("() => (window.__corazones.announced || []).includes('Ana dice: good luck!')")

    # Someone without a seat watches: the seats and the table, no hand at all.
    watcher = new_page(browser, server, DESKTOP)
    watcher.goto("/#/table/" + ana.url.split("#/table/")[1])
    watcher.fill("#invite-name", "Dora")
    watcher.click("#invite-go")
    watcher.wait_for_selector("text=You are watching this table.")
    assert watcher.locator(".hand .card").count() == 0
    assert watcher.locator(".seat").count() == 4
    watcher.context.close()

    shots: dict[str, bool] = {}

    def capture(p: Any, d: str) -> None:
        if p is bea and "trick" not in shots and p.locator(".trick .card").count() >= 2:
            shot(p, "trick-phone-es")
            shots["trick"] = True

    play_to_the_end([ana, bea], on_step=capture)
    shot(bea, "game-over-phone-es")
    assert "Fin de la partida" in bea.locator("#game-over").inner_text()
    for p in (ana, bea):
        assert not p.errors, p.errors
        p.context.close()


def test_reconnect_mid_hand_resumes_the_same_hand(browser: Any, server: LocalServer) -> None:
    page = new_page(browser, server, PHONE)
    table = sign_in_and_create(page, "Cai", "standard")
    page.wait_for_selector("[data-decision='pass']")
    act_once(page)
    page.wait_for_selector("[data-decision='play']", timeout=PATIENCE * 1000)
    while len(hand_cards(page)) == 13:  # play one card (again if the table moved under the click)
        act_once(page)
        page.wait_for_timeout(100)
    page.wait_for_selector("[data-decision='play']", timeout=PATIENCE * 1000)
    before = hand_cards(page)
    assert 0 < len(before) < 13

    # The socket drops: a banner while reconnecting, then the same hand and the same turn.
    page.evaluate("window.__corazones.table.sock.drop()")
    page.wait_for_selector("#conn-banner:not([hidden])")
    shot(page, "reconnecting-phone")
    page.wait_for_selector("#conn-banner", state="hidden")
    page.wait_for_selector("[data-decision='play']")
    assert hand_cards(page) == before

    # The page is closed and opened again (same browser, same token): the seat comes back.
    context = page.context
    page.close()
    again = context.new_page()
    again.set_default_timeout(PATIENCE * 1000)
    again.goto(f"/#/table/{table}")
    again.wait_for_selector("[data-decision='play']")
    assert hand_cards(again) == before
    act_once(again)
    again.wait_for_function(f"() => document.querySelectorAll('.hand .card').length === {len(before) - 1}")
    context.close()
