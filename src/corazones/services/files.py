"""Writing an output file: the one helper every face saves through.

A record, a score pad and its CSV, the terminal app's saved game and its
settings are all written by :func:`save_atomic`, which decides from what
stands at the path how to write without ever destroying it:

* nothing, or a regular file: the text goes to a temporary file in the same
  folder, renamed over the target, so an interrupted save (a full disk, a
  killed process) never leaves half a file.  The temporary name is unique,
  so two writers of one path (two terminals saving the same pad) cannot
  write into each other's file.  The saved file has the permissions a plain
  write would give it: those of the file it replaces, or the usual ones under
  the process's umask for a new file.
* a symbolic link: it is followed (through every link) and its target is
  written as above; the link stays a link.
* ``-``, ``/dev/stdout`` (``/dev/fd/1``, ``/proc/self/fd/1``): standard output,
  written where it stands (the same for standard error); a shell's ``> file``
  is appended to, not replaced under the shell.
* a character device (``/dev/null``, ``/dev/full``, a terminal) or a named
  pipe (FIFO): the user named it, so it is opened and written directly, never
  replaced; ``/dev/full`` then fails with "No space left on device".
* a folder, a socket or a block device (a disk): refused with an ``OSError``
  naming why (:func:`output_kind`), nothing written.

:func:`output_kind` answers the same question without writing, for a command
that checks its outputs before it starts (``corazones.cli.outputs``).
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO, Literal, TextIO

#: The process's file-creation mask, read once (reading it means setting it, so not at every save).
_UMASK = os.umask(0o022)
os.umask(_UMASK)

#: Names that mean one of the process's own streams (1 standard output, 2 standard error).
STREAM_NAMES = {
    "-": 1,
    "/dev/stdout": 1,
    "/dev/fd/1": 1,
    "/proc/self/fd/1": 1,
    "/dev/stderr": 2,
    "/dev/fd/2": 2,
    "/proc/self/fd/2": 2,
}

#: What stands at an output path, as :func:`output_kind` says.
Kind = Literal["stdout", "stderr", "file", "device", "fifo"]


class NotWritableHere(OSError):
    """The path names something a file is never written to: a folder, a socket, a block device.

    ``what`` is ``"folder"``, ``"socket"`` or ``"disk"``, for a face to say so
    in its own words; ``errno`` is the system's nearest (``EISDIR``, ``ENXIO``).
    """

    def __init__(self, code: int, what: str, path: str) -> None:
        super().__init__(code, os.strerror(code), path)
        self.what = what


def resolved(path: Path) -> Path:
    """``path`` with every symbolic link followed (a dangling link gives the path it points to)."""
    return Path(os.path.realpath(path))


def same_file(a: Path, b: Path) -> bool:
    """Whether writing ``a`` would replace the file ``b``: one file through links, hard links or other spellings.

    Either may not exist yet (a ``--save`` file is made by the first hand); standard output, a device or a pipe
    is written, never replaced, so it is nobody's file here.
    """
    try:
        if output_kind(a) != "file" or output_kind(b) != "file":
            return False
    except OSError:  # a folder, a loop of links: refused elsewhere
        return False
    try:
        return os.path.samefile(a, b)
    except OSError:  # one or both not there yet: where their links lead
        return resolved(a) == resolved(b)


def output_kind(path: Path | str) -> Kind:
    """How :func:`save_atomic` would write ``path``, or :class:`NotWritableHere` if it never would.

    ``"file"`` covers a missing path too (it is created); a link counts as
    what it points to.  A loop of links raises ``OSError`` (``ELOOP``).
    """
    name = str(path)
    if name in STREAM_NAMES:
        return "stdout" if STREAM_NAMES[name] == 1 else "stderr"
    try:
        st = os.stat(path)  # follows links
    except (FileNotFoundError, NotADirectoryError):  # nothing there yet: a file is created (if its folder allows)
        return "file"
    mode = st.st_mode
    if stat.S_ISREG(mode):
        return "file"
    if stat.S_ISDIR(mode):
        raise NotWritableHere(errno.EISDIR, "folder", name)
    if stat.S_ISCHR(mode):
        return "device"
    if stat.S_ISFIFO(mode):
        return "fifo"
    if stat.S_ISSOCK(mode):
        raise NotWritableHere(errno.ENXIO, "socket", name)
    raise NotWritableHere(errno.ENXIO, "disk", name)  # a block device, or anything stranger


def save_atomic(path: Path | str, text: str, wait: bool = True) -> None:
    """Write ``text`` (UTF-8) to ``path`` as the module says: a file whole or not at all, a device directly.

    Raises ``OSError`` when it cannot (:class:`NotWritableHere` for a folder,
    a socket or a disk); then whatever stood at ``path`` is as it was and no
    temporary file is left behind.  A named pipe waits for its reader, as a
    command line expects; with ``wait=False`` (a full-screen face, whose keys
    must keep answering) a pipe nobody reads yet is ``OSError(ENXIO)`` instead.
    """
    kind = output_kind(path)
    if kind in ("stdout", "stderr"):
        stream: TextIO = sys.stdout if kind == "stdout" else sys.stderr
        stream.write(text)
        stream.flush()
        return
    if kind in ("device", "fifo"):
        # O_WRONLY without O_CREAT/O_TRUNC: nothing is created or replaced, a FIFO waits for its reader
        # (unless told not to: then opening one without a reader fails with ENXIO at once)
        nowait = os.O_NONBLOCK if kind == "fifo" and not wait else 0
        fd = os.open(path, os.O_WRONLY | os.O_NOCTTY | nowait)
        if nowait:
            os.set_blocking(fd, True)  # a reader is there: the text goes whole, however long
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        return
    _replace(resolved(Path(path)), text)


def _replace(path: Path, text: str) -> None:
    """Write ``text`` to the regular file (or missing path) ``path`` through a temporary file renamed over it."""
    replace_with(path, lambda f: f.write(text.encode("utf-8")))


def replace_with(path: Path, write: Callable[[BinaryIO], object]) -> None:
    """Have ``write`` fill a temporary file beside the regular file (or missing path) ``path``, then rename
    it over ``path``: the file is whole or not there, with the mode it had (or the umask's for a new one).
    For outputs that are not text (a plot); :func:`save_atomic` is the one for text.
    """
    folder = path.parent if str(path.parent) else Path(".")
    try:
        mode = stat.S_IMODE(os.stat(path).st_mode)
    except OSError:
        mode = 0o666 & ~_UMASK
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{path.name}.", suffix=".tmp")
    try:
        os.fchmod(fd, mode)
        with os.fdopen(fd, "wb") as f:
            write(f)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


__all__ = ["STREAM_NAMES", "NotWritableHere", "output_kind", "replace_with", "resolved", "save_atomic"]
