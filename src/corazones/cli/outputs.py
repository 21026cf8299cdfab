"""Checking where a command will write before it does any work.

A game of an hour or a tournament of a thousand deals must not end in "cannot
write": every output flag is checked when the command starts, by creating
(and removing) a file exactly where the output will go, which answers for
missing folders, read-only file systems and permissions alike (asking
``os.access`` does not: it says yes to root on a read-only mount).  A problem
is a usage error (exit 2) naming the flag, the path and why.
"""

from __future__ import annotations

import contextlib
import os
import secrets
from pathlib import Path

import typer

from corazones.core.text import safe_line


def _why(e: OSError) -> str:
    return e.strerror or str(e)


def _probe(folder: Path) -> None:
    """Create and remove a file in ``folder``; OSError if that is not possible."""
    probe = folder / f".corazones-probe-{secrets.token_hex(4)}"
    fd = os.open(probe, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
    os.close(fd)
    with contextlib.suppress(OSError):
        probe.unlink()


def check_record_path(path: Path, flag: str = "--record") -> None:
    """A file the command can write (replace) at the end; :class:`typer.BadParameter` now otherwise."""
    shown = safe_line(str(path), 200)
    if path.is_dir():
        raise typer.BadParameter(f"cannot write to {shown!r}: it is a folder", param_hint=f"'{flag}'")
    parent = path.parent
    if not parent.is_dir():
        why = "is a file" if parent.exists() else "does not exist"
        raise typer.BadParameter(
            f"cannot write to {shown!r}: folder {safe_line(str(parent), 200)!r} {why}", param_hint=f"'{flag}'"
        )
    try:
        _probe(parent)
    except OSError as e:
        raise typer.BadParameter(f"cannot write to {shown!r}: {_why(e)}", param_hint=f"'{flag}'") from None


def check_output_dir(path: Path, flag: str = "--out") -> None:
    """A folder the command can write files into: created now if needed; :class:`typer.BadParameter` otherwise."""
    shown = safe_line(str(path), 200)
    if path.exists() and not path.is_dir():
        why = "is a file; give a folder (it is created if needed)"
        raise typer.BadParameter(f"{shown!r} {why}", param_hint=f"'{flag}'")
    try:
        path.mkdir(parents=True, exist_ok=True)
        _probe(path)
    except OSError as e:
        raise typer.BadParameter(f"cannot write into {shown!r}: {_why(e)}", param_hint=f"'{flag}'") from None
