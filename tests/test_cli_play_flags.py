"""``corazones play``'s flags mean the same on a terminal (the full-screen game) and in a pipe (the line game).

A flag the full-screen game cannot take must be refused as a usage error naming it, never
end in a traceback (docs/cli.md: "never a traceback").  The full-screen game itself is not
started here: ``run_app`` is replaced by one that keeps what it was given.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from typer.testing import CliRunner

import corazones.cli.main as cli_main
import corazones.tui.app as tui_app
from corazones.cli.main import app

runner = CliRunner()
ENGLISH = {"LC_ALL": "en_US.UTF-8", "LANGUAGE": "en"}


def run(*args: str) -> tuple[int, str, Any]:
    result = runner.invoke(app, list(args), env=ENGLISH)
    flat = " ".join(re.sub(r"[│╭╮╰╯─]", " ", result.output).split())
    return result.exit_code, flat, result.exception


@pytest.fixture
def terminal(monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """``play`` believes it runs on a terminal; the full-screen game records its arguments instead of opening."""
    given: dict[str, Any] = {}

    def fake_run_app(**kwargs: Any) -> int:
        given.update(kwargs)
        return 0

    monkeypatch.setattr(cli_main, "full_screen", lambda lang: True)
    monkeypatch.setattr(tui_app, "run_app", fake_run_app)
    return given


def test_hands_beyond_a_games_limit_is_a_usage_error_on_a_terminal(terminal: dict[str, Any]) -> None:
    code, out, exception = run("play", "--hands", "600")
    assert exception is None or isinstance(exception, SystemExit), exception
    assert code == 2, out
    assert "Invalid value for '--hands'" in out and "1 to 500" in out
    assert terminal == {}  # refused before the game opens


def test_hands_beyond_a_games_limit_is_refused_in_the_line_game_too() -> None:
    code, out, _ = run("play", "--line", "--auto", "--hands", "600")
    assert code == 2, out
    assert "Invalid value for '--hands'" in out and "1 to 500" in out


def test_hands_within_the_limit_opens_a_game_of_that_many_hands(terminal: dict[str, Any]) -> None:
    code, out, _ = run("play", "--hands", "500")
    assert code == 0, out
    assert terminal["rules"].hands == 500
