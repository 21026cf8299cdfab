"""``corazones verify``: check a game record or a JSON Lines hand log.

The kind of file is told from its content, not its name: a JSON object with
``"format": "corazones-record"`` is a game record; anything else is read as a
hand log, one deal per line (a single pretty-printed hand-log object is
accepted too).  Exit codes: 0 everything checks, 1 a discrepancy (or no deal
at all), 2 the file cannot be read.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import typer

from corazones.core.errors import CorazonesError
from corazones.core.handlog import check_entry, check_line
from corazones.core.records import FORMAT, check_shape, loads, verify_record

_NOT_JSON = object()


def read_text(file: Path) -> str | None:
    """The file's text (UTF-8, a byte-order mark tolerated), or ``None`` after saying why not."""
    try:
        return file.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as e:
        typer.echo(f"cannot read {file}: not UTF-8 text (byte {e.start})", err=True)
    except OSError as e:
        typer.echo(f"cannot read {file}: {e.strerror or e}", err=True)
    return None


def run_verify(file: Path) -> int:
    text = read_text(file)
    if text is None:
        return 2
    whole: Any
    try:
        whole = json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        whole = _NOT_JSON
    if isinstance(whole, dict) and "format" in whole:
        return _verify_record(file, whole)
    if whole is _NOT_JSON and FORMAT in text[:500] and text.lstrip().startswith("{"):
        # a damaged record (cut short, say): report it as a record, not as lines of a log
        try:
            loads(text)
        except CorazonesError as e:
            typer.echo(f"FAIL {file}: {e}")
            return 1
    if isinstance(whole, dict) and "\n" in text.strip():
        verdicts = [(1, check_entry(whole))]
    else:
        verdicts = [(no, check_line(line)) for no, line in enumerate(text.splitlines(), 1) if line.strip()]
    passed = failed = 0
    for no, verdict in verdicts:
        typer.echo(f"line {no}: {verdict}")
        if verdict.ok:
            passed += 1
        else:
            failed += 1
    if not verdicts:
        typer.echo(f"{file}: no deal to check (the file is empty)")
    typer.echo(f"{passed} passed, {failed} failed")
    return 1 if failed or not passed else 0


def _verify_record(file: Path, data: dict[str, Any]) -> int:
    try:
        game = verify_record(check_shape(data))
    except CorazonesError as e:
        typer.echo(f"FAIL {file}: {e}")
        return 1
    state = "game over, winner(s) " + ", ".join(map(str, game.winners)) if game.over else "game not finished"
    scores = f"chips {game.chips}" if game.rules.settlement in ("chips_1887", "chips_pool") else f"scores {game.scores}"
    hands = f"{len(game.history)} hand" + ("" if len(game.history) == 1 else "s")
    typer.echo(f"OK {file}: {len(game.actions)} actions, {hands}, {state}, {scores}")
    return 0
