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
import errno
import os
import secrets
import stat
from pathlib import Path

from corazones.cli.flags import quoted, refuse
from corazones.i18n import N_
from corazones.i18n.oserrors import os_reason
from corazones.services.files import NotWritableHere, output_kind, resolved, same_file


def _probe(folder: Path) -> None:
    """Create and remove a file in ``folder``; OSError if that is not possible."""
    probe = folder / f".corazones-probe-{secrets.token_hex(4)}"
    fd = os.open(probe, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
    os.close(fd)
    with contextlib.suppress(OSError):
        probe.unlink()


def check_output_file(path: Path, flag: str = "--record", lang: str = "en", reads: Path | None = None) -> None:
    """A path :func:`~corazones.services.files.save_atomic` can write at the end; a usage error (in ``lang``) now.

    Standard output (``-``, ``/dev/stdout``) is always fine.  A character
    device or a named pipe is written directly (never replaced), so it must be
    writable; it is not opened now (a pipe would wait for its reader).  A
    link is judged by what it points to; a folder, a socket or a disk is
    refused.  Otherwise the file is replaced through a temporary file in its
    folder, so that folder must take a new file.  ``reads`` is the file the
    command reads, if any: writing over it would destroy the input.
    """
    shown = quoted(path, 200)
    if reads is not None and same_file(path, reads):
        refuse(flag, lang, N_("cannot write to {path}: it is the file being read; name another"), path=shown)
    try:
        kind = output_kind(path)
    except NotWritableHere as e:
        if e.what == "folder":
            refuse(flag, lang, N_("cannot write to {path}: it is a folder; name a file in it"), path=shown)
        if e.what == "socket":
            refuse(flag, lang, N_("cannot write to {path}: it is a socket, not a file"), path=shown)
        refuse(flag, lang, N_("cannot write to {path}: it is a disk (block device), not a file"), path=shown)
    except OSError as e:  # a loop of links, a path too long
        refuse(flag, lang, N_("cannot write to {path}: {why}"), path=shown, why=os_reason(e))
    if kind in ("stdout", "stderr"):
        return
    if kind in ("device", "fifo"):
        if not os.access(path, os.W_OK):
            refuse(
                flag,
                lang,
                N_("cannot write to {path}: {why}"),
                path=shown,
                why=os_reason(PermissionError(errno.EACCES, "")),
            )
        return
    target = resolved(path)
    parent = target.parent
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
    except FileNotFoundError:  # the folder is there but takes no new file: /proc, /sys
        refuse(
            flag,
            lang,
            N_("cannot write to {path}: folder {folder} does not take new files"),
            path=shown,
            folder=quoted(parent, 200),
        )
    except OSError as e:
        refuse(flag, lang, N_("cannot write to {path}: {why}"), path=shown, why=os_reason(e))


def check_output_dir(path: Path, flag: str = "--out", lang: str = "en", files: tuple[str, ...] = ()) -> None:
    """A folder the command can write files into: created now if needed; a usage error (in ``lang``) otherwise.

    ``files`` are the names the command will write (or append to) in it: each must be a plain file or
    not there yet.  A folder, a link, a pipe or a device standing at one of them is refused now, not
    met at the end of a long run (a pipe would hang it, a link would be written through).
    """
    shown = quoted(path, 200)
    if path.exists() and not path.is_dir():
        refuse(flag, lang, N_("{path} is a file; give a folder (it is created if needed)"), path=shown)
    try:
        path.mkdir(parents=True, exist_ok=True)
        _probe(path)
    except OSError as e:
        refuse(flag, lang, N_("cannot write into {path}: {why}"), path=shown, why=os_reason(e))
    for name in files:
        try:
            mode = os.lstat(path / name).st_mode
        except FileNotFoundError:
            continue
        except OSError as e:
            refuse(flag, lang, N_("cannot write into {path}: {why}"), path=shown, why=os_reason(e))
        if not stat.S_ISREG(mode):
            refuse(
                flag,
                lang,
                N_(
                    "cannot write into {path}: {name} there is not a plain file (a folder, a link, a pipe or a "
                    "device); move it away or write into another folder"
                ),
                path=shown,
                name=name,
            )
