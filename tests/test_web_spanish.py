"""The web app's counts in Spanish and English: a count of one reads in the singular, a count of cards chosen
agrees whatever it is (headless Chromium against a real server, as tests/test_web_feel.py)."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed")

from corazones.server.local import LocalServer
from tests.test_web_feel import DESKTOP, HUMAN, RANDOM, open_table, server  # noqa: F401  (server: the fixture)


@pytest.mark.parametrize(
    ("lang", "none_chosen", "one_chosen"),
    [
        ("es", "Elija 1 carta para pasar a la izquierda, a Bot 2 (elegidas: 0)", "(elegidas: 1)"),
        ("en", "Choose 1 card to pass to the left, to Bot 2 (0 chosen)", "(1 chosen)"),
    ],
)
def test_a_pass_of_one_card_is_asked_in_the_singular(
    browser: Any,
    server: LocalServer,  # noqa: F811
    lang: str,
    none_chosen: str,
    one_chosen: str,
) -> None:
    seats = [HUMAN, RANDOM, RANDOM, RANDOM]
    page, _api, _table = open_table(
        browser, server, DESKTOP, "standard", {"hands": 1, "pass_count": 1}, seats, lang=lang
    )
    page.wait_for_selector("[data-decision='pass']")
    prompt = page.locator("#prompt").inner_text()
    assert prompt == none_chosen, prompt
    page.locator(".hand .card").nth(0).click(position={"x": 6, "y": 30})
    prompt = page.locator("#prompt").inner_text()
    assert prompt.endswith(one_chosen), prompt
    page.context.close()
