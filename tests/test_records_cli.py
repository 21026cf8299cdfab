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


def test_digits_are_a_number_however_many_so_too_many_are_refused_alike_everywhere() -> None:
    """41 digits and 45 digits are both a number too long, not one refused and the other taken as text."""
    for digits in (41, 45, 3000):
        seed = "9" * digits
        for args in (
            ["verify", f"--seed={seed}", "--commitment", "0" * 64],
            ["play", "--auto", "-r", "quick", f"--seed={seed}"],
            ["arena", "random", "random", "--deals", "1", f"--seed={seed}"],
        ):
            r = runner.invoke(app, args)
            assert r.exit_code != 0, (args[0], digits, r.output)
            assert "at most 40 digits" in " ".join(r.output.split()), (args[0], digits, r.output)
    r = runner.invoke(app, ["verify", f"--seed={'9' * 40}", "--commitment", commit(int("9" * 40))])
    assert r.exit_code == 0, r.output


def test_the_line_games_check_command_can_be_pasted_into_a_shell(tmp_path: Path) -> None:
    import shlex

    r = runner.invoke(app, ["play", "--auto", "-r", "quick", "--seed=my seed"])
    assert r.exit_code == 0, r.output
    line = next(x for x in r.output.splitlines() if x.startswith("Check it: "))
    argv = shlex.split(line.removeprefix("Check it: "))
    assert argv[:3] == ["corazones", "verify", "--seed"] and argv[3] == "my seed"
    again = runner.invoke(app, argv[1:])
    assert again.exit_code == 0 and "OK: seed my seed" in again.output, again.output
    record = tmp_path / "a game.json"
    r = runner.invoke(app, ["play", "--auto", "-r", "quick", "--seed=7", "--record", str(record)])
    line = next(x for x in r.output.splitlines() if x.startswith("Check it: "))
    assert shlex.split(line.removeprefix("Check it: ")) == ["corazones", "verify", str(record)]
