"""``corazones verify`` and ``replay`` from the command line: what a user types, what they are told."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from corazones.cli.main import app
from corazones.core.commitment import commit

runner = CliRunner()


def test_verify_takes_a_seed_of_two_minus_signs_as_text() -> None:
    # "--5" is not a number: it is the text seed "--5", as the game takes it, never a crash
    r = runner.invoke(app, ["verify", "--seed=--5", "--commitment", commit("--5")])
    assert r.exit_code == 0, r.output
    assert "OK: seed --5 is the one committed to" in r.output
    r = runner.invoke(app, ["verify", "--seed=-5", "--commitment", commit(-5)])
    assert r.exit_code == 0, r.output


def test_play_takes_a_seed_of_two_minus_signs_as_text(tmp_path: Path) -> None:
    record = tmp_path / "g.json"
    r = runner.invoke(app, ["play", "--auto", "-r", "quick", "--seed=--5", "--record", str(record)])
    assert r.exit_code == 0, r.output
    assert '"seed": "--5"' in record.read_text()
    r = runner.invoke(app, ["verify", str(record)])
    assert r.exit_code == 0, r.output
