"""What the server sends for a browser's safety, checked over HTTP and in a real headless Chromium.

* Every page and answer carries a Content-Security-Policy (scripts, styles and everything else from
  the server itself only; no plugin, no ``<base>``, never inside a frame), ``X-Frame-Options: DENY``,
  ``X-Content-Type-Options: nosniff`` and ``Referrer-Policy: no-referrer``; the API's answers (a
  token, an invite link, a pad's editing key) are never stored by a cache (``Cache-Control: no-store``).
* A page on another site cannot frame the app (so it cannot lay it under a decoy and steer a click
  onto *Join*, *Remove* or *Sign out other devices*).
* The app runs whole under that policy: the lobby, a table with its cards, the analysis board's bars
  draw without one violation.
* A finished game's record, whatever its table was named, downloads as JSON, never shown as a page.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from corazones.server.client import Api, TableClient, drain, play_to_end
from corazones.server.local import LocalServer
from tests.helpers import HUMAN, PATIENCE, RANDOM, watched_page

DESKTOP = {"width": 1280, "height": 800}
HOSTILE = '<img src=x onerror="window.__pwned=1">'


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalServer]:
    db = tmp_path_factory.mktemp("web-safety") / "corazones.sqlite"
    with LocalServer(f"sqlite:///{db}", grace=60.0, bot_delay=0.0) as srv:
        yield srv


def csp_of(response: httpx.Response) -> dict[str, str]:
    """The Content-Security-Policy of an answer, directive by directive."""
    policy = response.headers.get("content-security-policy", "")
    out = {}
    for part in policy.split(";"):
        name, _, value = part.strip().partition(" ")
        if name:
            out[name] = value.strip()
    return out


def test_every_answer_says_what_a_browser_may_do_with_it(server: LocalServer) -> None:
    api = Api(server.base)
    api.guest("Ana")
    with httpx.Client(base_url=server.base) as http:
        answers = {
            "the app": http.get("/"),
            "a script": http.get("/js/app.js"),
            "the score pad": http.get("/pad/"),
            "the score pad, without its slash": http.get("/pad"),
            "the options": http.get("/api/options"),
            "a page not there": http.get("/nothing-here"),
            "a token": http.post("/api/auth/guest", json={"name": "Bea"}),
            "a refusal": http.post("/api/tables", json={}),
        }
        docs = http.get("/api/docs")
    for what, r in answers.items():
        policy = csp_of(r)
        assert policy.get("default-src") == "'self'", (what, r.headers)
        assert policy.get("script-src") == "'self'", (what, policy)
        assert policy.get("style-src") == "'self'", (what, policy)
        assert policy.get("object-src") == "'none'" and policy.get("base-uri") == "'none'", (what, policy)
        assert policy.get("frame-ancestors") == "'none'", (what, policy)
        assert r.headers.get("x-frame-options") == "DENY", (what, r.headers)
        assert r.headers.get("x-content-type-options") == "nosniff", (what, r.headers)
        assert r.headers.get("referrer-policy") == "no-referrer", (what, r.headers)
    # the API's answers carry tokens, invite links and pad keys: no cache keeps them
    for what in ("the options", "a token", "a refusal"):
        assert "no-store" in answers[what].headers.get("cache-control", ""), (what, answers[what].headers)
    assert answers["a token"].json()["token"]
    # the interactive API docs load their own page's scripts, sandboxed, framed by no one
    assert docs.status_code == 200 and csp_of(docs).get("frame-ancestors") == "'none'"
    assert csp_of(docs).get("sandbox") == "allow-scripts"
    assert docs.headers.get("x-frame-options") == "DENY"


def test_a_record_downloads_as_json_whatever_its_table_is_named(server: LocalServer) -> None:
    api = Api(server.base)
    api.guest("Cleo")
    info = api.create(preset="standard", options={"hands": 1, "target": None}, name=HOSTILE, takeover_level="random")
    c = TableClient(api, info["id"])
    play_to_end([c], timeout=2 * PATIENCE)
    drain(c)
    c.close()
    r = httpx.get(f"{server.base}/api/games/{info['id']}/record")
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("application/json")
    assert r.headers["content-disposition"].startswith("attachment;")
    assert r.headers["x-content-type-options"] == "nosniff"
    assert "default-src 'self'" in r.headers["content-security-policy"]


def test_another_site_cannot_frame_the_app(browser: Any, server: LocalServer) -> None:
    context = browser.new_context(viewport=DESKTOP)
    page = watched_page(context)
    for path in ("/", "/pad/"):
        page.set_content(f'<iframe id="decoy" src="{server.base}{path}" width="800" height="600"></iframe>')
        frame = page.frame_locator("#decoy")
        # the framed document never becomes the app (Chromium puts its own error page there instead)
        page.wait_for_timeout(500)
        page.wait_for_load_state("load")
        child = page.frames[1] if len(page.frames) > 1 else None
        assert child is not None
        assert child.evaluate("document.querySelector('#view, #pad-main') === null"), path
        assert frame.locator("#view, #pad-main").count() == 0, path
    context.close()


def test_the_app_runs_whole_under_its_policy(browser: Any, server: LocalServer) -> None:
    api = Api(server.base)
    player = api.guest("Dora")["player"]
    info = api.create(preset="standard", seats=[HUMAN, RANDOM, RANDOM, RANDOM], name=HOSTILE, takeover_level="random")
    context = browser.new_context(viewport=DESKTOP, base_url=server.base)
    context.add_init_script(
        "window.__violations = [];"
        "document.addEventListener('securitypolicyviolation',"
        " e => window.__violations.push(e.violatedDirective + ' ' + e.blockedURI + ' ' + (e.sample || '')));"
        "localStorage.setItem('corazones.lang', 'en');"
        f"localStorage.setItem('corazones.token', '{api.token}');"
        f"localStorage.setItem('corazones.player', JSON.stringify({{id: {player['id']}, name: 'Dora'}}));"
    )
    page = watched_page(context)
    page.goto("/#/")
    page.wait_for_selector("#guest-name, table.list, .lobby", state="attached")
    page.goto(f"/#/table/{info['id']}")
    page.wait_for_selector(".hand .card svg")
    # the analysis board's bars are sized without an inline style attribute
    widths = page.evaluate(
        """async () => {
          const { boardView } = await import('/js/analysis.js');
          const board = {
            analysis: {seat: 0, worlds: 40, open_hands: false, cards: [
              {card: '2C', points: 0, value: 0, loss: 0}, {card: 'QS', points: 13, value: 9, loss: 3}]},
            rules: {settlement: 'points'}, chosen: '2C', trick_cards: [], seat: 0, scores: [0, 0, 0, 0],
            points_taken: [0, 0, 0, 0], hand: 1, trick: 1, cards_held: ['2C', 'QS'],
          };
          const view = boardView(board, (s) => 'Seat ' + s, null);
          document.body.append(view);
          return [...view.querySelectorAll('.loss-bar')].map((b) => b.getBoundingClientRect().width);
        }"""
    )
    assert widths == [0, 60], widths
    assert page.evaluate("window.__pwned") is None
    assert page.evaluate("window.__violations") == []
    assert page.errors == []
    context.close()


def test_a_link_alone_never_seats_someone_signed_in(browser: Any, server: LocalServer) -> None:
    """A table's link (``/?table=ID``, made by anyone for any public table) asks a person already signed in
    before it seats them, as it asks a newcomer: seated, a game that starts at once would count in their
    statistics and rating even if they then left."""
    host = Api(server.base)
    host.guest("Host")
    info = host.create(preset="standard", seats=[HUMAN, HUMAN, RANDOM, RANDOM], takeover_level="random")
    visitor = Api(server.base)
    me = visitor.guest("Vera")["player"]
    context = browser.new_context(viewport=DESKTOP, base_url=server.base)
    context.add_init_script(
        "localStorage.setItem('corazones.lang', 'en');"
        f"localStorage.setItem('corazones.token', '{visitor.token}');"
        f"localStorage.setItem('corazones.player', JSON.stringify({{id: {me['id']}, name: 'Vera'}}));"
    )
    page = watched_page(context)

    def seated() -> bool:
        return any(s.get("player") == me["id"] for s in host.table(info["id"])["seats"])

    page.goto(f"/?table={info['id']}")
    page.wait_for_selector("#invite-go")
    assert "Host" in page.inner_text("#view")  # the table is named before anyone decides
    assert not seated() and host.table(info["id"])["status"] == "open"
    # the home link leaves the question as it leaves any screen
    page.click("a.brand")
    page.wait_for_selector("#invite-go", state="detached")
    assert not seated()

    page.goto(f"/?table={info['id']}")
    page.wait_for_selector("#invite-go")
    page.get_by_role("button", name="Just watch").click()
    page.wait_for_selector("text=You are watching this table.")
    assert not seated() and host.table(info["id"])["status"] == "open"

    page.goto(info["invite_url"])
    page.click("#invite-go")
    page.wait_for_selector(".hand .card")
    assert seated() and host.table(info["id"])["status"] == "playing"
    assert page.errors == []
    context.close()


def test_a_chat_line_of_one_long_word_wraps_in_the_chat(browser: Any, server: LocalServer) -> None:
    """Anyone at a table can send 300 letters without a space: the line wraps inside the chat, which never
    has to be scrolled sideways to read it (nor the page)."""
    api = Api(server.base)
    player = api.guest("Eva")["player"]
    info = api.create(preset="standard", seats=[HUMAN, RANDOM, RANDOM, RANDOM], takeover_level="random")
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, base_url=server.base)
    context.add_init_script(
        "localStorage.setItem('corazones.lang', 'en');"
        f"localStorage.setItem('corazones.token', '{api.token}');"
        f"localStorage.setItem('corazones.player', JSON.stringify({{id: {player['id']}, name: 'Eva'}}));"
    )
    page = watched_page(context)
    page.goto(f"/#/table/{info['id']}")
    page.wait_for_selector(".hand .card")
    page.click("#tab-chat")
    page.fill("#chat-input", "Z" * 300)
    page.press("#chat-input", "Enter")
    page.wait_for_selector(".chat-msgs li")
    sizes = page.evaluate(
        "(() => { const l = document.querySelector('.chat-msgs');"
        " return [l.scrollWidth, l.clientWidth, document.documentElement.scrollWidth, innerWidth]; })()"
    )
    assert sizes[0] <= sizes[1] and sizes[2] <= sizes[3], sizes
    assert page.errors == []
    context.close()


def test_the_api_docs_third_party_scripts_cannot_read_a_sign_in(browser: Any, server: LocalServer) -> None:
    """``/api/docs`` is FastAPI's page, which runs the Swagger UI from a CDN: it runs sandboxed, in an origin of
    its own, so that script never reads the token the web app keeps in this origin's ``localStorage``; the
    API's description it shows (``/openapi.json``, public) may be read from there."""
    context = browser.new_context(viewport=DESKTOP, base_url=server.base)
    page = watched_page(context)
    page.route("https://**/*", lambda route: route.abort())  # the CDN (and nothing else) is out of reach here
    page.goto("/")
    page.evaluate("localStorage.setItem('corazones.token', 'secret-token')")
    page.goto("/api/docs")
    assert page.evaluate("window.origin") == "null"
    read = "(() => { try { return localStorage.getItem('corazones.token'); } catch (e) { return 'refused'; } })()"
    assert page.evaluate(read) == "refused"
    described = page.evaluate("fetch('/openapi.json').then((r) => r.json()).then((d) => d.info.title)")
    assert described == "Corazones"
    context.close()
