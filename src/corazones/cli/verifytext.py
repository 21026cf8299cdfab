"""``corazones verify``: check a game record or a JSON Lines hand log."""

from __future__ import annotations

from pathlib import Path

import typer

from corazones.core.errors import CorazonesError
from corazones.core.handlog import check_line
from corazones.core.records import loads, verify_record


def run_verify(file: Path) -> int:
    try:
        text = file.read_text(encoding="utf-8")
    except OSError as e:
        typer.echo(f"cannot read {file}: {e.strerror}", err=True)
        return 2
    stripped = text.lstrip()
    if stripped.startswith("{") and '"format"' in stripped[:200] and "corazones-record" in stripped[:400]:
        try:
            game = verify_record(loads(text))
        except CorazonesError as e:
            typer.echo(f"FAIL {file}: {e}")
            return 1
        typer.echo(f"OK {file}: {len(game.actions)} actions, {len(game.history)} hands, scores {game.scores}")
        return 0
    passed = failed = 0
    for no, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        verdict = check_line(line)
        if verdict.ok:
            passed += 1
            typer.echo(f"line {no}: {verdict.message}")
        else:
            failed += 1
            typer.echo(f"line {no}: FAIL {verdict.message}")
    typer.echo(f"{passed} passed, {failed} failed")
    return 1 if failed or not passed else 0
