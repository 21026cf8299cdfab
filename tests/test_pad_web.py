"""The score pad on the web: the HTTP API (SQLite), and a whole game entered on a phone in headless Chromium.

The browser story: a phone-sized window makes a pad, enters hands by tapping (steppers, who took Q♠,
the moon choice), is refused a hand that does not add up, undoes, edits an earlier hand, uses the
points way, and ends the game; a second phone opened on the share link follows every change live
and reads the result in Spanish.
"""

from __future__ import annotations

import contextlib
import csv
import io
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from corazones.core.pad import loads
from corazones.core.rules import OPTION_NAMES, PRESETS
from corazones.server import options
from corazones.server.app import create_app
from corazones.server.hub import Settings
from corazones.server.routes import pad as pad_routes
from corazones.server.schema import RulesOptions
from tests.helpers import in_own_thread, save_screenshot, watched_page

PHONE = {"width": 390, "height": 844}


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(Settings(db_url=f"sqlite:///{tmp_path / 'pad.db'}"), static_dir=None)) as c:
        yield c


def make(client: TestClient, **body: Any) -> tuple[str, dict[str, str]]:
    body = {"preset": "standard", "names": ["Ana", "Bea", "Carl", "Dan"], **body}
    r = client.post("/api/pads", json=body)
    assert r.status_code == 201, r.text
    made = r.json()
    return made["id"], {"X-Pad-Key": made["key"]}


def test_api_create_enter_refuse_edit_undo(client: TestClient) -> None:
    pid, key = make(client, options={"target": 60})
    r = client.post(f"/api/pads/{pid}/hands", json={"counts": [3, 4, 6, 0], "cards": {"QS": [2]}}, headers=key)
    assert r.status_code == 200 and r.json()["totals"] == [3, 4, 19, 0] and r.json()["version"] == 2
    r = client.post(f"/api/pads/{pid}/hands", json={"counts": [3, 4, 5, 0], "cards": {"QS": [2]}}, headers=key)
    assert r.status_code == 422
    assert r.json()["detail"]["reason"] == {
        "template": "the {cards} cards add up to {got}, but {want} are in play",
        "params": {"cards": "♥", "got": 12, "want": 13},
    }
    r = client.post(f"/api/pads/{pid}/hands", json={"points": [13, 0, 0, 13]}, headers=key)
    assert r.json()["totals"] == [16, 4, 19, 13]
    r = client.put(f"/api/pads/{pid}/hands/1", json={"counts": [0, 4, 6, 3], "cards": {"QS": [0]}}, headers=key)
    assert r.json()["totals"] == [26, 4, 6, 16] and [row["totals"] for row in r.json()["rows"]] == [
        [13, 4, 6, 3],
        [26, 4, 6, 16],
    ]
    r = client.delete(f"/api/pads/{pid}/hands/2", headers=key)
    assert r.json()["totals"] == [13, 4, 6, 3] and r.json()["version"] == 5
    view = client.get(f"/api/pads/{pid}").json()
    assert view["leaders"] == [3] and view["layouts"]["H"]["named"][0]["glyph"] == "Q♠"
    csv = client.get(f"/api/pads/{pid}/sheet.csv")
    assert csv.headers["content-type"].startswith("text/csv") and csv.text.splitlines()[1] == "1,13,4,6,3,13,4,6,3,,"
    assert loads(client.get(f"/api/pads/{pid}/pad.json").text).totals == (13, 4, 6, 3)


def test_api_sheet_csv_never_holds_a_formula(client: TestClient) -> None:
    """Names and notes that a spreadsheet would run (=HYPERLINK, +1+1, @SUM, a DDE call) come as text; -26 a number."""
    names = ['=HYPERLINK("http://evil","x")', "+1+1", "@SUM(A1)", "=cmd|' /C calc'!A0"]
    pid, key = make(client, names=names)
    hand = {"counts": [0, 13, 0, 0], "cards": {"QS": [1]}, "moon": "subtract_from_self", "note": "-2+3"}
    assert client.post(f"/api/pads/{pid}/hands", json=hand, headers=key).status_code == 200
    hand = {"counts": [3, 4, 6, 0], "cards": {"QS": [2]}, "note": "\t=1+1"}
    assert client.post(f"/api/pads/{pid}/hands", json=hand, headers=key).status_code == 200
    rows = list(csv.reader(io.StringIO(client.get(f"/api/pads/{pid}/sheet.csv").text, newline="")))
    cells = [cell for row in rows for cell in row]
    assert [c for c in cells if c[:1] in ("=", "+", "-", "@", "\t", "\r") and not re.fullmatch(r"-\d+", c)] == []
    assert rows[0][1:5] == ["'" + name for name in names]
    assert rows[1] == ["1", "0", "-26", "0", "0", "0", "-26", "0", "0", "'+1+1 subtract_from_self", "'-2+3"]
    assert rows[2][-1] == "'\t=1+1"
    # the pad file itself keeps every name and note as it was typed
    assert loads(client.get(f"/api/pads/{pid}/pad.json").text).names == tuple(names)


def test_api_chips_and_revokes(client: TestClient) -> None:
    pid, key = make(client, preset="hearts_1887", names=["Ana", "Bea", "Carl"], options={"players": 3, "stake": 30})
    hand = {"counts": [4, 4, 5], "revokes": [{"seat": 2, "to_avoid_all": False}]}
    view = client.post(f"/api/pads/{pid}/hands", json=hand, headers=key).json()
    assert view["chips"] == [32, 32, 12] and view["pool"] == 14 and view["rows"][0]["revokes"] == [2]


def test_api_refuses_without_the_key_or_with_bad_input(client: TestClient) -> None:
    pid, key = make(client)
    assert client.post(f"/api/pads/{pid}/hands", json={"points": [26, 0, 0, 0]}).status_code == 403
    bad_key = {"X-Pad-Key": "nope"}
    assert client.post(f"/api/pads/{pid}/hands", json={"points": [26, 0, 0, 0]}, headers=bad_key).status_code == 403
    assert client.get("/api/pads/missing").status_code == 404
    assert client.post("/api/pads", json={"preset": "nope", "names": []}).status_code == 422
    r = client.post("/api/pads", json={"preset": "standard", "names": ["a", "b"]})
    assert r.status_code == 422 and r.json()["detail"]["reason"]["template"].startswith("name each of the")
    r = client.post("/api/pads", json={"preset": "standard", "names": ["a"] * 4, "options": {"players": 99}})
    assert r.status_code == 422
    r = client.post(f"/api/pads/{pid}/hands", json={"counts": [13, 0, 0, 0], "extra": 1}, headers=key)
    assert r.status_code == 422 and "unknown field" in r.json()["detail"]["message"]
    r = client.delete(f"/api/pads/{pid}/hands/1", headers=key)
    assert r.status_code == 422 and r.json()["detail"]["reason"]["template"] == "there is no hand yet"


def test_api_follower_waits_for_a_change(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pad_routes, "WAIT", 0.3)
    monkeypatch.setattr(pad_routes, "POLL", 0.05)
    pid, key = make(client)
    start = time.monotonic()
    assert client.get(f"/api/pads/{pid}?after=1").json()["version"] == 1  # nothing new: answers after WAIT
    assert time.monotonic() - start >= 0.25
    client.post(f"/api/pads/{pid}/hands", json={"points": [13, 13, 0, 0]}, headers=key)
    assert client.get(f"/api/pads/{pid}?after=1").json()["version"] == 2


def test_api_two_writers_cannot_overwrite_each_other(client: TestClient) -> None:
    from corazones.services.store import pads as db

    pid, _key = make(client)
    store = client.app.state.store  # type: ignore[attr-defined]
    stored = db.get_pad(store, pid)
    assert stored is not None
    db.save_pad(store, pid, stored.data, stored.version)
    with pytest.raises(db.PadConflict):
        db.save_pad(store, pid, stored.data, stored.version)


def test_api_an_edit_or_delete_made_on_an_older_sheet_is_refused(client: TestClient) -> None:
    """Edits name a hand by its number: after another editor's delete, hand 2 is another hand."""
    pid, key = make(client)
    for counts in ([3, 4, 6, 0], [0, 0, 13, 0], [1, 1, 1, 10]):
        r = client.post(f"/api/pads/{pid}/hands", json={"counts": counts, "cards": {"QS": [0]}}, headers=key)
    seen = r.json()["version"]  # editor A opens hand 2 (Carl's 13 hearts) ...
    assert client.delete(f"/api/pads/{pid}/hands/1?seen={seen}", headers=key).status_code == 200  # ... B deletes 1
    edit = {"counts": [0, 0, 12, 1], "cards": {"QS": [0]}}
    r = client.put(f"/api/pads/{pid}/hands/2?seen={seen}", json=edit, headers=key)
    assert r.status_code == 409 and r.json()["detail"]["code"] == "conflict"  # hand 2 is no longer Carl's hand
    r = client.delete(f"/api/pads/{pid}/hands/2?seen={seen}", headers=key)
    assert r.status_code == 409
    now = client.get(f"/api/pads/{pid}").json()
    assert [row["scores"] for row in now["rows"]] == [[13, 0, 13, 0], [14, 1, 1, 10]]  # nothing was changed
    r = client.put(f"/api/pads/{pid}/hands/1?seen={now['version']}", json=edit, headers=key)
    assert r.status_code == 200 and r.json()["rows"][0]["scores"] == [13, 0, 12, 1]
    r = client.put(f"/api/pads/{pid}/hands/1", json=edit, headers=key)  # without seen: as before, last write wins
    assert r.status_code == 200


# ------------------------------------------------------------- the browser
@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed")
    from corazones.server.local import LocalServer

    db = tmp_path_factory.mktemp("padweb") / "corazones.sqlite"
    with LocalServer(f"sqlite:///{db}") as srv:
        yield srv


def phone(browser: Any, server: Any, lang: str = "en") -> Any:
    context = browser.new_context(viewport=PHONE, base_url=server.base, has_touch=True, is_mobile=True)
    context.add_init_script(f"localStorage.setItem('corazones.lang', '{lang}');")
    page = watched_page(context)
    return page


def tap(page: Any, name: str, times: int = 1) -> None:
    for _ in range(times):
        page.get_by_role("button", name=name, exact=True).click()


def who_took(page: Any, card: str, player: str) -> None:
    page.get_by_role("group", name=f"Who took {card}").get_by_role("button", name=player, exact=True).click()


def totals(page: Any) -> list[list[int]]:
    """Each row's running totals as the sheet shows them."""
    return [
        [int(x) for x in row]
        for row in page.eval_on_selector_all(
            ".pad-table tbody tr",
            "rows => rows.map(r => [...r.querySelectorAll('.pad-total')].map(c => c.textContent))",
        )
    ]


def shot(page: Any, name: str) -> None:
    save_screenshot(page, f"pad-{name}", full_page=True)


def points(page: Any, values: list[int]) -> None:
    tap(page, "Points")
    for name, v in zip(["Ana", "Bea", "Carl", "Dan"], values):
        field = page.get_by_role("spinbutton", name=name, exact=True)
        field.fill(str(v))
        field.press("Tab")


def test_a_whole_game_on_a_phone_with_a_live_follower(chromium_path: str, server: Any) -> None:
    pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed")
    in_own_thread(in_chromium, chromium_path, server, whole_game_in)


def in_chromium(chromium_path: str, server: Any, story: Any) -> None:
    """``story(browser, server)`` in a headless Chromium of its own, closed after it."""
    from playwright.sync_api import sync_playwright

    from tests.helpers import launch_chromium

    with sync_playwright() as playwright:
        browser = launch_chromium(playwright, chromium_path)
        try:
            story(browser, server)
        finally:
            browser.close()


def whole_game_in(browser: Any, server: Any) -> None:
    page = phone(browser, server)
    page.goto("/pad/")
    for i, name in enumerate(["Ana", "Bea", "Carl", "Dan"]):
        page.get_by_placeholder(f"Player {i + 1}", exact=True).fill(name)
    page.fill("#pad-target", "60")
    shot(page, "new")
    page.click("#pad-create")
    page.wait_for_url(re.compile(r"/pad/#[\w-]+\.[\w-]+$"))
    editor_link = page.url

    # hand 1 by taps: Ana 3 hearts, Bea 4, Carl the rest (6); Q♠ to Carl
    tap(page, "Ana: one more", 3)
    tap(page, "Bea: one more", 4)
    tap(page, "Add hand")
    page.wait_for_selector("#pad-error:has-text('add up to 7, but 13 are in play')")
    tap(page, "Carl: the rest")
    who_took(page, "Q♠", "Carl")
    tap(page, "Add hand")
    page.wait_for_function("() => document.querySelectorAll('.pad-table tbody tr').length === 1")
    assert totals(page) == [[3, 4, 19, 0]]

    # a second phone follows the share link
    follower = phone(browser, server)
    follower.goto(page.input_value("#pad-share-link"))
    follower.wait_for_function("() => document.querySelectorAll('.pad-table tbody tr').length === 1")
    assert follower.locator("#pad-add").count() == 0  # the share link only follows

    # hand 2: Ana takes everything and adds 26 to the others
    tap(page, "Ana: the rest")
    who_took(page, "Q♠", "Ana")
    tap(page, "Add hand")
    page.wait_for_selector("#pad-error:has-text('choose whether they subtract 26')")
    tap(page, "Add 26 to the others")
    tap(page, "Add hand")
    page.wait_for_function("() => document.querySelectorAll('.pad-table tbody tr').length === 2")
    assert totals(page)[-1] == [3, 30, 45, 26]
    follower.wait_for_function("() => document.querySelectorAll('.pad-table tbody tr').length === 2")
    assert "🌙" in follower.inner_text(".pad-table tbody tr:nth-child(2) th")

    # undo, and the follower sees it too; then enter it again
    tap(page, "Undo last hand")
    page.wait_for_function("() => document.querySelectorAll('.pad-table tbody tr').length === 1")
    follower.wait_for_function("() => document.querySelectorAll('.pad-table tbody tr').length === 1")
    tap(page, "Ana: the rest")
    who_took(page, "Q♠", "Ana")
    tap(page, "Add 26 to the others")
    tap(page, "Add hand")
    page.wait_for_function("() => document.querySelectorAll('.pad-table tbody tr').length === 2")

    # edit hand 1: the Q♠ went to Dan, not Carl; every row after it is recomputed
    page.get_by_role("row", name="Edit hand 1").click()
    page.wait_for_selector("#pad-save")
    who_took(page, "Q♠", "Dan")
    shot(page, "edit")
    page.click("#pad-save")
    page.wait_for_function("() => !document.getElementById('pad-save')")
    assert totals(page) == [[3, 4, 6, 13], [3, 30, 32, 39]]

    # the points way, to the end of the game; a revoke is recorded on the row
    points(page, [0, 0, 13, 13])
    tap(page, "Record a revoke")
    page.get_by_role("group", name="Who revoked").get_by_role("button", name="Bea", exact=True).click()
    tap(page, "Add hand")
    page.wait_for_function("() => document.querySelectorAll('.pad-table tbody tr').length === 3")
    assert page.locator(".pad-near").inner_text() == "Close to 60: Dan"
    assert "⚠" in page.inner_text(".pad-table tbody tr:nth-child(3) th")
    points(page, [0, 0, 13, 13])
    tap(page, "Add hand")
    page.wait_for_selector(".pad-winner")
    assert totals(page)[-1] == [3, 30, 58, 65]
    assert page.inner_text(".pad-winner") == "Game over. Winner(s): Ana"
    shot(page, "over")

    follower.wait_for_selector(".pad-winner")
    follower.click("[data-lang=es]")
    follower.wait_for_selector(".pad-winner:has-text('Fin de la partida. Gana(n): Ana')")
    assert follower.inner_text("#pad-heading") == "Hoja de tanteo"
    shot(follower, "follower-es")
    assert page.errors == [] and follower.errors == []
    assert editor_link.endswith(page.url.split("#")[1])
    page.context.close()
    follower.context.close()


@pytest.fixture(params=["sqlite", "postgresql"])
def pad_store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Any]:
    from corazones.services.store import Store
    from tests.helpers import sqlalchemy_url

    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path}/pads.db"
    else:
        url = sqlalchemy_url(request.getfixturevalue("fresh_postgres_url"))
    store = Store(url).migrate()
    try:
        yield store
    finally:
        store.close()


def test_pads_are_stored_with_a_key_hash_and_versions(pad_store: Any) -> None:
    from corazones.services.store import pads as db

    pid, key = db.new_pad(pad_store, '{"x": 1}')
    assert db.key_matches(pad_store, pid, key) and not db.key_matches(pad_store, pid, key + "x")
    assert not db.key_matches(pad_store, "missing", key)
    assert db.save_pad(pad_store, pid, '{"x": 2}', 1) == 2
    with pytest.raises(db.PadConflict):
        db.save_pad(pad_store, pid, '{"x": 3}', 1)
    stored = db.get_pad(pad_store, pid)
    assert stored is not None and stored.data == '{"x": 2}' and stored.version == 2
    assert db.pad_version(pad_store, pid) == 2 and db.get_pad(pad_store, "missing") is None


# ------------------------------------------------------------- the setup's options
def test_api_setup_takes_every_option_of_the_sheet_and_names_what_is_wrong(client: TestClient) -> None:
    pid, _key = make(
        client,
        preset="omnibus",
        options={"target": None, "hands": 5, "moon": "add_to_others", "passes": ["left", "right"]},
    )
    rules = client.get(f"/api/pads/{pid}").json()["rules"]
    assert (rules["target"], rules["hands"], rules["moon"]) == (None, 5, "add_to_others")
    pad = loads(client.get(f"/api/pads/{pid}/pad.json").text)
    assert pad.rules.passes == ("left", "right") and pad.rules.hearts == "one"

    pid, _key = make(
        client,
        preset="hearts_1887",
        names=["Ana", "Bea", "Carl"],
        options={"players": 3, "stake": 30},
        revoke_penalty=8,
    )
    view = client.get(f"/api/pads/{pid}").json()
    assert view["rules"]["revoke_penalty"] == 8 and view["chips"] == [30, 30, 30]

    def refused(**body: Any) -> dict[str, Any]:
        r = client.post("/api/pads", json={"preset": "standard", "names": ["A", "B", "C", "D"], **body})
        assert r.status_code == 422, r.text
        detail: dict[str, Any] = r.json()["detail"]
        assert detail["code"] == "malformed" and detail["message"] == english(detail["reason"])
        return detail["reason"]  # type: ignore[no-any-return]

    def english(reason: dict[str, Any]) -> str:
        """A reason filled, any reason nested as a parameter (the rules' own error) filled first."""
        params = {k: english(v) if isinstance(v, dict) else v for k, v in reason["params"].items()}
        return str(reason["template"]).format(**params)

    # The same refusals as a new table's (tests/test_server_options.py): the option and what it allows.
    moon = refused(options={"moon": "sideways"})
    assert moon["template"] == options.ONE_OF
    assert moon["params"]["choices"] == "choice, add_to_others, subtract_from_self, off"
    assert refused(options={"targte": 50})["params"]["option"] == '"targte"'
    assert refused(options={"target": "100"})["template"] == options.WHOLE_NUMBER_OR_NULL  # a number, not text
    assert refused(options={"target": 0})["params"] == {"option": "target", "least": 1, "most": 1000, "value": "0"}
    assert refused(preset="nope")["template"] == options.UNKNOWN_PRESET
    r = client.post("/api/pads", json={"preset": "standard", "names": ["a"] * 4, "revoke_penalty": -1})
    assert r.status_code == 422 and r.json()["detail"]["message"].startswith("revoke_penalty: ")
    # How options go together is the rules' own check; the page translates the refusal.
    assert refused(names=list("ABCDE"), options={"players": 5, "passes": ["across"]}) == {
        "template": options.RULES_REFUSE,
        "params": {
            "why": {
                "template": "passing 'across' needs an even number of players, not {players}",
                "params": {"players": 5},
            },
            "options": 'preset = "standard", players = 5, passes = ["across"]',
        },
    }


def test_the_setup_schema_types_every_option_of_the_rules() -> None:
    """An option added to the rules needs its typed field in ``RulesOptions`` too: without one, the pad
    (the page and ``POST /api/pads``) would refuse it as an extra input."""
    assert set(RulesOptions.model_fields) == OPTION_NAMES


def test_the_setup_on_a_phone_in_spanish(chromium_path: str, server: Any) -> None:
    pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed")
    in_own_thread(in_chromium, chromium_path, server, setup_in)


def setup_in(browser: Any, server: Any) -> None:
    page = phone(browser, server, "es")
    page.goto("/pad/")
    # Every preset of the core, by its title in the page's language (the page fills the list once its script ran).
    page.wait_for_function("() => document.querySelectorAll('#pad-preset option').length > 0")
    titles = page.eval_on_selector_all("#pad-preset option", "os => os.map(o => [o.value, o.textContent])")
    assert [v for v, _ in titles] == list(PRESETS) and ("omnibus", "Corazones ómnibus") in [tuple(x) for x in titles]

    # A combination the rules refuse: said in Spanish, in the rules' own words, with the options given.
    page.fill("#pad-players", "5")
    assert page.locator(".pad-names input").count() == 5
    page.select_option("#pad-passes", label="enfrente")
    page.click("#pad-create")
    page.wait_for_selector("#pad-create-error:has-text('necesita un número par de jugadores')")
    assert 'passes = ["across"]' in page.inner_text("#pad-create-error")

    # The 1887 game with chips and an agreed revoke penalty, found under "More rules".
    page.select_option("#pad-preset", "hearts_1887")
    page.fill("#pad-players", "3")
    for i, name in enumerate(["Ana", "Bea", "Carl"]):
        page.get_by_placeholder(f"Jugador {i + 1}", exact=True).fill(name)
    assert not page.is_visible("#pad-stake")
    page.click("details.pad-more summary")
    page.fill("#pad-stake", "30")
    page.fill("#pad-revoke-penalty", "8")
    shot(page, "setup-es")
    page.click("#pad-create")
    page.wait_for_url(re.compile(r"/pad/#[\w-]+\.[\w-]+$"))
    page.wait_for_selector(".pad-rules")
    pad_id = page.url.split("#")[1].split(".")[0]
    view = page.evaluate(f"fetch('/api/pads/{pad_id}').then(r => r.json())")
    assert view["names"] == ["Ana", "Bea", "Carl"] and view["chips"] == [30, 30, 30]
    assert view["rules"]["revoke_penalty"] == 8 and view["rules"]["settlement"] == "chips_1887"
    assert "renuncio: 8 fichas" in page.inner_text(".pad-rules")
    assert page.inner_text(".pad-title").startswith("Corazones de 1887 (fichas) · 3 jugadores")
    assert page.errors == []
    page.context.close()


def test_the_setup_keeps_what_was_typed_when_the_language_changes(chromium_path: str, server: Any) -> None:
    pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed")
    in_own_thread(in_chromium, chromium_path, server, language_switch_in)


def language_switch_in(browser: Any, server: Any) -> None:
    """Names, options and the revoke penalty typed into the setup survive EN -> ES -> EN, and the pad
    made afterwards has them (the fields drawn again are the ones the page reads)."""
    page = phone(browser, server)
    page.goto("/pad/")
    page.wait_for_function("() => document.querySelectorAll('#pad-preset option').length > 0")
    page.select_option("#pad-preset", "hearts_1887")
    page.fill("#pad-players", "5")
    names = ["Ana", "Bea", "Carl", "Dan", "Eva"]
    for i, name in enumerate(names):
        page.get_by_placeholder(f"Player {i + 1}", exact=True).fill(name)
    page.fill("#pad-hands", "6")
    page.click("details.pad-more summary")
    page.fill("#pad-stake", "30")
    page.fill("#pad-revoke-penalty", "8")

    def typed() -> dict[str, Any]:
        return {
            "preset": page.input_value("#pad-preset"),
            "players": page.input_value("#pad-players"),
            "names": page.eval_on_selector_all(".pad-names input", "xs => xs.map(x => x.value)"),
            "hands": page.input_value("#pad-hands"),
            "stake": page.input_value("#pad-stake"),
            "penalty": page.input_value("#pad-revoke-penalty"),
            "more open": page.eval_on_selector("details.pad-more", "d => d.open"),
            "penalty shown": page.is_visible("#pad-revoke-penalty"),
        }

    before = typed()
    assert before["names"] == names and before["penalty shown"]
    page.click("[data-lang=es]")
    page.wait_for_selector("#pad-create:has-text('Empezar la hoja')")
    assert typed() == before
    assert page.get_attribute(".pad-names input >> nth=4", "placeholder") == "Jugador 5"
    page.click("[data-lang=en]")
    page.wait_for_selector("#pad-create:has-text('Start the sheet')")
    assert typed() == before

    page.click("#pad-create")
    page.wait_for_url(re.compile(r"/pad/#[\w-]+\.[\w-]+$"))
    page.wait_for_selector(".pad-rules")
    pad_id = page.url.split("#")[1].split(".")[0]
    view = page.evaluate(f"fetch('/api/pads/{pad_id}').then(r => r.json())")
    assert view["names"] == names and view["chips"] == [30] * 5
    assert view["rules"]["hands"] == 6 and view["rules"]["revoke_penalty"] == 8
    assert page.errors == []
    page.context.close()


def test_counts_typed_into_the_boxes_on_a_phone(chromium_path: str, server: Any) -> None:
    pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed")
    in_own_thread(in_chromium, chromium_path, server, typed_counts_in)


def typed_counts_in(browser: Any, server: Any) -> None:
    """Typing each count into its box (tap the box, type, tap the next) keeps every number, and tapping
    *Add hand* (or *Save*) straight after typing adds the hand at the first tap: the panel is not drawn
    again under the finger."""
    page = phone(browser, server)
    page.goto("/pad/")
    page.wait_for_function("() => document.querySelectorAll('#pad-preset option').length > 0")
    for i, name in enumerate(["Ana", "Bea", "Carl", "Dan"]):
        page.get_by_placeholder(f"Player {i + 1}", exact=True).fill(name)
    page.click("#pad-create")
    page.wait_for_selector("#pad-add")

    def type_counts(values: list[int]) -> None:
        for name, v in zip(["Ana", "Bea", "Carl", "Dan"], values):
            page.get_by_role("spinbutton", name=name, exact=True).tap()
            page.keyboard.press("Control+A")
            page.keyboard.type(str(v))
            assert page.evaluate("() => document.activeElement.getAttribute('aria-label')") == name

    who_took(page, "Q♠", "Carl")
    type_counts([3, 4, 6, 0])
    page.get_by_role("button", name="Add hand", exact=True).tap()
    page.wait_for_function("() => document.querySelectorAll('.pad-table tbody tr').length === 1")
    assert totals(page) == [[3, 4, 19, 0]]

    # and with a mouse: an edit typed into the boxes is saved
    page.get_by_role("row", name="Edit hand 1").click()
    page.wait_for_selector("#pad-save")
    for name, v in [("Dan", "1"), ("Carl", "5")]:
        box = page.get_by_role("spinbutton", name=name, exact=True)
        box.fill(v)
        box.press("Tab")
        page.wait_for_function(  # the panel drawn again for the box left shows the count typed
            """([name, v]) => [...document.querySelectorAll('.pad-count')]
                 .some(e => e.getAttribute('aria-label') === name && e.value === v)""",
            arg=[name, v],
        )
    page.click("#pad-save")
    page.wait_for_function(
        "() => !document.getElementById('pad-save') || (document.getElementById('pad-error') || {}).textContent"
    )
    assert not page.evaluate("() => (document.getElementById('pad-error') || {}).textContent")
    assert totals(page) == [[3, 4, 18, 1]]
    assert page.errors == []
    page.context.close()


def test_the_pool_is_counted_in_words_of_each_language(chromium_path: str, server: Any) -> None:
    pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed")
    in_own_thread(in_chromium, chromium_path, server, pool_words_in)


def pool_words_in(browser: Any, server: Any) -> None:
    """The 1887 game's odd chip stays in the pool: one chip is "1 chip" ("1 ficha"), not "1 chips"."""
    page = phone(browser, server)
    page.goto("/pad/")
    made = page.evaluate(
        """() => fetch('/api/pads', {method: 'POST', headers: {'Content-Type': 'application/json'},
             body: JSON.stringify({preset: 'hearts_1887', names: ['Ana', 'Bea', 'Carl', 'Dan']})})
             .then(r => r.json())"""
    )
    hand = '{"counts": [13, 0, 0, 0], "cards": {}}'  # 13 chips shared by three: the odd one stays
    status = page.evaluate(
        f"""() => fetch('/api/pads/{made["id"]}/hands', {{method: 'POST', body: '{hand}',
             headers: {{'Content-Type': 'application/json', 'X-Pad-Key': '{made["key"]}'}}}}).then(r => r.status)"""
    )
    assert status == 200
    page.goto(f"/pad/#{made['id']}")
    page.wait_for_selector(".pad-table tbody tr")
    assert "Pool: 1 chip\n" in page.inner_text(".pad-standing") + "\n"
    page.click("[data-lang=es]")
    page.wait_for_selector(".pad-standing:has-text('Bote: 1 ficha')")
    assert "Bote: 1 fichas" not in page.inner_text(".pad-standing")
    assert page.errors == []
    page.context.close()


def test_api_a_hand_added_as_a_number_another_editor_took_is_refused(client: TestClient) -> None:
    """Two people keep score and both enter hand 2: the second is told, not added as hand 3 without a word."""
    pid, key = make(client)
    hand = {"counts": [3, 4, 6, 0], "cards": {"QS": [2]}}
    assert client.post(f"/api/pads/{pid}/hands?hand=1", json=hand, headers=key).status_code == 200
    assert client.post(f"/api/pads/{pid}/hands?hand=2", json=hand, headers=key).status_code == 200
    r = client.post(f"/api/pads/{pid}/hands?hand=2", json=hand, headers=key)  # the other phone's hand 2
    assert r.status_code == 409 and r.json()["detail"]["code"] == "conflict"
    assert r.json()["detail"]["reason"]["params"] == {"n": 2, "now": 3}
    assert len(client.get(f"/api/pads/{pid}").json()["rows"]) == 2  # nothing was added
    assert client.post(f"/api/pads/{pid}/hands?hand=3", json=hand, headers=key).status_code == 200
    assert client.post(f"/api/pads/{pid}/hands?hand=0", json=hand, headers=key).status_code == 422
    assert client.post(f"/api/pads/{pid}/hands", json=hand, headers=key).status_code == 200  # without: the next hand


def phone_with_pad(browser: Any, server: Any, hands: list[list[int]], **context: Any) -> tuple[Any, dict[str, str]]:
    """A page (a phone unless ``context`` says otherwise) on the editor's link of a new standard pad for Ana,
    Bea, Carl and Dan with ``hands`` (heart counts, Q♠ to Bea) entered; and the pad's id and key."""
    options = {"viewport": PHONE, "has_touch": True, "is_mobile": True, **context}
    page = watched_page(browser.new_context(base_url=server.base, **options))
    names = ["Ana", "Bea", "Carl", "Dan"]
    made = page.request.post(f"{server.base}/api/pads", data={"preset": "standard", "names": names})
    pad = {"id": made.json()["id"], "key": made.json()["key"]}
    for counts in hands:
        r = page.request.post(
            f"{server.base}/api/pads/{pad['id']}/hands",
            data={"counts": counts, "cards": {"QS": [1]}},
            headers={"X-Pad-Key": pad["key"]},
        )
        assert r.ok, r.text()
    page.goto(f"/pad/#{pad['id']}.{pad['key']}")
    page.wait_for_selector("#pad-add")
    return page, pad


def box_values(page: Any) -> list[str]:
    return list(page.eval_on_selector_all(".pad-count", "xs => xs.map(x => x.value)"))


def test_counts_typed_then_changed_with_the_buttons(chromium_path: str, server: Any) -> None:
    pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed")
    in_own_thread(in_chromium, chromium_path, server, typed_then_tapped_in)


def typed_then_tapped_in(browser: Any, server: Any) -> None:
    """A count typed and then changed with + or *rest* goes on from what was typed (the buttons were drawn
    before it was typed); a tap into a box leaves its digits selected, so what is typed replaces the 0 wherever
    the tap put the caret; and a key typed at once after tapping the next box lands in it and stays."""
    desktop = {"viewport": {"width": 1280, "height": 800}, "has_touch": False, "is_mobile": False}
    for context, press in (({}, "tap"), (desktop, "click")):
        page, _pad = phone_with_pad(browser, server, [], **context)
        typed_then_tapped_on(page, press)
        assert page.errors == []
        page.context.close()


def type_into(page: Any, press: str, name: str, digits: str, where: str = "middle") -> None:
    """Tap (or click) ``name``'s count box at its left edge, middle or right edge, and type ``digits`` at once."""
    from playwright.sync_api import Error as PlaywrightError

    field = page.get_by_role("spinbutton", name=name, exact=True)
    box = None
    for _ in range(10):  # the panel may be drawn again (after the last tap) while the box is looked for
        with contextlib.suppress(PlaywrightError):
            field.evaluate("e => e.scrollIntoView({block: 'center'})", timeout=1000)  # not under the header
            box = field.bounding_box(timeout=1000)
        if box:
            break
    assert box is not None
    x = box["x"] + {"left": 4, "middle": box["width"] / 2, "right": box["width"] - 4}[where]
    y = box["y"] + box["height"] / 2
    page.touchscreen.tap(x, y) if press == "tap" else page.mouse.click(x, y)
    page.keyboard.type(digits)


def typed_then_tapped_on(page: Any, press: str) -> None:
    type_into(page, press, "Ana", "5")
    getattr(page.get_by_role("button", name="Ana: one more", exact=True), press)()
    page.wait_for_function("() => document.querySelector('.pad-count').value === '6'")
    type_into(page, press, "Bea", "4", "left")
    getattr(page.get_by_role("button", name="Carl: the rest", exact=True), press)()
    page.wait_for_function("() => document.querySelectorAll('.pad-count')[2].value === '3'")
    assert box_values(page) == ["6", "4", "3", "0"]
    assert "(0 left of 13)" in page.inner_text(".pad-entry")

    # the next hand, typed box after box at once, each tap at the left of the 0 (or of the number typed)
    who_took(page, "Q♠", "Bea")
    tap(page, "Add hand")
    page.wait_for_function("() => document.querySelectorAll('.pad-table tbody tr').length === 1")
    for name, digits in [("Ana", "12"), ("Bea", "1"), ("Ana", "11"), ("Carl", "1")]:
        type_into(page, press, name, digits, "left")
    assert box_values(page) == ["11", "1", "1", "0"]
    who_took(page, "Q♠", "Bea")
    getattr(page.get_by_role("button", name="Add hand", exact=True), press)()
    page.wait_for_function("() => document.querySelectorAll('.pad-table tbody tr').length === 2")
    assert totals(page) == [[6, 17, 3, 0], [17, 31, 4, 0]]


def test_copy_link_says_whether_it_copied(chromium_path: str, server: Any) -> None:
    pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed")
    in_own_thread(in_chromium, chromium_path, server, copy_link_in)


#: The focused field and the text selected in it.
SELECTED = "() => { const a = document.activeElement; return [a.id, a.value.slice(a.selectionStart, a.selectionEnd)]; }"


def copy_link_in(browser: Any, server: Any) -> None:
    """Copied, the page says so; where the browser lets no page copy (http on the home network has no
    clipboard API; a refused permission), the link is shown selected and the page says to copy it by hand."""
    no_clipboard = "Object.defineProperty(Navigator.prototype, 'clipboard', {get: () => undefined});"
    no_copy = "document.execCommand = () => false;"
    desktop = {"viewport": {"width": 1280, "height": 800}, "has_touch": False, "is_mobile": False}
    for context in ({}, desktop):
        page, pad = phone_with_pad(browser, server, [])
        page.context.close()
        options = {"viewport": PHONE, "has_touch": True, "is_mobile": True, **context}
        page = watched_page(browser.new_context(base_url=server.base, **options))
        page.context.add_init_script(no_clipboard + no_copy)
        editor = f"{server.base}/pad/#{pad['id']}.{pad['key']}"
        page.goto(editor)
        page.wait_for_selector("#pad-add")
        assert not page.is_visible("#pad-editor-link")  # the editor's link is this page's address
        follow = f"{server.base}/pad/#{pad['id']}"
        copies = [("Copy editor's link", "pad-editor-link", editor), ("Copy link", "pad-share-link", follow)]
        for button, field, link in copies:
            tap(page, button) if context == {} else page.get_by_role("button", name=button, exact=True).click()
            page.wait_for_selector("#pad-copied")
            assert page.inner_text("#pad-copied") == (
                "The browser did not let the page copy the link: it is selected above; copy it by hand."
            )
            assert page.is_visible(f"#{field}") and page.input_value(f"#{field}") == link
            assert page.evaluate(SELECTED) == [field, link]
        page.context.close()

    # with the clipboard: copied, and said
    page = watched_page(browser.new_context(base_url=server.base, **desktop))
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.goto(f"/pad/#{pad['id']}")
    page.wait_for_selector(".pad-share")
    page.get_by_role("button", name="Copy link", exact=True).click()
    page.wait_for_selector("#pad-copied:has-text('Link copied.')")
    assert page.evaluate("navigator.clipboard.readText()") == f"{server.base}/pad/#{pad['id']}"
    assert page.errors == []
    page.context.close()


def test_two_editors_of_one_pad(chromium_path: str, server: Any) -> None:
    pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed")
    in_own_thread(in_chromium, chromium_path, server, two_editors_in)


def two_editors_in(browser: Any, server: Any) -> None:
    """Two people keep the same sheet. A hand begun on one phone while the other entered that hand keeps its
    number, and adding it says so (then adds it as the next hand if tapped again); a blank hand just moves on.
    A correction saved after the other phone added a hand is saved (it was refused at every try); one whose
    hand moved (an earlier hand deleted) ends, saying so."""
    page, pad = phone_with_pad(browser, server, [[3, 4, 6, 0], [0, 5, 5, 3], [2, 2, 2, 7]])
    other = {"X-Pad-Key": pad["key"]}
    url = f"{server.base}/api/pads/{pad['id']}"

    def other_phone_adds(counts: list[int]) -> None:
        assert page.request.post(f"{url}/hands", data={"counts": counts, "cards": {"QS": [0]}}, headers=other).ok

    def rows() -> int:
        return int(page.eval_on_selector_all(".pad-table tbody tr", "rs => rs.length"))

    # a correction of hand 2 while the other phone adds hand 4: saved
    page.get_by_role("row", name="Edit hand 2").tap()
    page.wait_for_selector("#pad-save")
    other_phone_adds([1, 1, 1, 10])
    page.wait_for_function("() => document.querySelectorAll('.pad-table tbody tr').length === 4")
    who_took(page, "Q♠", "Dan")
    page.locator("#pad-save").tap()
    page.wait_for_function("() => !document.getElementById('pad-save')")
    assert page.request.get(url).json()["rows"][1]["entry"]["cards"] == {"QS": [3]}

    # hand 5 begun here (Ana 5) while the other phone enters hand 5
    assert page.inner_text(".pad-entry h2") == "Hand 5"
    tap(page, "Ana: one more", 5)
    other_phone_adds([13, 0, 0, 0][::-1])
    page.wait_for_function("() => document.querySelectorAll('.pad-table tbody tr').length === 5")
    assert page.inner_text(".pad-entry h2") == "Hand 5" and box_values(page)[0] == "5"
    tap(page, "Carl: the rest")
    who_took(page, "Q♠", "Carl")
    tap(page, "Add hand")
    page.wait_for_selector("#pad-error:has-text('the sheet changed while hand 5 was being entered')")
    assert rows() == 5 and page.inner_text(".pad-entry h2") == "Hand 6" and box_values(page) == ["5", "0", "8", "0"]
    tap(page, "Add hand")  # it was another hand after all
    page.wait_for_function("() => document.querySelectorAll('.pad-table tbody tr').length === 6")
    # a blank hand moves on to the next number with the sheet
    other_phone_adds([0, 0, 13, 0])
    page.wait_for_function("() => document.querySelectorAll('.pad-table tbody tr').length === 7")
    assert page.inner_text(".pad-entry h2") == "Hand 8"

    # a correction of hand 3 while the other phone deletes hand 1: hand 3 is another hand now
    page.get_by_role("row", name="Edit hand 3").tap()
    page.wait_for_selector("#pad-save")
    assert page.request.delete(f"{url}/hands/1", headers=other).ok
    page.wait_for_function("() => document.querySelectorAll('.pad-table tbody tr').length === 6")
    who_took(page, "Q♠", "Ana")
    page.locator("#pad-save").tap()
    page.wait_for_selector("#pad-error:has-text('someone changed the pad at the same time')")
    assert page.locator("#pad-save").count() == 0 and page.inner_text(".pad-entry h2") == "Hand 7"
    assert [r["entry"]["cards"] for r in page.request.get(url).json()["rows"]][1] == {"QS": [1]}  # untouched
    assert page.errors == []
    page.context.close()


def test_six_names_head_the_phone_sheet_whole(chromium_path: str, server: Any) -> None:
    """A family of six on a 390 px phone: every name heads its column on one line, never broken inside a
    syllable ("Pap|á"), and the sheet still fits the phone's width."""
    pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed")
    in_own_thread(in_chromium, chromium_path, server, six_names_in)


def six_names_in(browser: Any, server: Any) -> None:
    import httpx

    names = ["Papá", "Abuela", "Mamá", "Carlitos", "Valentina", "Guillermo"]
    made = httpx.post(f"{server.base}/api/pads", json={"preset": "standard", "options": {"players": 6}, "names": names})
    made.raise_for_status()
    page = phone(browser, server, "es")
    page.goto(f"/pad/#{made.json()['id']}.{made.json()['key']}")
    page.wait_for_selector(".pad-table thead th")
    lines = page.eval_on_selector_all(
        ".pad-table thead th",
        """ths => ths.slice(1).map(th => { const r = document.createRange(); r.selectNodeContents(th);
          return [th.textContent, new Set([...r.getClientRects()].map(x => Math.round(x.top))).size]; })""",
    )
    assert [n for n, _ in lines] == names
    assert all(count == 1 for _, count in lines), lines
    sheet = page.eval_on_selector(".pad-sheet", "e => [e.scrollWidth, e.clientWidth]")
    assert sheet[0] <= sheet[1], sheet
    shot(page, "six-names-390")
    assert not page.errors, page.errors
    page.context.close()
