"""Driving the terminal app with Textual's pilot: wait for the human's turn, answer like a player would."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Coroutine, Iterator
from typing import Any

from textual.pilot import Pilot
from textual.widgets import Input

from corazones.core.actions import Kind
from corazones.tui.app import CorazonesApp
from corazones.tui.dialogs import BidDialog, DeclareDialog, GameOver, HandSummary, MoonDialog
from corazones.tui.table import TableScreen
from corazones.tui.widgets import HandView
from tests.helpers import PATIENCE, in_own_thread


def run_pilot(coroutine: Coroutine[Any, Any, Any]) -> None:
    """``asyncio.run`` in a thread of its own: a browser test may have left an event loop running in this one."""
    in_own_thread(asyncio.run, coroutine)


async def enter(pilot: Any, text: str) -> None:
    """Type a line into the score pad's entry and press Enter, as a person at the sheet does."""
    pilot.app.screen.query_one("#pad-entry", Input).value = text
    await pilot.press("enter")
    await pilot.pause()


def waiting(seconds: float = PATIENCE) -> Iterator[None]:
    """The rounds of a polling loop (``for _ in waiting(): ...; if done: break``) for ``seconds`` of wall time.

    A bound in seconds, not in rounds: a count of short pauses is only a few seconds of the app's time,
    which a hint or a bot's move can outlast on a loaded machine.  Only a failing test waits it out."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        yield


def table_of(app: CorazonesApp) -> TableScreen:
    return next(s for s in app.screen_stack if isinstance(s, TableScreen))


def ready(app: CorazonesApp) -> bool:
    """True when the app waits for the human (a dialog or the human's card or pass), or the game is over."""
    screen = app.screen
    if isinstance(screen, BidDialog | DeclareDialog | MoonDialog | HandSummary | GameOver):
        return True
    if not isinstance(screen, TableScreen):
        return True
    if screen.pausing or screen.dialog_open or screen.pending_hand is not None:
        return False
    if screen.ctl.game.over:
        return False
    obs = screen.ctl.observation()
    return screen.ctl.human_to_act() and obs.decision in (Kind.PLAY, Kind.PASS)


async def settle(pilot: Pilot[Any], limit: float = 60.0) -> None:
    app = pilot.app
    assert isinstance(app, CorazonesApp)
    waited = 0.0
    while not ready(app):
        await pilot.pause(0.02)
        waited += 0.02
        table = next((s for s in app.screen_stack if isinstance(s, TableScreen)), None)
        if table is not None and table.pausing and app.screen is table:
            await pilot.press("space")
        if waited >= limit:
            t = table
            state = (
                "no table"
                if t is None
                else (f"pausing={t.pausing} thinking={t.thinking} dialog={t.dialog_open} to_act={t.ctl.game.to_act()}")
            )
            raise AssertionError(f"the app did not come back to the player: {app.screen} {state}")


async def answer(pilot: Pilot[Any]) -> str:
    """Make one decision the way a player would (first legal card, first cards to pass, no bid...)."""
    app = pilot.app
    assert isinstance(app, CorazonesApp)
    await settle(pilot)
    screen = app.screen
    if isinstance(screen, HandSummary):
        await pilot.press("enter")
        return "summary"
    if isinstance(screen, GameOver):
        return "over"
    if isinstance(screen, BidDialog):
        await pilot.click("#nobid")
        return "bid"
    if isinstance(screen, DeclareDialog):
        await pilot.press("h")
        return "declare"
    if isinstance(screen, MoonDialog):
        await pilot.click("#add_to_others")
        return "moon"
    assert isinstance(screen, TableScreen)
    obs = screen.ctl.observation()
    if obs.decision is Kind.PASS:
        for i in range(obs.rules.pass_count):
            if i:
                await pilot.press("right")
            await pilot.press("enter")
        await pilot.press("p")
        return "pass"
    screen.query_one(HandView).focus()
    await pilot.press("enter")
    return "play"
