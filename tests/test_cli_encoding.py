"""A terminal whose encoding lacks the suits (Latin-1, ASCII) gets plain letters, never a traceback."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from corazones.cli.encoding import can_show, plain

ROOT = Path(__file__).resolve().parent.parent


def run(args: list[str], encoding: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONIOENCODING": encoding, "COLUMNS": "100", "NO_COLOR": "1"}
    return subprocess.run(
        [sys.executable, "-m", "corazones", *args],
        input=stdin.encode(encoding),
        capture_output=True,
        env=env,
        cwd=ROOT,
        timeout=120,
        check=False,
    )  # type: ignore[call-overload,no-any-return]


def test_cards_and_box_lines_in_plain_letters() -> None:
    assert [plain(c) for c in "♠♥♦♣"] == ["S", "H", "D", "C"]
    assert plain("─") == "-" and plain("│") == "|" and plain("╭") == "+" and plain("…") == "..."
    assert plain("é") == "e" and plain("\u4e00") == "?"
    assert can_show("utf-8") and not can_show("latin-1") and not can_show("ascii") and not can_show("no-such")


@pytest.mark.parametrize("encoding", ["latin-1", "cp1252"])
@pytest.mark.parametrize(
    ("args", "stdin", "shown"),
    [
        (["rules", "standard"], "", "QS 13"),
        (["--help"], "", "Usage: python -m corazones"),
        (["play", "--line", "--seed", "1", "--lang", "en"], "q\n", "Your hand: 3C 5C"),
        (["pad", "--names", "Ana,Bea,Carl,Dan", "--lang", "es"], "3 4 6 0 QS=Carl\nquit\n", "Totales"),
    ],
)
def test_a_legacy_encoding_shows_letters_for_the_suits(encoding: str, args: list[str], stdin: str, shown: str) -> None:
    done = run(args, encoding, stdin)
    out, err = done.stdout.decode(encoding), done.stderr.decode(encoding)
    assert "Traceback" not in err and "UnicodeEncodeError" not in out + err, err
    assert shown in out, out
    assert done.returncode in (0, 130), (done.returncode, err)
