"""Saving a file whole or not at all: the one atomic write of every face.

A record, a score pad, the terminal app's saved game and its settings are
written through a temporary file in the same folder and renamed over the
target, so an interrupted save (a full disk, a killed process) never leaves
half a file.  The temporary name is unique, so two writers of one path (two
terminals saving the same pad) cannot write into each other's file.  The
saved file has the permissions a plain write would give it: those of the file
it replaces, or the usual ones under the process's umask for a new file (a
temporary file alone would be private to its owner).
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from pathlib import Path

#: The process's file-creation mask, read once (reading it means setting it, so not at every save).
_UMASK = os.umask(0o022)
os.umask(_UMASK)


def save_atomic(path: Path, text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` through a unique temporary file renamed over it.

    Raises ``OSError`` when the folder refuses the file; then ``path`` is as
    it was and no temporary file is left behind.
    """
    folder = path.parent if str(path.parent) else Path(".")
    try:
        mode = stat.S_IMODE(os.stat(path).st_mode)
    except OSError:
        mode = 0o666 & ~_UMASK
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{path.name}.", suffix=".tmp")
    try:
        os.fchmod(fd, mode)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


__all__ = ["save_atomic"]
