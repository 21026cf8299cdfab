"""Outputs and exit codes as a shell sees them: real processes, real links, pipes and device nodes.

``--record`` (and every other output) writes through one helper: a link is
followed and stays a link, a device or a FIFO is written directly and never
replaced, a folder is refused.  A closed pipe (``| head``) ends a command
quietly with 141, not with "does not check".
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from corazones.cli.exits import CLOSED_PIPE
from corazones.core import Rules
from corazones.core.pad import Pad
from tests.test_files import device

ENV = {**os.environ, "LC_ALL": "C.UTF-8", "LANGUAGE": "en", "PYTHONUNBUFFERED": "1"}
PLAY = ["play", "--auto", "--hands", "1", "--seed", "7", "--lang", "en"]


def corazones(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "corazones", *args], capture_output=True, text=True, env=ENV, timeout=timeout
    )


def one_line(text: str) -> str:
    return " ".join(text.replace("│", " ").replace("╭", " ").replace("╰", " ").replace("─", " ").split())


def test_record_through_a_symlink_writes_its_target_and_keeps_the_link(tmp_path: Path) -> None:
    target = tmp_path / "games" / "g.json"
    target.parent.mkdir()
    link = tmp_path / "latest.json"
    link.symlink_to(target)
    done = corazones(*PLAY, "--record", str(link))
    assert done.returncode == 0, done.stderr
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert corazones("verify", str(target)).returncode == 0


def test_record_into_a_fifo_reaches_its_reader_and_the_fifo_stays(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()), daemon=True)
    reader.start()
    done = corazones(*PLAY, "--record", str(fifo))
    reader.join(30)
    assert done.returncode == 0, done.stderr
    assert json.loads(got[0])["format"] == "corazones-record"
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert "Check it: corazones verify " + str(fifo) not in done.stdout  # a pipe cannot be verified later


def test_record_to_a_device_writes_it_directly_and_never_replaces_the_node(tmp_path: Path) -> None:
    null, full = device(tmp_path, "null"), device(tmp_path, "full")
    done = corazones(*PLAY, "--record", str(null))
    assert done.returncode == 0, done.stderr
    assert stat.S_ISCHR(os.lstat(null).st_mode)
    done = corazones(*PLAY, "--record", str(full))
    assert done.returncode == 1
    assert f"Could not write the record to {full}: No space left on device" in done.stderr
    assert stat.S_ISCHR(os.lstat(full).st_mode)
    assert "Traceback" not in done.stderr


def test_record_dash_is_standard_output(tmp_path: Path) -> None:
    done = corazones(*PLAY, "--record", "-")
    assert done.returncode == 0, done.stderr
    record = done.stdout[done.stdout.index('{\n  "format"') :]
    assert json.loads(record)["format"] == "corazones-record"
    assert not (Path.cwd() / "-").exists()


def test_record_to_a_folder_or_a_system_file_is_refused_with_the_true_reason(tmp_path: Path) -> None:
    done = corazones(*PLAY, "--record", str(tmp_path))
    assert done.returncode == 2 and "it is a folder" in one_line(done.stderr)
    if Path("/proc/version").is_file():
        done = corazones(*PLAY, "--record", "/proc/version")
        said = one_line(done.stderr)
        assert done.returncode == 2
        assert "folder '/proc' does not take new files" in said and "No such file" not in said


@pytest.mark.parametrize("command", ["replay", "play"])
def test_a_closed_pipe_ends_the_command_quietly_with_141(tmp_path: Path, command: str) -> None:
    record = tmp_path / "g.json"
    assert corazones(*PLAY, "--record", str(record)).returncode == 0
    kept = tmp_path / "kept.json"
    args = {"replay": ["replay", str(record)], "play": [*PLAY, "--record", str(kept)]}[command]
    read_end, write_end = os.pipe()
    os.close(read_end)  # the reader is gone before the first line, as `| head -0` (or head after its lines)
    proc = subprocess.Popen(
        [sys.executable, "-m", "corazones", *args], stdout=write_end, stderr=subprocess.PIPE, env=ENV
    )
    os.close(write_end)
    assert proc.stderr is not None
    err = proc.stderr.read().decode()
    assert proc.wait(60) == CLOSED_PIPE == 141
    assert err == ""
    if command == "play":  # the game still keeps its record
        assert corazones("verify", str(kept)).returncode == 0


def test_an_output_is_never_the_file_the_command_reads(tmp_path: Path) -> None:
    """``review g.json --out g.json`` and ``pad --load p.json --csv p.json`` would destroy their input."""
    record = tmp_path / "g.json"
    assert corazones("play", "--auto", "--seed", "3", "-r", "quick", "--record", str(record)).returncode == 0
    before = record.read_bytes()
    link = tmp_path / "same.json"
    link.symlink_to(record)
    for out in (record, link):
        r = corazones("review", str(record), "--out", str(out), "--worlds", "2", "--pass-worlds", "2")
        assert r.returncode == 2 and "it is the file being read" in one_line(r.stderr), r.stderr
    assert record.read_bytes() == before
    pad = tmp_path / "p.json"
    pad.write_text(Pad(Rules.preset("standard"), ("A", "B", "C", "D")).dumps(), encoding="utf-8")
    kept = pad.read_bytes()
    r = corazones("pad", "--load", str(pad), "--csv", str(pad), "--line")
    assert r.returncode == 2 and "it is the file being read" in one_line(r.stderr), r.stderr
    assert pad.read_bytes() == kept
