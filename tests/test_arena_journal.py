"""The arena's journal: an interrupted run goes on where it stopped and gives the figures of an unbroken one."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

from corazones.cli.exits import plain_interrupts
from corazones.cli.main import app
from corazones.core import Rules
from corazones.services.arena import ArenaConfig, run_arena
from corazones.services.arena_journal import FILE_NAME, JournalError


def config(boards: int, seed: str = "journal", mode: str = "deals") -> ArenaConfig:
    return ArenaConfig(("random", "beginner"), Rules.preset("standard"), boards=boards, seed=seed, mode=mode)


def lines(path: Path) -> list[str]:
    return path.read_text().splitlines()


def test_resuming_plays_only_the_missing_boards_and_matches_an_unbroken_run(tmp_path: Path) -> None:
    journal = tmp_path / FILE_NAME
    whole = run_arena(config(10), workers=1)
    first = run_arena(config(6), workers=2, journal=journal)
    assert len(lines(journal)) == 1 + 6
    assert first.outcome() == [row for row in whole.outcome() if row[0] < 6]
    seen: list[int] = []
    resumed = run_arena(config(10), workers=2, journal=journal, resume=True, progress=lambda d, t: seen.append(d))
    assert resumed.extra == {"resumed_boards": 6}
    assert seen[0] == 6 and seen[-1] == 10
    assert resumed.outcome() == whole.outcome()
    assert [p.points_per_deal for p in resumed.players] == [p.points_per_deal for p in whole.players]
    assert len(lines(journal)) == 1 + 10
    # fewer boards than the journal holds: the first ones count, the file keeps them all
    short = run_arena(config(4), workers=1, journal=journal, resume=True)
    assert short.outcome() == [row for row in whole.outcome() if row[0] < 4]
    assert len(lines(journal)) == 1 + 10


def test_a_last_line_cut_short_is_dropped_and_its_board_played_again(tmp_path: Path) -> None:
    journal = tmp_path / FILE_NAME
    run_arena(config(5, mode="games"), workers=1, journal=journal)
    raw = journal.read_bytes()
    journal.write_bytes(raw[:-40])  # the interruption came in the middle of the last board's line
    resumed = run_arena(config(5, mode="games"), workers=1, journal=journal, resume=True)
    assert resumed.extra == {"resumed_boards": 4}
    assert resumed.outcome() == run_arena(config(5, mode="games"), workers=1).outcome()
    assert journal.read_bytes().endswith(b"\n") and len(lines(journal)) == 1 + 5


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (b'{"kind":"corazones-arena","lay', "its first line is cut short"),
        (b"some notes of mine\nthat are not a journal, no newline at the end", "does not say what was played"),
    ],
)
def test_a_file_that_is_no_journal_of_this_run_is_left_as_it_is(tmp_path: Path, text: bytes, message: str) -> None:
    """Resuming cuts a last line short only in the journal of this very run: any other file keeps every byte."""
    journal = tmp_path / FILE_NAME
    journal.write_bytes(text)
    with pytest.raises(JournalError, match=message):
        run_arena(config(3), workers=1, journal=journal, resume=True)
    assert journal.read_bytes() == text


def test_an_existing_journal_is_never_overwritten(tmp_path: Path) -> None:
    journal = tmp_path / FILE_NAME
    run_arena(config(3), workers=1, journal=journal)
    before = journal.read_bytes()
    with pytest.raises(JournalError, match="already holds the boards of a run; resume it"):
        run_arena(config(3), workers=1, journal=journal)
    assert journal.read_bytes() == before


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        (lambda ls: ls.__setitem__(0, ls[0].replace('"seed":"journal"', '"seed":"other"')), r"different seed\)"),
        (lambda ls: ls.__setitem__(0, ls[0].replace('"version":"', '"version":"9')), "was played by Corazones '9"),
        (lambda ls: ls.__setitem__(0, "{}"), "its first line does not say what was played"),
        (lambda ls: ls.__setitem__(0, re.sub('"code":"[0-9a-f]+"', '"code":"0"', ls[0])), "was played by other code"),
        (lambda ls: ls.__setitem__(2, ls[2].replace('"board":1,', '"board":"1",')), "line 3 of .* is not a board"),
        (lambda ls: ls.__setitem__(3, ls[3].replace('"moons_shot":[', '"moons_shot":[0,')), "line 4 of .*moon counts"),
        (lambda ls: ls.__setitem__(2, ls[2][: len(ls[2]) // 2]), "line 3 of .* is not a board"),
    ],
)
def test_a_journal_of_another_run_or_damaged_is_refused_and_left_as_it_is(
    tmp_path: Path, damage: Callable[[list[str]], None], message: str
) -> None:
    journal = tmp_path / FILE_NAME
    run_arena(config(3), workers=1, journal=journal)
    text = lines(journal)
    damage(text)
    journal.write_text("\n".join(text) + "\n")
    before = journal.read_bytes()
    with pytest.raises(JournalError, match=message):
        run_arena(config(3), workers=1, journal=journal, resume=True)
    assert journal.read_bytes() == before


def test_a_damaged_journal_keeps_even_its_cut_last_line(tmp_path: Path) -> None:
    """A refused journal is left byte for byte, its last line cut short by an interruption included."""
    journal = tmp_path / FILE_NAME
    run_arena(config(3), workers=1, journal=journal)
    text = lines(journal)
    text[2] = text[2].replace('"board":1,', '"board":"1",')  # damaged by hand
    journal.write_text("\n".join(text) + "\n" + text[3][:30])  # and a last board cut short
    before = journal.read_bytes()
    with pytest.raises(JournalError, match=r"line 3 of .* is not a board"):
        run_arena(config(3), workers=1, journal=journal, resume=True)
    assert journal.read_bytes() == before


def _renumbered(line: str, board: int) -> str:
    data = json.loads(line)
    data["board"] = board
    for row in data["rows"]:
        row[0] = board
    return json.dumps(data, separators=(",", ":"))


def _reseated(line: str) -> str:
    data = json.loads(line)
    data["rows"][0][2] = 9  # a seat the table does not have
    return json.dumps(data, separators=(",", ":"))


def _one_rotation(line: str) -> str:
    data = json.loads(line)
    data["rows"] = [row for row in data["rows"] if row[1] == 0]  # the second rotation is missing
    return json.dumps(data, separators=(",", ":"))


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        (lambda ls: ls.append(_renumbered(ls[1], -1)), "line 5 of .*board -1 is no board number"),
        (lambda ls: ls.__setitem__(2, _reseated(ls[2])), "line 3 of .*not the seats of this run's rotations"),
        (lambda ls: ls.__setitem__(3, _one_rotation(ls[3])), "line 4 of .*not the seats of this run's rotations"),
    ],
    ids=["board -1", "seat 9", "one rotation missing"],
)
def test_a_board_that_this_run_does_not_play_is_refused(
    tmp_path: Path, damage: Callable[[list[str]], None], message: str
) -> None:
    """A line of well-typed numbers is still no board of the run if its number or seats are not the run's."""
    journal = tmp_path / FILE_NAME
    run_arena(config(3), workers=1, journal=journal)
    text = lines(journal)
    damage(text)
    journal.write_text("\n".join(text) + "\n")
    before = journal.read_bytes()
    with pytest.raises(JournalError, match=message):
        run_arena(config(3), workers=1, journal=journal, resume=True)
    assert journal.read_bytes() == before


def test_a_contender_whose_code_changed_cannot_resume_the_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    bot = tmp_path / "journal_bot.py"
    bot.write_text("from corazones.players.beginner import BeginnerBot as make\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    changing = ArenaConfig(("journal_bot:make", "random"), Rules.preset("standard"), boards=3, seed="code")
    journal = tmp_path / FILE_NAME
    run_arena(changing, workers=1, journal=journal)
    assert run_arena(changing, workers=1, journal=journal, resume=True).extra == {"resumed_boards": 3}
    bot.write_text("from corazones.players.standard import StandardBot as make\n")  # a better bot, same name
    with pytest.raises(JournalError, match="was played by other code"):
        run_arena(changing, workers=1, journal=journal, resume=True)


# --------------------------------------------------------------------- CLI
runner = CliRunner()


def test_cli_out_keeps_a_journal_that_resume_extends(tmp_path: Path) -> None:
    out = tmp_path / "run"
    base = ["arena", "random", "beginner", "--seed", "cli", "-j", "1", "-q", "--out", str(out)]
    r = runner.invoke(app, [*base, "--deals", "3"])
    assert r.exit_code == 0, r.output
    assert len(lines(out / FILE_NAME)) == 1 + 3
    r = runner.invoke(app, [*base, "--deals", "3"])
    assert r.exit_code == 2
    assert "already holds the boards of a run" in " ".join(r.output.replace("│", " ").split())
    r = runner.invoke(app, [*base, "--deals", "5", "--resume"])
    assert r.exit_code == 0, r.output
    assert "(3 boards read back from the journal)" in " ".join(r.output.split())
    assert json.loads((out / "results.json").read_text())["run"]["resumed_boards"] == 3
    boards = {row.split(",")[0] for row in lines(out / "results.csv")[1:]}
    assert boards == {"0", "1", "2", "3", "4"}
    r = runner.invoke(app, [*base, "--deals", "5", "--resume", "--seed", "else"])
    assert r.exit_code == 2
    assert "different seed" in " ".join(r.output.replace("│", " ").split())
    r = runner.invoke(app, ["arena", "random", "beginner", "--resume"])
    assert r.exit_code == 2
    assert "give --out too" in " ".join(r.output.replace("│", " ").split())


def _ctrl_c_as_on_a_terminal() -> None:
    """The child starts with Ctrl-C's default action and SIGINT unblocked, as a command typed at a terminal does.

    An ignored or blocked SIGINT is inherited across exec, and Python then
    leaves it so (as a job started in the background with ``&`` should be): a
    test process that something had left ignoring SIGINT (an xdist worker, after
    another test) made the arena deaf to the test's Ctrl-C.
    """
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def _children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (from /proc)."""
    out = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(fields[1]) == pid:
            out.append(int(stat.parent.name))
    return out


def _running(pid: int) -> bool:
    """Whether process ``pid`` still runs (a zombie waiting to be reaped does not)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


@pytest.mark.integration
@pytest.mark.parametrize("workers", ["1", "2"])
def test_ctrl_c_keeps_the_finished_boards_and_says_how_to_go_on(tmp_path: Path, workers: str) -> None:
    out = tmp_path / "run"
    cmd = [sys.executable, "-m", "corazones", "arena", "random", "beginner", "--deals", "100000"]
    cmd += ["--seed", "c", "-q", "-j", workers, "--out", str(out)]
    proc = subprocess.Popen(
        cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=_ctrl_c_as_on_a_terminal
    )
    journal = out / FILE_NAME
    deadline = time.monotonic() + 120
    while not (journal.exists() and len(lines(journal)) > 3) and time.monotonic() < deadline:
        time.sleep(0.1)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err
    assert "interrupted; the finished boards are kept in" in err and "--resume" in err
    assert "Traceback" not in err
    kept = [json.loads(line)["board"] for line in lines(journal)[1:]]  # every line written is whole
    assert len(kept) >= 3
    # the run goes on from there (with two workers the boards finished need not be the first ones)
    more = max(kept) + 2
    args = ["arena", "random", "beginner", "--deals", str(more), "--seed", "c", "-q", "-j", "1"]
    r = runner.invoke(app, [*args, "--out", str(out), "--resume"])
    assert r.exit_code == 0, r.output
    assert f"({len(set(kept))} boards read back from the journal)" in " ".join(r.output.split())
    assert len(lines(journal)) == 1 + more


@pytest.mark.integration
@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads the process table from /proc")
@pytest.mark.parametrize("stop", ["ctrl-c", "sigterm"])
def test_a_stop_stops_every_worker_and_keeps_the_journal(tmp_path: Path, stop: str) -> None:
    """Ctrl-C at a terminal (SIGINT to every process of the run) or SIGTERM to the arena alone (``kill``).

    Either way the run keeps its journal, says how to go on and exits 130,
    with no worker's traceback on the way; and no worker is left: with
    search players a board takes seconds, so a worker left behind would
    still be playing long after the arena is gone.
    """
    out = tmp_path / "run"
    cmd = [sys.executable, "-m", "corazones", "arena", "expert", "standard", "--deals", "1000"]
    cmd += ["--seed", "t", "-q", "-j", "2", "--out", str(out)]
    proc = subprocess.Popen(
        cmd,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # its own process group, as a command typed at a terminal
        preexec_fn=_ctrl_c_as_on_a_terminal,
    )
    deadline = time.monotonic() + 120
    helpers: list[int] = []
    while len(helpers) < 2 and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.2)
        helpers = _children(proc.pid)
    assert len(helpers) >= 2, "the run has worker processes"
    time.sleep(2)  # the workers are playing their first boards
    if stop == "ctrl-c":
        os.killpg(proc.pid, signal.SIGINT)
    else:
        proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "interrupted; the finished boards are kept in" in err and "--resume" in err
    assert "Traceback" not in err and "Worker" not in err, err
    deadline = time.monotonic() + 10
    while [pid for pid in helpers if _running(pid)] and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not [pid for pid in helpers if _running(pid)], "a worker went on playing after the arena stopped"


def _interrupted_inside_compiled_code(*_: object) -> None:
    """Ctrl-C as it surfaces when it lands inside a compiled (mypyc) call: a SystemError caused by it."""
    try:
        raise KeyboardInterrupt
    except KeyboardInterrupt as e:
        raise SystemError("<built-in function apply> returned a result with an exception set") from e


def test_ctrl_c_inside_compiled_code_is_still_an_interrupt(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("corazones.cli.arena_cmd._run_with_progress", _interrupted_inside_compiled_code)
    r = runner.invoke(app, ["arena", "random", "beginner", "--deals", "4", "-q", "--out", str(tmp_path / "run")])
    assert r.exit_code == 130, r.output
    assert "interrupted; the finished boards are kept in" in " ".join(r.output.replace("│", " ").split())
    assert r.exception is None or isinstance(r.exception, SystemExit)


def test_other_errors_pass_through_plain_interrupts() -> None:
    with pytest.raises(SystemError), plain_interrupts():
        raise SystemError("not an interrupt")
    with pytest.raises(KeyboardInterrupt), plain_interrupts():
        _interrupted_inside_compiled_code()
    # an error that says it is not the interrupt's (``from None``) stays itself
    with pytest.raises(ValueError), plain_interrupts():
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt:
            raise ValueError("cleanup failed") from None


def test_a_full_disk_mid_run_stops_with_one_line_and_keeps_the_boards(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import errno

    from corazones.services import arena_journal

    written: list[int] = []

    def fsync(fd: int) -> None:
        written.append(fd)
        if len(written) > 1:  # the first board reached the disk, the second does not fit
            raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(arena_journal.os, "fsync", fsync)
    out = tmp_path / "run"
    r = runner.invoke(app, ["arena", "random", "beginner", "--deals", "3", "-j", "1", "-q", "--out", str(out)])
    assert r.exit_code == 1, r.output
    assert isinstance(r.exception, SystemExit)  # said in one line, not a traceback
    assert "could not write the journal" in r.output and "No space left on device" in r.output
    assert "--resume" in r.output
    monkeypatch.undo()
    r = runner.invoke(
        app, ["arena", "random", "beginner", "--deals", "3", "-j", "1", "-q", "--out", str(out), "--resume"]
    )
    assert r.exit_code == 0, r.output
    assert "boards read back from the journal" in " ".join(r.output.split())
