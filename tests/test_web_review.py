"""Game review, the analysis board and ratings in a real headless Chromium (Playwright) against a real server
(uvicorn, SQLite in a temporary folder, ``random`` bots without delay), on a phone (390x844) and a desktop
(1280x800).

A guest, Pat, plays a one-hand game against three ``random`` bots, playing at random too (so the review has
mistakes to mark).  Then: the replay's "Review this game" runs the review in the server's pool at the quick
depth, shows its progress and marks the decisions; "Next mark" steps through every marked decision, each shown
with its label, the better choice and why; the worst moments of the summary lead to theirs.  "Analyse from
here" opens the analysis board of a replay position, best card first, and moves within the trick.  The
game-over box of a rated game (a human guest against bots counts, docs/review.md) shows the rating change,
the lobby's leaderboard lists Pat and opens the profile with its chart.  And the same in Spanish.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed")

from corazones.players.review import review_record
from corazones.server.client import Api, TableClient, drain, play_to_end
from corazones.server.local import LocalServer
from tests.helpers import PATIENCE, save_screenshot, watched_page

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
SIZES = [pytest.param(PHONE, id="phone"), pytest.param(DESKTOP, id="desktop")]
LABELS = ("inaccuracy", "mistake", "blunder")


def quick_worlds() -> int:
    """Sampled deals per option at the review's "Quick" depth, as the page asks for them (``DEPTHS`` of review.js)."""
    js = (Path(__file__).resolve().parent.parent / "src/corazones/server/static/js/review.js").read_text("utf-8")
    found = re.search(r"DEPTHS = \{ quick: (\d+)", js)
    assert found, "review.js's DEPTHS moved: update this test"
    return int(found.group(1))


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalServer]:
    db = tmp_path_factory.mktemp("web-review") / "corazones.sqlite"
    with LocalServer(f"sqlite:///{db}", grace=60.0, bot_delay=0.0) as srv:
        yield srv


def played(server: LocalServer, name: str, hands: int = 1) -> tuple[Api, dict[str, Any], str]:
    """A guest's finished standard game of ``hands`` hands, played at random against three random bots."""
    api = Api(server.base)
    player = api.guest(name)["player"]
    info = api.create(preset="standard", options={"hands": hands, "target": None}, takeover_level="random")
    c = TableClient(api, info["id"])
    play_to_end([c], timeout=2 * PATIENCE)
    drain(c)
    c.close()
    return api, player, info["id"]


def played_with_marks(server: LocalServer, name: str, marks: int = 2) -> tuple[Api, dict[str, Any], str]:
    """A game of :func:`played` whose review of seat 0 at the quick depth marks at least ``marks`` decisions.

    A review is the same on any machine for the same record and depth, so the marks are known before the page
    asks for them.  How many a random player's hand gets is the deal's luck (fewer than two about one game in
    700, and a test stepping back from mark to mark had nowhere to go): such a game is left for a new one.
    """
    for _attempt in range(6):
        api, player, game = played(server, name)
        record = api.request("GET", f"/api/games/{game}/record")
        review = review_record(record, [0], worlds=quick_worlds(), pass_worlds=quick_worlds(), hindsight=False)
        if sum(1 for d in review.decisions if d.label) >= marks:
            return api, player, game
    raise AssertionError(f"no game of six had {marks} marked decisions of seat 0")


def page_for(browser: Any, server: LocalServer, size: dict[str, int], api: Api, player: Any, lang: str = "en") -> Any:
    """A page of ``size`` signed in as ``player`` (its token in localStorage, as the app keeps it)."""
    phone = size["width"] < 600
    context = browser.new_context(viewport=size, base_url=server.base, has_touch=phone, is_mobile=phone)
    context.add_init_script(
        f"localStorage.setItem('corazones.speed', 'fast'); localStorage.setItem('corazones.lang', '{lang}');"
        f"localStorage.setItem('corazones.token', '{api.token}');"
        f"localStorage.setItem('corazones.player', JSON.stringify({{id: {player['id']}, name: '{player['name']}'}}));"
    )
    page = watched_page(context)
    return page


def review_seat(page: Any) -> None:
    """Start the review of the seat chosen by default (the viewer's own) at the quick depth; wait for the marks."""
    page.wait_for_selector("#review-go")
    page.select_option("#review-depth", "quick")
    page.click("#review-go")
    page.wait_for_selector(".review-summary tbody tr", timeout=4 * PATIENCE * 1000)


def fits_width(page: Any, selector: str) -> bool:
    box = page.locator(selector).first.bounding_box()
    return box is not None and box["x"] >= 0 and box["x"] + box["width"] <= page.viewport_size["width"] + 1


#: Keep every text the review's progress line shows, as it changes (in ``window.__progress``).
SEE_PROGRESS = """() => {
  window.__progress = [];
  const box = document.getElementById('review-box');
  new MutationObserver(() => {
    const p = box.querySelector('.review-progress p');
    if (p && window.__progress[window.__progress.length - 1] !== p.textContent) window.__progress.push(p.textContent);
  }).observe(box, {childList: true, subtree: true, characterData: true});
}"""


@pytest.mark.parametrize("size", SIZES)
def test_a_review_marks_the_decisions_and_steps_through_them(
    browser: Any, server: LocalServer, size: dict[str, int]
) -> None:
    api, player, game = played_with_marks(server, f"Pat{size['width']}")
    page = page_for(browser, server, size, api, player)
    page.goto(f"/#/replay/{game}")
    # the viewer's own seat is the one offered first
    page.wait_for_selector("#review-go")
    assert page.eval_on_selector("#review-seat", "s => s.value") == "0"
    page.select_option("#review-depth", "quick")
    page.evaluate(SEE_PROGRESS)
    page.click("#review-go")
    page.wait_for_selector(".review-summary tbody tr", timeout=4 * PATIENCE * 1000)
    # progress showed while the review ran
    said = page.evaluate("window.__progress")
    assert said and said[0].startswith(f"Reviewing {player['name']}"), said
    row = page.locator(".review-summary tbody tr").first
    assert row.locator("th").inner_text() == player["name"]
    decisions = int(row.locator("td").nth(0).inner_text())
    assert decisions >= 5
    stored = api.request("GET", f"/api/games/{game}/review?seat=0")["review"]
    marked = [d for d in stored["decisions"] if d["label"]]
    assert marked, "a random player's game has marked decisions"
    # step from mark to mark, from the deal to the last one
    # the deal may itself hold a mark (the pass): then the viewer is at mark 1 already
    shot = False
    seen = [1] if page.inner_text("#review-count").startswith("Mark 1 of") else []
    match = re.match(r"Mark (\d+) of (\d+)", page.inner_text("#review-count"))
    while not page.is_disabled("#review-next"):
        page.click("#review-next")
        page.wait_for_selector("#review-count")
        count = page.inner_text("#review-count")
        match = re.match(r"Mark (\d+) of (\d+)", count)
        assert match, count
        items = page.locator(".review-here .review-item")
        labels = [items.nth(i).get_attribute("class") for i in range(items.count())]
        assert any(any(f"mark-{lab}" in (c or "") for lab in LABELS) for c in labels), labels
        first = page.locator(".review-here .review-item:not(.mark-good)").first
        text = first.inner_text()
        assert "Better:" in text and " chose " in text, text
        seen.append(int(match.group(1)))
        if not shot:
            shot = True
            save_screenshot(page, f"review-mark-{size['width']}", full_page=True)
            assert fits_width(page, "#review-box")
            # the replay's panel keeps the page's margin on both sides (nothing in it widens it)
            board = page.locator(".replay-board").bounding_box()
            assert board is not None
            assert abs(board["x"] - (size["width"] - board["x"] - board["width"])) <= 1, board
        assert len(seen) < 60
    assert seen == list(range(1, len(seen) + 1)) and seen[-1] == int(match.group(2))
    # every marked decision was on one of those stops: one per distinct hand and step, at least
    assert len(seen) <= len(marked)
    page.click("#review-prev")
    assert page.inner_text("#review-count").startswith(f"Mark {len(seen) - 1} of")
    # the keys N and P do the same, and the focus stays on a button that still leads somewhere
    page.keyboard.press("n")
    assert page.inner_text("#review-count").startswith(f"Mark {len(seen)} of")
    assert page.evaluate("document.activeElement.id") == "review-prev"
    page.keyboard.press("p")
    assert page.inner_text("#review-count").startswith(f"Mark {len(seen) - 1} of")
    # a worst moment leads to its mark, and a keyboard user stays on the button pressed (the page is drawn anew)
    page.locator(".worst").first.focus()
    page.keyboard.press("Enter")
    assert page.locator(".review-here .review-item").count() >= 1
    assert page.evaluate("document.activeElement.classList.contains('worst')")
    # on a card, the trick shows the badge of the reviewed seat's card
    assert page.locator(".replay-trick .mark-badge").count() + page.locator(".review-here").count() >= 1
    assert page.errors == []
    # a second visit finds the stored review at once
    page.reload()
    page.wait_for_selector(".review-summary tbody tr")
    page.context.close()


@pytest.mark.parametrize("size", SIZES)
def test_the_analysis_board_opens_from_a_replay(browser: Any, server: LocalServer, size: dict[str, int]) -> None:
    api, player, game = played(server, f"Ana{size['width']}")
    page = page_for(browser, server, size, api, player)
    page.goto(f"/#/replay/{game}")
    page.wait_for_selector("#replay-next")
    page.click("#replay-next")
    page.click("#replay-next")  # after trick 2: the board is before trick 3's lead
    page.click("#analyse-here")
    page.wait_for_selector("dialog[open] .analysis-cards tbody tr")
    rows = page.locator("dialog[open] .analysis-cards tbody tr")
    assert rows.count() >= 1
    assert "best" in (rows.first.get_attribute("class") or "")
    assert "trick 3" in page.inner_text("dialog[open] .analysis")
    cells = page.eval_on_selector_all(".analysis-cards tbody tr td:nth-child(3)", "t => t.map(x => x.textContent)")
    values = [float(v) for v in cells]
    assert values == sorted(values, reverse=True)
    save_screenshot(page, f"analysis-{size['width']}", full_page=False)
    assert fits_width(page, "dialog[open]")
    # nothing in it is wider than the dialog (the table scrolls inside it if it must)
    wide = "() => { const d = document.querySelector('.analysis-dialog'); return d.scrollWidth - d.clientWidth }"
    assert page.evaluate(wide) <= 1
    # before the second card of the trick: another seat to play, one card on the table
    page.click("dialog[open] .analysis-steps button[data-played='1']")
    page.wait_for_selector("dialog[open] .analysis-steps button[data-played='1'][aria-pressed='true']")
    assert page.locator("dialog[open] .trick-play").count() == 1
    # every card face up: the hindsight figures, said so
    page.check("#analysis-open")
    page.wait_for_selector("text=Hindsight:")
    page.click("#analysis-close")
    assert page.locator("dialog[open]").count() == 0
    assert page.errors == []
    page.context.close()


MOVE_JS = """() => {
  const tb = window.__corazones.table;
  if (!tb || !tb.view) return '';
  if (document.getElementById('game-over')) return 'over';
  const cont = document.getElementById('continue-btn');
  if (cont) { cont.click(); return 'continue'; }
  // a hand Pat happens to win whole asks how to score the moon (about one game in 300 against random bots)
  const choice = document.querySelector('dialog[open] .choices button');
  if (choice) { choice.click(); return 'dialog'; }
  const v = tb.view;
  const zone = document.querySelector('.hand-zone');
  const d = zone ? zone.dataset.decision : '';
  if (d === 'play') { const a = v.legal.find((x) => x.play); if (a) tb.playCard(a.play); }
  if (d === 'pass') {
    const keys = [...document.querySelectorAll('.hand .card')].map((e) => e.dataset.key);
    tb.selected.clear();
    for (const k of keys.slice(0, v.pass_count)) tb.toggleSelect(k);
    tb.sendPass();
  }
  return d || '';
}"""


@pytest.mark.parametrize("size", SIZES)
def test_a_rated_game_shows_the_rating_change_and_the_leaderboard_the_player(
    browser: Any, server: LocalServer, size: dict[str, int]
) -> None:
    api = Api(server.base)
    player = api.guest(f"Rae{size['width']}")["player"]
    seats = [{"kind": "human"}] + [{"kind": "bot", "level": "random"}] * 3
    table = api.create(preset="standard", options={"hands": 1, "target": None}, seats=seats, my_seat=0)["id"]
    page = page_for(browser, server, size, api, player)
    page.goto(f"/#/table/{table}")
    end = time.monotonic() + 3 * PATIENCE
    while page.evaluate(MOVE_JS) != "over":
        assert time.monotonic() < end, "the game never ended"
        page.wait_for_timeout(50)
    page.wait_for_selector("#rating-change:not([hidden])")
    line = page.inner_text("#rating-change")
    change = api.request("GET", f"/api/games/{table}/ratings")["changes"][0]
    assert f"{change['before']:.2f} → {change['after']:.2f}" in line, line
    assert "Standard Hearts" in line and re.search(r"\([+\-±]\d+\.\d\d\)", line), line
    # One minus sign, the one the page's language writes numbers with, for the new rating and the change.
    assert "−" not in line, line
    save_screenshot(page, f"rating-change-{size['width']}")
    assert fits_width(page, "#game-over")
    # the lobby's leaderboard lists the player, and the name opens the profile with the chart
    page.goto("/#/")
    page.wait_for_selector(f"#leaderboard tr[data-player='{player['id']}']")
    page.locator(f"#leaderboard tr[data-player='{player['id']}'] button.link").click()
    page.wait_for_selector("dialog[open] svg.rating-chart circle")
    assert "1" in page.inner_text("dialog[open] .stat-grid")
    save_screenshot(page, f"profile-{size['width']}")
    assert fits_width(page, "dialog[open]")
    page.click("#profile-close")
    # the game-over box leads to the review of one's own seat, which starts at once
    page.goto(f"/#/table/{table}")
    page.click("#review-link")
    page.wait_for_selector("#review-progress, .review-summary", timeout=PATIENCE * 1000)
    assert page.errors == []
    page.context.close()


def test_the_review_and_the_board_speak_spanish(browser: Any, server: LocalServer) -> None:
    api, player, game = played(server, "Lola")
    page = page_for(browser, server, PHONE, api, player, lang="es")
    page.goto(f"/#/replay/{game}")
    page.wait_for_selector("#review-go")
    assert page.inner_text("#review-go") == "Analizar esta partida"
    review_seat(page)
    heads = page.inner_text(".review-summary thead")
    assert "Decisiones" in heads and "Pérdida media" in heads, heads
    if not page.is_disabled("#review-next"):
        page.click("#review-next")
        text = page.inner_text(".review-here")
        assert "Mejor:" in text and " eligió " in text, text
        assert not re.search(r"\b(sampled deals|was better|let|after)\b", text), text
    save_screenshot(page, "review-es-390", full_page=True)
    page.click("#analyse-here")
    page.wait_for_selector("dialog[open] .analysis-cards tbody tr")
    assert "Tablero de análisis" in page.inner_text("dialog[open] h2")
    assert page.errors == []
    page.context.close()


def test_the_replay_keeps_the_keyboard_focus_and_leaves_its_dialog_behind(browser: Any, server: LocalServer) -> None:
    """Each step draws the replay anew: *Next* and the hand menu keep the focus, so Enter steps on.  The arrow keys
    in the analysis board do not move the replay behind it, and the back button takes the board away with it."""
    api, player, game = played(server, "Teclas", hands=2)
    page = page_for(browser, server, DESKTOP, api, player)
    page.goto("/#/games")
    page.goto(f"/#/replay/{game}")
    page.wait_for_selector("#replay-next")
    page.focus("#replay-next")
    page.keyboard.press("Enter")
    page.keyboard.press("Enter")
    assert page.inner_text(".replay-controls").endswith("Trick 2 of 13")
    assert page.evaluate("document.activeElement.id") == "replay-next"
    page.focus("#replay-hand")
    page.keyboard.press("ArrowDown")  # hand 2
    assert page.eval_on_selector("#replay-hand", "s => s.value") == "1"
    assert page.evaluate("document.activeElement.id") == "replay-hand"
    page.focus("#replay-next")
    page.keyboard.press("Enter")
    page.click("#analyse-here")
    page.wait_for_selector("dialog[open] #analysis-close")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert page.inner_text(".replay-controls").endswith("Trick 1 of 13")
    page.go_back()
    page.wait_for_selector("#typed-analysis")
    assert page.locator("dialog").count() == 0
    assert page.errors == []
    page.context.close()


def test_a_typed_position_knowing_only_ones_own_hand(browser: Any, server: LocalServer) -> None:
    """Seat 1's hand as dealt and four plays: the other hands are dealt at random around what was seen."""
    api = Api(server.base)
    player = api.guest("Tipo")["player"]
    page = page_for(browser, server, DESKTOP, api, player)
    page.goto("/#/games")
    page.click("#typed-analysis")
    page.fill("#typed-hand-0", "2C 9C KC 4D 8D 3S 7S QS AS 2H 6H 10H KH")
    page.select_option("#typed-leader", "0")
    # seat 4 shows a void in clubs (a diamond on the first trick): its random hand must hold no club
    page.fill("#typed-plays", "2C 5C 10C 3D")
    page.fill("#typed-scores", "10 20 30 40")
    page.click("#typed-go")
    page.wait_for_selector("dialog[open] .analysis-cards tbody tr")
    text = page.inner_text("dialog[open] .analysis")
    assert "Seat 3 to play" in text and "hand 1, trick 2" in text, text  # seat 3's 10♣ took the first trick
    assert "Seat 1 10" in text and "Seat 4 40" in text
    save_screenshot(page, "analysis-typed-1280")
    # a card the typed hand does not hold is refused, with the reason
    page.fill("#typed-plays", "3C")
    page.click("#typed-go")
    page.wait_for_selector("dialog[open] .review-error")
    assert "3C" in page.inner_text("dialog[open] .review-error")
    assert page.errors == []
    page.context.close()


def test_a_typed_position_refused_in_the_forms_own_words(browser: Any, server: LocalServer) -> None:
    """The form says "Seat 1" to "Seat 4" and lists the cards played in order: a refusal counts both the same
    way (the server counts from 0), a misspelt card is blamed on the field it was typed in, and scores that are
    not numbers are asked for again."""
    api = Api(server.base)
    player = api.guest("Formas")["player"]
    page = page_for(browser, server, DESKTOP, api, player)
    page.goto("/#/games")
    page.click("#typed-analysis")

    def refusal(hands: list[str], plays: str, scores: str = "0 0 0 0") -> str:
        page.evaluate("document.querySelector('#analysis-board').replaceChildren()")
        for s, cards in enumerate(hands):
            page.fill(f"#typed-hand-{s}", cards)
        page.fill("#typed-plays", plays)
        page.fill("#typed-scores", scores)
        page.click("#typed-go")
        page.wait_for_selector("dialog[open] .review-error")
        return str(page.inner_text("dialog[open] .review-error"))

    clubs = "2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC"
    diamonds = "2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD AD"
    said = refusal(["QS KS", "", "", ""], "")
    assert "seat 1 holds 2 cards" in said, said
    said = refusal([clubs, diamonds, "", ""], "2C 3C")
    assert "action 2 (seat 2 plays 3C): seat 2 does not hold 3C" in said, said
    said = refusal(["", "", "", ""], "2C ZZ")
    assert said.startswith('Cards played so far, in order: "ZZ" is not a card'), said
    said = refusal(["", "2C 3C x", "", ""], "")
    assert said.startswith('Seat 2: "X" is not a card'), said
    for scores in ("0 0 x 0", "1 2 3"):
        said = refusal(["", "", "", ""], "2C", scores)
        assert said == "Scores before this hand: type 4 whole numbers, one per seat, or leave it empty", said
    assert page.errors == []
    page.context.close()


def test_every_seat_is_reviewed_one_after_the_other(browser: Any, server: LocalServer) -> None:
    api, player, game = played(server, "Todos")
    page = page_for(browser, server, DESKTOP, api, player)
    page.goto(f"/#/replay/{game}")
    page.wait_for_selector("#review-go")
    page.select_option("#review-seat", "all")
    page.select_option("#review-depth", "quick")
    page.evaluate(SEE_PROGRESS)
    page.click("#review-go")
    page.wait_for_selector("text=Every seat is reviewed.", timeout=8 * PATIENCE * 1000)
    assert page.locator(".review-summary tbody tr").count() == 4
    said = page.evaluate("window.__progress")
    assert any(s.startswith("Reviewing Bot 4") for s in said), said
    seats = api.request("GET", f"/api/games/{game}/reviews")["seats"]
    assert [s["status"] for s in seats] == ["done"] * 4
    # every seat's marks are stepped through together, in the order of the game
    marks = {(d["hand"], d["trick"], d["kind"]) for s in seats for d in s["review"]["decisions"] if d["label"]}
    assert marks
    assert page.errors == []
    page.context.close()


def test_a_busy_server_is_asked_again_and_the_review_comes(browser: Any, server: LocalServer) -> None:
    """Two reviews of another game already running (the most a process runs): the page says so, asks
    again, and gets its review."""
    other_api, _, other = played(server, "Otro", hands=3)  # long enough to keep both reviews running
    api, player, game = played(server, "Paciente")
    for seat in (1, 2):
        assert other_api.request("POST", f"/api/games/{other}/review?seat={seat}")["status"] == "running"
    page = page_for(browser, server, DESKTOP, api, player)
    page.goto(f"/#/replay/{game}")
    page.wait_for_selector("#review-go")
    page.select_option("#review-seat", "0")
    page.select_option("#review-depth", "quick")
    page.click("#review-go")
    page.wait_for_selector("text=reviewing other games")
    page.wait_for_selector(".review-summary tbody tr[data-seat='0']", timeout=6 * PATIENCE * 1000)
    assert page.locator(".review-error").count() == 0
    assert page.errors == []
    page.context.close()
