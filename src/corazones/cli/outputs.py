"""Checking where a command will write before it does any work.

A game of an hour or a tournament of a thousand deals must not end in "cannot
write": every output flag is checked when the command starts, by creating
(and removing) a file exactly where the output will go, which answers for
missing folders, read-only file systems and permissions alike (asking
``os.access`` does not: it says yes to root on a read-only mount).  A problem
is a usage error (exit 2) naming the flag, the path and why, in the command's language.
"""

from __future__ import annotations

import contextlib
import os
import secrets
from pathlib import Path

from corazones.cli.flags import quoted, refuse
from corazones.i18n import N_
from corazones.i18n.oserrors import os_reason


def _probe(folder: Path) -> None:
    """Create and remove a file in ``folder``; OSError if that is not possible."""
    probe = folder / f".corazones-probe-{secrets.token_hex(4)}"
    fd = os.open(probe, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
    os.close(fd)
    with contextlib.suppress(OSError):
        probe.unlink()


def check_output_file(path: Path, flag: str = "--record", lang: str = "en") -> None:
    """A file the command can write (replace) at the end; a usage error (in ``lang``) now otherwise."""
    shown = quoted(path, 200)
    if path.is_dir():
        refuse(flag, lang, N_("cannot write to {path}: it is a folder"), path=shown)
    parent = path.parent
    if not parent.is_dir():
        if parent.exists():
            refuse(
                flag,
                lang,
                N_("cannot write to {path}: folder {folder} is a file"),
                path=shown,
                folder=quoted(parent, 200),
            )
        refuse(
            flag,
            lang,
            N_("cannot write to {path}: folder {folder} does not exist"),
            path=shown,
            folder=quoted(parent, 200),
        )
    try:
        _probe(parent)
    except OSError as e:
        refuse(flag, lang, N_("cannot write to {path}: {why}"), path=shown, why=os_reason(e))


def check_output_dir(path: Path, flag: str = "--out", lang: str = "en") -> None:
    """A folder the command can write files into: created now if needed; a usage error (in ``lang``) otherwise."""
    shown = quoted(path, 200)
    if path.exists() and not path.is_dir():
        refuse(flag, lang, N_("{path} is a file; give a folder (it is created if needed)"), path=shown)
    try:
        path.mkdir(parents=True, exist_ok=True)
        _probe(path)
    except OSError as e:
        refuse(flag, lang, N_("cannot write into {path}: {why}"), path=shown, why=os_reason(e))
