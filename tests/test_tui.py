"""The terminal app driven by Textual's pilot: whole games, every decision, undo, save and resume, hidden cards."""

from __future__ import annotations

import asyncio
import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from textual.screen import ModalScreen

from corazones.core.actions import Action, Kind
from corazones.core.cards import CARDS, SPADES
from corazones.core.game import Game
from corazones.core.records import loads, verify_record
from corazones.core.rules import Rules
from corazones.players.registry import make_player
from corazones.tui import settings as cfg
from corazones.tui.app import CorazonesApp
from corazones.tui.claim import claim_is_certain
from corazones.tui.controller import Controller
from corazones.tui.dialogs import BidDialog, DeclareDialog, GameOver, HandSummary, MoonDialog, ScoreSheet
from corazones.tui.table import TableScreen, arrange
from corazones.tui.widgets import HandView, SeatBox
from tests.helpers import PATIENCE
from tests.tui_driver import answer, settle, table_of, waiting

SIZE = (110, 34)


@pytest.fixture(autouse=True)
def private_dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Settings, saved games and records go to a temporary home, never the user's."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    return tmp_path


def fast(**kw: Any) -> cfg.Settings:
    return cfg.Settings(speed="instant", name="Pat", lang="en", **kw)


def make_app(preset: str = "standard", seed: int = 5, **over: Any) -> CorazonesApp:
    return CorazonesApp(rules=Rules.preset(preset, **over), seed=seed, settings=fast(), remember=False)


CARD_RE = re.compile(r"(?:10|[2-9JQKA])[♣♦♠♥]")


def screen_text(app: CorazonesApp) -> str:
    """Every character on the visible screens (the top one and what a modal dialog lets through), as drawn."""
    out = []
    for screen in reversed(app.screen_stack):
        out.extend(strip.text for strip in screen._compositor.render_strips())
        if not isinstance(screen, ModalScreen):
            break
    return "\n".join(out)


def check_nothing_hidden_shown(app: CorazonesApp) -> int:
    """No card of another seat's hand is on screen, except cards the player passed to it (one deck).

    Every card shown must be one the player may know: their hand, cards played face up, cards they
    passed or received, or a kitty already revealed.  Returns how many cards were on screen.
    """
    table = table_of(app)
    game = table.ctl.game
    me = table.ctl.viewer
    obs = game.observation(me)
    if table.ctl.end_view is not None:  # the hand just ended is shown: every card of it is public now
        assert game.last_deal is not None
        allowed = Counter(c for t in game.last_deal.tricks for _, c in t.plays)
        allowed.update(game.last_deal.kitty)
        allowed.update(table.ctl.observation().hand)  # the hand summary may sit over the next hand
        text = screen_text(app)
        shown = [_parse(tok) for tok in CARD_RE.findall(text)]
        assert all(allowed[c] > 0 for c in shown)
        return len(shown)
    allowed = Counter(obs.hand)
    for t in obs.tricks:
        allowed.update(c for _, c in t.plays)
    allowed.update(c for _, c in obs.trick)
    allowed.update(obs.passed or ())
    allowed.update(obs.received or ())
    for h in obs.history:
        allowed.update(h.kitty)
    if game.last_deal is not None:  # the hand just finished is summed up on screen: its tricks are public
        for t in game.last_deal.tricks:
            allowed.update(c for _, c in t.plays)
    text = screen_text(app)
    shown = [CARDS[_parse(tok)] for tok in CARD_RE.findall(text)]
    hidden = Counter()
    for s in range(game.rules.players):
        if s != me:
            hidden.update(game.deal.hand(s))
    hidden.subtract(obs.passed or ())
    for c in set(shown):
        assert allowed[c] > 0, f"{CARDS[c]} is on screen but the player cannot know it"
        if game.rules.decks == 1:
            assert hidden[c] <= 0, f"{CARDS[c]}, held by another seat, is on screen:\n{text}"
    return len(shown)


def _parse(token: str) -> int:
    from corazones.core.cards import parse_card

    return parse_card(token)


async def play_to_end(pilot: Any, check_hidden: bool = False, limit: int = 3000) -> Counter[str]:
    seen: Counter[str] = Counter()
    for _ in range(limit):
        what = await answer(pilot)
        if check_hidden and what in ("play", "pass"):
            check_nothing_hidden_shown(pilot.app)
        seen[what] += 1
        if what == "over":
            return seen
    raise AssertionError("the game did not end")


# --------------------------------------------------------------------------- whole games


def test_whole_game_against_bots_to_the_winner_and_its_record(private_dirs: Path) -> None:
    async def run() -> None:
        app = make_app(target=30)
        async with app.run_test(size=SIZE) as pilot:
            seen = await play_to_end(pilot, check_hidden=True)
            game = table_of(app).ctl.game
            assert game.over and game.winners
            assert seen["pass"] >= 1 and seen["summary"] == len(game.history)
            over = app.screen
            assert isinstance(over, GameOver)
            text = screen_text(app)
            assert "Winner" in text or "You win" in text
            assert str(game.seed) in text  # the seed is told once the game is over
            records = list((private_dirs / "data" / "corazones" / "games").glob("game-*.json"))
            assert len(records) == 1
            replayed = verify_record(loads(records[0].read_text(encoding="utf-8")))
            assert replayed.scores == game.scores
            await pilot.press("enter")  # Enter answers the dialog at once: a new game, from the start screen
            await pilot.pause()
            assert not isinstance(app.screen, (GameOver, TableScreen)), app.screen

    asyncio.run(run())


def test_seed_is_not_shown_before_the_end_but_its_commitment_is() -> None:
    from corazones.core.commitment import commit

    async def run() -> None:
        app = CorazonesApp(rules=Rules.preset("standard"), seed=987654321, settings=fast(), remember=False)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            text = screen_text(app)
            assert "987654321" not in text
            assert commit(987654321)[:16] in text

    asyncio.run(run())


@pytest.mark.parametrize(
    ("preset", "over"),
    [("cancellation_hearts", {"players": 8, "hands": 1}), ("kitty", {"hands": 1}), ("black_maria", {"hands": 1})],
)
def test_every_screen_hides_the_other_hands(preset: str, over: dict[str, Any]) -> None:
    async def run() -> None:
        app = make_app(preset, seed=11, **over)
        async with app.run_test(size=SIZE) as pilot:
            seen = await play_to_end(pilot, check_hidden=True)
            assert seen["play"] >= table_of(app).ctl.rules.hand_size

    asyncio.run(run())


def test_two_deck_table_with_eight_seats() -> None:
    async def run() -> None:
        app = make_app("cancellation_hearts", players=8, hands=1)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            table = table_of(app)
            boxes = {b.seat for b in table.query(SeatBox)}
            assert boxes == set(range(8))
            left, top, right, beside_left, beside_right = arrange(8, 0)
            assert (len(left), len(top), len(right)) == (2, 3, 2) and beside_left == beside_right == []
            # the seat on your left sits lowest in the left column, then clockwise over the top
            assert left[-1] == 1 and top == [3, 4, 5] and right == [6, 7]
            await answer(pilot)  # pass
            await answer(pilot)  # first card
            await settle(pilot)
            text = screen_text(app)
            for name in table.ctl.names:
                assert name in text
            assert len(table.query_one(HandView).cards) == len(table.ctl.observation().hand)

    asyncio.run(run())


# --------------------------------------------------------------------------- decisions


def test_passing_selects_with_keys_then_shows_the_cards_received() -> None:
    async def run() -> None:
        app = make_app(hands=1)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            table = table_of(app)
            obs = table.ctl.observation()
            assert obs.decision is Kind.PASS
            hand = table.query_one(HandView)
            await pilot.press("enter", "right", "enter")
            await pilot.press("p")  # two chosen: refused
            assert table.ctl.observation().decision is Kind.PASS
            assert "exactly 3" in str(table.message)
            await pilot.press("right", "enter")
            chosen = [hand.cards[i] for i in sorted(table.selected)]
            assert chosen == hand.cards[:3]
            await pilot.press("p")
            await settle(pilot)
            after = table.ctl.observation()
            assert after.passed is not None and sorted(after.passed) == sorted(chosen)
            assert after.received is not None and all(c in after.hand for c in after.received)
            assert all(c not in after.hand for c in chosen if c not in after.received)
            text = screen_text(app)
            assert "You received from" in text
            assert hand.marked == set(after.received)

    asyncio.run(run())


def test_a_wrong_card_gets_a_reason_and_is_not_played() -> None:
    async def run() -> None:
        app = make_app("hearts_1887", hands=1)  # no passing: straight to play
        async with app.run_test(size=SIZE) as pilot:
            for _ in range(20):
                await settle(pilot)
                table = table_of(app)
                obs = table.ctl.observation()
                legal = {a.cards[0] for a in obs.legal}
                bad = [c for c in obs.hand if c not in legal]
                if bad:
                    hand = table.query_one(HandView)
                    n = len(table.ctl.game.actions)
                    hand.cursor = hand.cards.index(bad[0])
                    hand.focus()
                    await pilot.press("enter")
                    assert len(table.ctl.game.actions) == n
                    assert "follow suit" in str(table.message)
                    return
                await answer(pilot)
            pytest.fail("never held a card that could not be played")

    asyncio.run(run())


def test_mouse_click_plays_a_card() -> None:
    async def run() -> None:
        app = make_app("hearts_1887", hands=1)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            table = table_of(app)
            obs = table.ctl.observation()
            hand = table.query_one(HandView)
            legal = {a.cards[0] for a in obs.legal}
            row, x0, _x1, i = next(s for s in hand._spots if hand.cards[s[3]] in legal)
            card = hand.cards[i]
            await pilot.click(HandView, offset=(x0 + 1 + hand.region.x - hand.content_region.x, row + 1))
            await settle(pilot)
            mine = [a for a in table.ctl.game.actions if a.seat == obs.seat]
            assert [a.cards for a in mine] == [(card,)]

    asyncio.run(run())


def test_auction_hand_bidding_and_naming_the_suit() -> None:
    async def run() -> None:
        app = make_app("auction_hearts", seed=3, hands=1)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            assert isinstance(app.screen, BidDialog)
            assert "named" not in screen_text(app)  # nobody has named a suit while the bids go round
            cap = app.screen.positive[-1]
            field = app.screen.query_one("#amount")
            field.value = "999"  # out of range: refused with the allowed span
            await pilot.press("enter")
            assert isinstance(app.screen, BidDialog)
            assert str(cap) in screen_text(app)
            field.value = str(cap)
            await pilot.press("enter")
            await settle(pilot)
            assert isinstance(app.screen, DeclareDialog)
            await pilot.press("s")
            await settle(pilot)
            deal = table_of(app).ctl.game.deal
            assert deal.declarer == 0 and deal.penalty_suit == SPADES
            assert "named spades" in screen_text(app)
            seen = await play_to_end(pilot)
            assert seen["summary"] == 1

    asyncio.run(run())


def shooting_position() -> tuple[int, list[Action], int]:
    """A seed and the actions of standard bots up to a moon choice, and the shooter (searched, not stored)."""
    rules = Rules.preset("standard", hands=1)
    for seed in range(400):
        game = Game(rules, seed)
        bots = [make_player("standard", f"{seed}/{s}") for s in range(4)]
        while game.decision_kind() is not Kind.MOON and not game.over:
            s = game.to_act()[0]
            game.apply(bots[s].act(game.observation(s)))
        if not game.over:
            return seed, list(game.actions), game.to_act()[0]
    pytest.skip("no moon shot found in 400 deals")


def test_moon_dialog_when_you_shoot() -> None:
    seed, actions, shooter = shooting_position()
    rules = Rules.preset("standard", hands=1)
    game = Game(rules, seed)
    for a in actions:
        game.apply(a)
    levels: list[str | None] = ["standard"] * 4
    levels[shooter] = None
    ctl = Controller(game, [f"P{s}" for s in range(4)], levels)

    async def run() -> None:
        app = CorazonesApp(controller=ctl, settings=fast(), remember=False)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            assert isinstance(app.screen, MoonDialog)
            assert "You shot the moon" in screen_text(app)
            await pilot.click("#subtract_from_self")
            await settle(pilot)
            assert isinstance(app.screen, HandSummary)
            h = ctl.game.history[-1]
            assert h.shooter == shooter and h.moon_choice == "subtract_from_self"
            assert h.scores[shooter] == -26
            assert "shot the moon" in screen_text(app)

    asyncio.run(run())


# --------------------------------------------------------------------------- help


def test_undo_takes_back_your_card_and_the_bots_replies() -> None:
    async def run() -> None:
        app = make_app("hearts_1887", hands=1)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            table = table_of(app)
            before = table.ctl.observation().to_json()
            n = len(table.ctl.game.actions)
            await answer(pilot)
            await settle(pilot)
            assert len(table.ctl.game.actions) > n + 1  # my card and the bots' replies
            await pilot.press("u")
            await settle(pilot)
            assert len(table.ctl.game.actions) == n
            assert table.ctl.observation().to_json() == before
            assert "taken back" in str(table.message)

    asyncio.run(run())


def test_save_and_resume(private_dirs: Path) -> None:
    async def first() -> dict[str, Any]:
        app = make_app("omnibus", seed=21, target=60)
        async with app.run_test(size=SIZE) as pilot:
            for _ in range(4):
                await answer(pilot)
            await settle(pilot)
            table = table_of(app)
            await pilot.press("q")  # leaving an unfinished game saves it
            await pilot.pause()
            assert not isinstance(app.screen, TableScreen)
            return table.ctl.observation().to_json()

    async def second(expected: dict[str, Any]) -> None:
        app = CorazonesApp(resume=True, settings=fast(), remember=False)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            table = table_of(app)
            assert table.ctl.observation().to_json() == expected
            assert table.ctl.names[0] == "Pat"
            await answer(pilot)  # and it plays on

    expected = asyncio.run(first())
    saved = private_dirs / "data" / "corazones" / "saved-game.json"
    assert saved.is_file() and json.loads(saved.read_text(encoding="utf-8"))["format"] == "corazones-record"
    asyncio.run(second(expected))


def test_hint_shows_a_move_and_its_reason() -> None:
    async def run() -> None:
        app = make_app(hands=1)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            table = table_of(app)
            await pilot.press("h")
            for _ in waiting():
                await pilot.pause(0.02)
                if not table.hint_busy:
                    break
            assert str(table.message).startswith("Hint: pass")
            assert len(table.selected) == 3  # the suggested cards are chosen for you

    asyncio.run(run())


def test_claim_is_certain_only_when_every_card_wins() -> None:
    rules = Rules.preset("standard", hands=1)
    game = Game(rules, 2)
    bots = [make_player("standard", s) for s in range(4)]
    checked = 0
    while not game.over:
        s = game.to_act()[0]
        obs = game.observation(s)
        if obs.decision is Kind.PLAY and claim_is_certain(obs):
            # certain: whatever the others hold, each of its leads wins
            for c in obs.hand:
                for other in range(4):
                    if other != s:
                        assert all(d // 13 != c // 13 or d < c for d in game.deal.hand(other))
            checked += 1
        game.apply(bots[s].act(obs))
    assert checked >= 1


def test_claim_plays_out_the_hand() -> None:
    rules = Rules.preset("standard", hands=1)
    for seed in range(200):
        game = Game(rules, seed)
        bots = [make_player("standard", f"{seed}/{s}") for s in range(4)]
        while not game.over:
            s = game.to_act()[0]
            obs = game.observation(s)
            if s == 0 and obs.decision is Kind.PLAY and claim_is_certain(obs) and len(obs.hand) >= 3:
                break
            game.apply(bots[s].act(obs))
        if not game.over:
            break
    else:
        pytest.skip("no claim position found")
    remaining = len(game.deal.hand(0))
    ctl = Controller(game, ["Pat", "A", "B", "C"], [None, "standard", "standard", "standard"])

    async def run() -> None:
        app = CorazonesApp(controller=ctl, settings=fast(), remember=False)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            tricks = len(ctl.game.deal.tricks)
            await pilot.press("c")
            await settle(pilot)
            assert isinstance(app.screen, HandSummary | MoonDialog)
            last = ctl.game.last_deal if ctl.game.last_deal is not None else ctl.game.deal
            assert all(t.winner == 0 for t in last.tricks[tricks:])
            assert len(last.tricks) - tricks == remaining

    asyncio.run(run())


def test_rules_help_and_score_sheet_and_language_switch() -> None:
    async def run() -> None:
        app = make_app("spot_hearts", target=40)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            await pilot.press("r")
            text = screen_text(app)
            assert "Hearts cost" in text and "A♥=14" in text
            await pilot.press("escape")
            await pilot.press("l")
            await pilot.pause()
            assert app.lang == "es"
            text = screen_text(app)
            assert "Pasar" in text or "pasar" in text
            await pilot.press("s")
            for _ in waiting():
                await pilot.pause(0.02)
                if "Hoja de tanteo" in screen_text(app):
                    break
            assert "Hoja de tanteo" in screen_text(app)

    asyncio.run(run())


def test_start_screen_remembers_the_choices(private_dirs: Path) -> None:
    async def run() -> None:
        app = CorazonesApp(settings=cfg.Settings(speed="instant", lang="en"))
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            screen = app.screen
            screen.query_one("#preset").value = "black_maria"
            await pilot.pause()
            screen = app.screen
            screen.query_one("#name").value = "Lu"
            screen.query_one("#level0").value = "beginner"
            await pilot.pause()
            app.screen.query_one("#play").press()
            for _ in waiting():
                if isinstance(app.screen, TableScreen):
                    break
                await pilot.pause(0.02)
            await settle(pilot)
            table = table_of(app)
            assert table.ctl.rules.name == "black_maria" and table.ctl.rules.players == 3
            assert table.ctl.names[0] == "Lu" and table.ctl.levels[1] == "beginner"
        remembered = cfg.load_settings()
        assert remembered.preset == "black_maria" and remembered.name == "Lu" and remembered.levels[0] == "beginner"

    asyncio.run(run())


def test_replay_viewer_steps_through_a_record(private_dirs: Path) -> None:
    from corazones.core.records import make_record

    game = Game(Rules.preset("standard", hands=1), 4)
    bots = [make_player("standard", s) for s in range(4)]
    while not game.over:
        s = game.to_act()[0]
        game.apply(bots[s].act(game.observation(s)))
    record = make_record(game, ["N", "E", "S", "W"])

    async def run() -> None:
        app = CorazonesApp(record=record, settings=fast(), remember=False)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            screen = app.screen
            assert screen.pos == 0
            await pilot.press("right")
            assert screen.pos == 1
            await pilot.press("down")
            assert screen.marks[screen.pos][1] == 1  # the first trick is complete
            await pilot.press("end")
            assert screen.pos == len(game.actions)
            assert "Game over" in screen_text(app)

    asyncio.run(run())


def test_cards_of_an_annulled_trick_wait_for_the_next_winner() -> None:
    from corazones.core.cards import parse_card as c
    from corazones.core.trick import Trick
    from corazones.tui.controller import taken_cards, waiting_cards

    annulled = Trick(0, ((0, c("5H")), (1, c("5H")), (2, c("2C")), (3, c("2C"))), None)
    won = Trick(0, ((0, c("AS")), (1, c("QS")), (2, c("3S")), (3, c("4S"))), 0)
    assert waiting_cards([annulled]) == [c("5H"), c("5H"), c("2C"), c("2C")]
    assert taken_cards([annulled], 4) == [[], [], [], []]  # still waiting mid-hand
    assert taken_cards([annulled], 4, hand_over=True)[0] == waiting_cards([annulled])  # last trick: its leader
    both = [*waiting_cards([annulled]), *(x for _, x in won.plays)]
    assert sorted(taken_cards([annulled, won], 4)[0]) == sorted(both)


class HeldBot:
    """A standard player that may not answer before the test lets it: it stands for a long search."""

    name = "held"

    def __init__(self) -> None:
        import threading

        self.inner = make_player("standard", 1)
        self.released = threading.Event()
        self.started = threading.Event()

    def act(self, obs: Any) -> Action:
        self.started.set()
        assert self.released.wait(60), "the test never let the bot answer"
        return self.inner.act(obs)


def test_the_table_answers_while_a_bot_thinks() -> None:
    """Bots think in a worker thread: while one is still deciding, keys work and screens open.

    The bot answers only once the score sheet is open; had it run on the UI thread, the sheet could never open.
    """
    levels: list[str | None] = [None, "standard", "standard", "standard"]
    ctl = Controller.new(Rules.preset("hearts_1887", hands=1), ["Pat", "A", "B", "C"], levels, 5)
    held = HeldBot()

    async def run() -> None:
        app = CorazonesApp(controller=ctl, settings=fast(), remember=False)
        async with app.run_test(size=SIZE) as pilot:
            table = table_of(app)
            await settle(pilot)
            seat = next(s for s in range(1, 4) if s not in ctl.game.to_act())
            ctl.bots[seat] = held  # type: ignore[assignment]
            # play on until the held bot is asked; keys go in as a terminal sends them (pilot.press
            # would wait for the worker to finish, which is what this test must not need)
            for _ in waiting(2 * PATIENCE):
                if held.started.is_set():
                    break
                if table.pausing:
                    app.simulate_key("space")
                elif ctl.human_to_act() and not table.dialog_open and isinstance(app.screen, TableScreen):
                    table.query_one(HandView).focus()
                    app.simulate_key("enter")
                await asyncio.sleep(0.02)
            assert table.thinking
            actions = len(ctl.game.actions)
            app.simulate_key("s")
            for _ in waiting():
                await asyncio.sleep(0.01)
                if isinstance(app.screen, ScoreSheet):
                    break
            assert isinstance(app.screen, ScoreSheet) and table.thinking and len(ctl.game.actions) == actions
            held.released.set()
            await pilot.press("escape")
            await settle(pilot)
            assert len(ctl.game.actions) > actions and not table.thinking

    try:
        asyncio.run(run())
    finally:
        held.released.set()


def _run_in_terminal(args: list[str], wait_for: bytes, tmp: Path) -> bytes:
    """Start ``corazones`` on a pseudo-terminal and read until ``wait_for`` appears (or 2 * PATIENCE seconds
    pass: a whole interpreter starts and imports Textual, which took 25 s here under load)."""
    import os
    import pty
    import select
    import subprocess
    import sys
    import time

    main, sub = pty.openpty()
    env = {**os.environ, "TERM": "xterm-256color", "COLUMNS": "110", "LINES": "34"}
    env |= {"XDG_CONFIG_HOME": str(tmp / "config"), "XDG_DATA_HOME": str(tmp / "data")}
    proc = subprocess.Popen([sys.executable, "-m", "corazones", *args], stdin=sub, stdout=sub, stderr=sub, env=env)
    os.close(sub)
    out = b""
    try:
        end = time.monotonic() + 2 * PATIENCE
        while wait_for not in out and time.monotonic() < end:
            ready, _, _ = select.select([main], [], [], 0.2)
            if ready:
                try:
                    out += os.read(main, 65536)
                except OSError:
                    break
    finally:
        proc.kill()
        proc.wait()
        os.close(main)
    return out


@pytest.mark.integration
def test_play_on_a_terminal_opens_the_full_screen_game_and_line_keeps_the_line_game(private_dirs: Path) -> None:
    full = _run_in_terminal(["play", "--seed", "3", "--lang", "en"], b"seed commitment", private_dirs)
    assert b"\x1b[?1049h" in full and b"seed commitment" in full  # the alternate screen: a full-screen app
    line = _run_in_terminal(["play", "--line", "--seed", "3", "--lang", "en"], b"Pass", private_dirs)
    assert b"\x1b[?1049h" not in line and b"Pass" in line
