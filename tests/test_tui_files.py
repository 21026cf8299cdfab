"""The full-screen game and its files: a tampered save, Ctrl+C, ``--record`` to a device or a pipe.

Everything the app reads back from disk (the saved game, its seat file, the
settings) goes through the checks a record does; Ctrl+C keeps the game and
exits 130, as ``docs/cli.md`` says.
"""

from __future__ import annotations

import asyncio
import json
import os
import pty
import select
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from corazones.cli.exits import INTERRUPTED
from corazones.core.records import loads, replay
from corazones.core.rules import Rules
from corazones.players.registry import make_player
from corazones.tui import settings as cfg
from corazones.tui.app import CorazonesApp
from corazones.tui.controller import Controller, seats_path
from corazones.tui.table import TableScreen
from tests.helpers import PATIENCE
from tests.tui_driver import answer, settle, table_of, waiting

SIZE = (100, 32)
HOSTILE = ["\u001b]0;pwned\u0007Ana", "\u001b[2JBruno", "\u202eCarmen", "Pat"]


@pytest.fixture(autouse=True)
def private_dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    return tmp_path


def fast() -> cfg.Settings:
    return cfg.Settings(speed="instant", name="Pat", lang="en", levels=["random"] * 10)


def saved_game(names: list[str], levels: list[str | None] | None = None) -> Path:
    """A saved game a few moves in, its seat file then written by hand with ``names`` and ``levels``."""
    ctl = Controller.new(Rules.preset("standard"), ["Ana", "Bruno", "Carmen", "Pat"], ["random"] * 3 + [None], 4)
    for seat in (0, 1, 2):
        ctl.apply(make_player("random", f"t/{seat}").act(ctl.observation(seat)))
    path = cfg.saved_game_path()
    ctl.save(path)
    meta = {"names": names, "levels": levels if levels is not None else ["random"] * 3 + [None]}
    seats_path(path).write_text(json.dumps(meta), encoding="utf-8")
    return path


def test_a_tampered_seat_file_is_cleaned_on_resume_and_saves_again() -> None:
    path = saved_game(HOSTILE)

    async def run() -> None:
        app = CorazonesApp(resume=True, settings=fast(), remember=False)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            table = table_of(app)
            assert table.ctl.names == ["Ana", "Bruno", "Carmen", "Pat"]
            await answer(pilot)
            await pilot.press("q")  # leaving saves again: the cleaned names are a record's names
            await pilot.pause()
            assert not isinstance(app.screen, TableScreen)

    asyncio.run(run())
    record = loads(path.read_text(encoding="utf-8"))
    assert record["players"] == ["Ana", "Bruno", "Carmen", "Pat"]
    assert json.loads(seats_path(path).read_text(encoding="utf-8"))["names"] == record["players"]
    replay(record)


@pytest.mark.parametrize(
    ("seats", "said"),
    [
        ({"names": ["a", "b", "c", "d"], "levels": ["grandmaster", "random", "random", None]}, "levels must be one of"),
        ('{"names": [', "not JSON"),
        ({"names": ["a"], "levels": [None]}, "must list 4 names and 4 levels"),
        ("x" * 70_000, "larger than 65,536 bytes"),
    ],
    ids=["unknown-level", "not-json", "too-few-seats", "too-large"],
)
def test_a_bad_save_is_refused_with_a_clear_message_and_kept(seats: Any, said: str) -> None:
    path = saved_game(["Ana", "Bruno", "Carmen", "Pat"])
    text = seats if isinstance(seats, str) else json.dumps(seats)
    seats_path(path).write_text(text, encoding="utf-8")
    before = path.read_bytes()

    async def run() -> None:
        app = CorazonesApp(resume=True, settings=fast(), remember=False)
        async with app.run_test(size=SIZE) as pilot:
            for _ in waiting(PATIENCE):  # the refusal is said at mount: give a loaded machine time
                if app.resume_error is not None:
                    break
                await pilot.pause(0.05)
            assert not any(isinstance(s, TableScreen) for s in app.screen_stack)
            shown = app.resume_error or ""
            assert "The saved game could not be resumed" in shown and said in shown, shown
            assert "Traceback" not in shown

    asyncio.run(run())
    assert path.read_bytes() == before and seats_path(path).read_text(encoding="utf-8") == text


def test_settings_read_back_are_checked_a_name_with_escapes_is_cleaned(private_dirs: Path) -> None:
    path = private_dirs / "tui.json"
    path.write_text(json.dumps({"name": "\u001b]0;pwned\u0007Pat\u202e", "speed": "key", "target": 10**50}))
    s = cfg.load_settings(path)
    assert s.name == "Pat" and s.speed == "key" and s.target is None  # a 51-digit number: that value alone is refused
    path.write_text(json.dumps({"name": "\u001b[2JPat", "speed": "key"}))
    s = cfg.load_settings(path)
    assert s.name == "Pat" and s.speed == "key"


def test_ctrl_c_at_the_table_saves_the_game_and_exits_130(private_dirs: Path) -> None:
    async def run() -> CorazonesApp:
        app = CorazonesApp(rules=Rules.preset("standard"), seed=5, settings=fast(), remember=False)
        async with app.run_test(size=SIZE) as pilot:
            await answer(pilot)
            await settle(pilot)
            await pilot.press("ctrl+c")
            await pilot.pause()
        return app

    app = asyncio.run(run())
    assert app.return_code == INTERRUPTED == 130
    saved = cfg.saved_game_path()
    assert replay(loads(saved.read_text(encoding="utf-8"))).actions


def test_a_game_that_cannot_be_saved_is_not_dropped_by_the_first_q(private_dirs: Path) -> None:
    """A folder where the save goes (as a full disk would): the first q says so and stays, the second leaves."""
    cfg.saved_game_path().mkdir(parents=True)

    async def run() -> CorazonesApp:
        app = CorazonesApp(rules=Rules.preset("standard"), seed=5, settings=fast(), remember=False)
        async with app.run_test(size=SIZE) as pilot:
            await answer(pilot)
            await settle(pilot)
            table = table_of(app)
            await pilot.press("q")
            await pilot.pause()
            assert app.screen is table, "the first q left a game it could not save"
            said = str(table.query_one("#message").render())
            assert "Could not save to" in said, said
            await pilot.press("q")
            await pilot.pause()
            assert not isinstance(app.screen, TableScreen)
        return app

    asyncio.run(run())


def _in_terminal(args: list[str], tmp: Path, keys: list[tuple[bytes, bytes]]) -> tuple[int, bytes]:
    """Run ``corazones`` on a pseudo-terminal; for each (wait_for, send) wait for the text then type; the exit code."""
    main, sub = pty.openpty()
    env = {**os.environ, "TERM": "xterm-256color", "COLUMNS": "100", "LINES": "32"}
    env |= {"XDG_CONFIG_HOME": str(tmp / "config"), "XDG_DATA_HOME": str(tmp / "data")}
    proc = subprocess.Popen([sys.executable, "-m", "corazones", *args], stdin=sub, stdout=sub, stderr=sub, env=env)
    os.close(sub)
    out = b""
    pending = list(keys)
    end = time.monotonic() + 2 * PATIENCE
    try:
        while time.monotonic() < end and proc.poll() is None:
            ready, _, _ = select.select([main], [], [], 0.2)
            if ready:
                try:
                    out += os.read(main, 65536)
                except OSError:
                    break
            if pending and pending[0][0] in out:
                time.sleep(0.5)
                os.write(main, pending.pop(0)[1])
        code = proc.wait(PATIENCE)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(main)
    return code, out


def test_ctrl_c_in_the_full_screen_game_exits_130_with_the_game_saved_and_recorded(private_dirs: Path) -> None:
    record = private_dirs / "out.json"
    code, out = _in_terminal(
        ["play", "--seed", "3", "--lang", "en", "--record", str(record)], private_dirs, [(b"seed commitment", b"\x03")]
    )
    assert code == 130, out[-2000:]
    saved = private_dirs / "data" / "corazones" / "saved-game.json"
    assert saved.is_file() and record.is_file()
    assert b"Traceback" not in out
