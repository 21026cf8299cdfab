"""A hand as a blind player hears it, in a real headless Chromium (Playwright) against a real server: what the
page says in its live region (``window.__corazones.announced`` keeps every line). The cards passed to you are
said once, with who passed them, in the page's language; the end of a hand is said once, with the points each
took and the totals; hearts broken is said when it happens; no line names a card another player passed.
"""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed")

from corazones.server.local import LocalServer
from tests.test_web_feel import DESKTOP, HUMAN, MOVE_JS, RANDOM, open_table, play_until, server, step  # noqa: F401

SAID_JS = "() => window.__corazones.announced.slice()"

#: The cards passed to Pat, in words as the page names them, and who passed them.
RECEIVED_JS = """async () => {
  const { cardName, sortCards } = await import('/js/cards.js');
  const tb = window.__corazones.table;
  const v = tb.view;
  return { cards: sortCards(v.received).map(cardName).join(', '), from: tb.store.nameOf(v.received_from) };
}"""


@pytest.mark.parametrize(
    ("lang", "received", "mine", "theirs"),
    [
        ("en", "You received from {who}: {cards}", "You pass ", " passes "),
        ("es", "Recibió de {who}: {cards}", "Usted pasa ", " pasa "),
    ],
)
def test_the_cards_passed_to_you_are_said_once_with_who_passed_them(
    browser: Any,
    server: LocalServer,  # noqa: F811
    lang: str,
    received: str,
    mine: str,
    theirs: str,
) -> None:
    page, _api, _table = open_table(
        browser, server, DESKTOP, "standard", {"hands": 1}, [HUMAN, RANDOM, RANDOM, RANDOM], "fast", lang=lang
    )
    page.wait_for_selector("[data-decision='pass']")
    page.evaluate(MOVE_JS, "pass")
    page.wait_for_function("() => (window.__corazones.table.view.received || []).length === 3")
    got = page.evaluate(RECEIVED_JS)
    line = received.format(who=got["from"], cards=got["cards"])
    page.wait_for_function("(line) => window.__corazones.announced.includes(line)", arg=line)
    # Play on past the first trick: it is not said again.
    play_until(page, "over", until="() => window.__corazones.table.view.tricks_played >= 2")
    said = page.evaluate(SAID_JS)
    assert said.count(line) == 1, said
    assert len([x for x in said if x.startswith(received.split("{")[0])]) == 1, said
    # Said once the pass is made (Pat's is the last: the bots pass at once), and no other seat's pass is named.
    assert said.index(line) > next(i for i, x in enumerate(said) if x.startswith(mine)), said
    assert not [x for x in said if theirs in x and not x.startswith(mine)], said
    assert not page.errors, page.errors
    page.context.close()


def test_the_end_of_a_hand_is_said_once_with_the_points_and_totals(browser: Any, server: LocalServer) -> None:  # noqa: F811
    page, _api, _table = open_table(
        browser, server, DESKTOP, "standard", {"hands": 2}, [HUMAN, RANDOM, RANDOM, RANDOM], "instant"
    )
    play_until(page, "continue")
    said = page.evaluate(SAID_JS)
    result = page.evaluate("window.__corazones.table.history[0]")
    ends = [x for x in said if x.startswith("Hand 1 ")]
    names = ["You", "Bot 2", "Bot 3", "Bot 4"]
    points = ", ".join(f"{n} {p}" for n, p in zip(names, result["points"], strict=True))
    totals = ", ".join(f"{n} {p}" for n, p in zip(names, result["totals"], strict=True))
    moon = "" if result["shooter"] is None else f" {names[result['shooter']]} shot the moon!"
    assert ends == [f"Hand 1 is over. Points taken: {points}.{moon} Totals: {totals}."], said[-6:]
    # The log keeps the same line.
    assert ends[0] in page.evaluate("window.__corazones.table.store.log")
    page.click("#continue-btn")
    page.wait_for_selector("[data-decision='pass']")
    said = page.evaluate(SAID_JS)
    assert len([x for x in said if x.startswith("Hand 1 ")]) == 1, said[-6:]
    assert not page.errors, page.errors
    page.context.close()


def test_the_end_of_a_chip_hand_says_the_chips_and_the_pool(browser: Any, server: LocalServer) -> None:  # noqa: F811
    page, _api, _table = open_table(
        browser, server, DESKTOP, "hearts_1887", {"hands": 2}, [HUMAN, RANDOM, RANDOM, RANDOM], "instant"
    )
    play_until(page, "continue")
    said = page.evaluate(SAID_JS)
    result = page.evaluate("window.__corazones.table.history[0]")
    stake = page.evaluate("window.__corazones.table.store.table.rules.stake")
    chips = ", ".join(
        f"{n} {stake + d}" for n, d in zip(["You", "Bot 2", "Bot 3", "Bot 4"], result["chips_delta"], strict=True)
    )
    ends = [x for x in said if x.startswith("Hand 1 ")]
    assert len(ends) == 1 and ends[0].endswith(f" Chips: {chips}; pool {result['pool']}."), said[-6:]
    assert not page.errors, page.errors
    page.context.close()


def test_hearts_broken_is_said_once_when_it_happens(browser: Any, server: LocalServer) -> None:  # noqa: F811
    page, _api, _table = open_table(
        browser, server, DESKTOP, "standard", {"hands": 1}, [HUMAN, RANDOM, RANDOM, RANDOM], "instant"
    )
    page.evaluate("""() => { const tb = window.__corazones.table; const render = tb.render.bind(tb);
      window.__brokenAt = null;
      tb.render = () => { const v = tb.store.view;
        if (window.__brokenAt === null && v && v.hearts_broken && v.hand_index === 0)
          window.__brokenAt = window.__corazones.announced.length;
        render(); }; }""")
    play_until(page, "over")
    said = page.evaluate(SAID_JS)
    assert said.count("hearts broken") == 1, said
    # Said as the page first showed it broken, not later.
    at = page.evaluate("window.__brokenAt")
    assert at is not None and said.index("hearts broken") == at - 1, (at, said)
    assert not page.errors, page.errors
    page.context.close()


def test_the_games_end_is_said_without_the_seed_and_a_hand_without_a_pass_says_so(
    browser: Any,
    server: LocalServer,  # noqa: F811
) -> None:
    """The game's end is heard as who won (the log keeps the seed, forty-odd random characters that mean
    nothing read aloud); a hand dealt without a pass is "no pass", not "pass no pass"."""
    page, _api, _table = open_table(
        browser, server, DESKTOP, "standard", {"hands": 2, "pass_count": 0}, [HUMAN, RANDOM, RANDOM, RANDOM], "instant"
    )
    play_until(page, "over")
    page.wait_for_function("() => window.__corazones.table.store.log.some((x) => x.startsWith('Game over'))")
    said = page.evaluate(SAID_JS)
    log = page.evaluate("window.__corazones.table.store.log")
    ends = [x for x in said if x.startswith("Game over")]
    assert len(ends) == 1 and "seed" not in ends[0], said[-4:]
    assert ends[0] == "Game over" or ends[0].startswith("Game over, won by "), ends
    logged = [x for x in log if x.startswith("Game over") and "The shuffle seed is revealed: " in x]
    seed = logged[0].split("The shuffle seed is revealed: ")[1] if logged else ""
    assert seed and all(seed not in x for x in said), (logged, said[-4:])
    starts = [x for x in log if x.startswith("Hand 2:")]  # the first hand began before the page opened
    assert starts and starts[0].endswith(" deals; no pass"), starts
    assert not page.errors, page.errors
    page.context.close()


def test_your_own_chat_line_is_not_read_back_to_you(browser: Any, server: LocalServer) -> None:  # noqa: F811
    page, _api, _table = open_table(
        browser, server, DESKTOP, "standard", {"hands": 1}, [HUMAN, RANDOM, RANDOM, RANDOM], "fast"
    )
    page.click("#tab-chat")
    page.fill("#chat-input", "good luck!")
    page.keyboard.press("Enter")
    page.wait_for_selector(".chat-msgs li")
    page.wait_for_timeout(300)
    assert not [x for x in page.evaluate(SAID_JS) if "good luck!" in x]
    assert not page.errors, page.errors
    page.context.close()


def test_a_hints_reasons_name_seats_as_the_table_does(browser: Any, server: LocalServer) -> None:  # noqa: F811
    """A hint's reasons come as templates; the page names their seats as it names them everywhere (the
    server's sentence could only count seats from 0)."""
    page, _api, _table = open_table(
        browser, server, DESKTOP, "standard", {"hands": 1}, [HUMAN, RANDOM, RANDOM, RANDOM], "fast"
    )
    page.wait_for_selector("[data-decision='pass']")
    reason = page.evaluate("""() => { const tb = window.__corazones.table;
      tb.showHint({ action: { play: "2C" }, reason: "the trick goes to seat 1 for now",
        reasons: [{ template: "lead the lowest club", params: {} },
                  { template: "the trick goes to {seat} for now", params: { seat: { seat: 1 } } }] });
      return tb.store.hint.reason; }""")
    assert reason == "lead the lowest club: the trick goes to Bot 2 for now", reason
    # said as shown: the reason follows a dash, not a full stop before a word in lower case
    assert page.evaluate("window.__corazones.announced.slice(-1)[0]") == f"Hint: play two of clubs — {reason}"
    assert not page.errors, page.errors
    page.context.close()
