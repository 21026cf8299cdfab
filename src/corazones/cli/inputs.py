"""Reading outside input with a bound: files, standard input (``-``) and typed answers.

Nothing is read whole and then checked: at most the documented limit plus
one byte is read, so ``corazones verify /dev/zero`` or a 10 GB file is refused
after a few megabytes instead of exhausting memory.  The limits are the
core's (:mod:`corazones.core.limits`), so every face refuses the same
documents the same way.
"""

from __future__ import annotations

import errno
import io
import os
import stat
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO, TextIO

from corazones.core.errors import N_, CorazonesError, Count, Message
from corazones.core.text import safe_line
from corazones.i18n.oserrors import os_reason

#: The file name that means standard input.
STDIN = "-"
#: A hand log read by ``verify``: bytes and lines (some hundred thousand deals); each line has its own limit too.
MAX_HANDLOG_BYTES = 256 * 1024 * 1024
MAX_HANDLOG_LINES = 1_000_000
#: A typed answer in the line game, in characters (a pass of every card of a hand fits many times over).
MAX_ANSWER_CHARS = 200
LONG_LINE = N_("{what}: line {number} is longer than {limit} bytes, the limit for one line")
MANY_LINES = N_("{what} has more than {most} lines, the limit for a hand log")


class InputError(CorazonesError):
    """Input that cannot be used at all: a template naming the input and why, shown in the user's language."""


def shown(path: Path | str) -> str:
    """A path as messages show it: standard input by name, anything else made safe and clipped."""
    return "standard input" if str(path) == STDIN else safe_line(str(path), 200)


def where(path: Path | str) -> Message | str:
    """:func:`shown` as a parameter of a message for people: "standard input" is translated where shown."""
    return Message(N_("standard input")) if str(path) == STDIN else safe_line(str(path), 200)


@contextmanager
def open_input(path: Path | str) -> Iterator[BinaryIO]:
    """``path`` opened for reading bytes (``-`` is standard input); :class:`InputError` if it cannot be."""
    if str(path) == STDIN:
        yield sys.stdin.buffer
        return
    p = Path(path)
    if p.is_dir():
        raise InputError(N_("cannot read {path}: it is a folder, not a file"), path=where(p))
    try:
        f = p.open("rb")
    except OSError as e:
        raise InputError(N_("cannot read {path}: {why}"), path=where(p), why=os_reason(e)) from None
    with f:
        yield f


def file_problem(path: Path | str) -> Message | str | None:
    """Why ``path`` cannot be read as a plain file (missing, a folder, a pipe, unreadable), or None.

    Looked up without opening it, so a named pipe cannot hang the check: for a
    flag whose file is used only later, or only on a terminal, the command
    refuses a wrong path at once instead of accepting it in silence.
    """
    try:
        st = os.stat(path)
    except OSError as e:
        return os_reason(e)
    if stat.S_ISDIR(st.st_mode):
        return Message(N_("it is a folder, not a file"))
    if not stat.S_ISREG(st.st_mode):
        return Message(N_("it is not a plain file"))
    if not os.access(path, os.R_OK):
        return os_reason(PermissionError(errno.EACCES, os.strerror(errno.EACCES)))
    return None


def read_some(f: BinaryIO, limit: int) -> bytes:
    """At most ``limit + 1`` bytes of ``f`` (the extra byte tells that there was more)."""
    try:
        return f.read(limit + 1)
    except OSError as e:
        raise InputError(N_("cannot read: {why}"), why=os_reason(e)) from None


def decode(data: bytes, path: Path | str) -> str:
    """UTF-8 text (a byte-order mark tolerated); :class:`InputError` names the first bad byte."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise InputError(
            N_("cannot read {path}: not UTF-8 text (byte {byte})"), path=where(path), byte=e.start
        ) from None


def read_text(path: Path | str, limit: int, what: Message) -> str:
    """The whole text of ``path`` when it is at most ``limit`` bytes of UTF-8; else :class:`InputError`."""
    with open_input(path) as f:
        data = read_some(f, limit)
    if len(data) > limit:
        raise InputError(
            N_("{path} is larger than {limit} bytes, the limit for {what}"),
            path=where(path),
            limit=Count(limit),
            what=what,
        )
    return decode(data, path)


def bounded_lines(head: bytes, f: BinaryIO, limit: int, total: int, what: Message | str) -> Iterator[bytes]:
    """The lines of ``head`` followed by the rest of ``f``, without their newline, each at most ``limit`` bytes.

    A longer line, or more than ``total`` bytes in all, raises :class:`InputError`
    (``what`` names the input): memory and time stay bounded however long the
    input or its lines are, ``/dev/zero`` included.
    """
    seen = len(head)
    pos = 0
    number = 0
    while True:
        nl = head.find(b"\n", pos)
        if nl < 0:
            break
        number += 1
        if nl - pos > limit:
            raise InputError(LONG_LINE, what=what, number=number, limit=Count(limit))
        if number > MAX_HANDLOG_LINES:
            raise InputError(MANY_LINES, what=what, most=Count(MAX_HANDLOG_LINES))
        yield head[pos:nl]
        pos = nl + 1
    line = head[pos:]
    while True:
        if len(line) > limit:
            raise InputError(LONG_LINE, what=what, number=number + 1, limit=Count(limit))
        if seen > total:
            raise InputError(
                N_("{what} is larger than {limit} bytes, the limit for a hand log"), what=what, limit=Count(total)
            )
        chunk = f.readline(limit + 1 - len(line))
        if not chunk:
            if line:
                yield line
            return
        seen += len(chunk)
        line += chunk
        if line.endswith(b"\n"):
            number += 1
            if number > MAX_HANDLOG_LINES:
                raise InputError(MANY_LINES, what=what, most=Count(MAX_HANDLOG_LINES))
            yield line[:-1]
            line = b""


def lenient(stream: TextIO) -> TextIO:
    """``stream``, set to hand over a byte that is not UTF-8 as an escape (U+DC80 to U+DCFF) instead of failing.

    Under a UTF-8 locale Python reads standard input strictly, so one stray
    byte (a Latin-1 terminal, a pasted file) would end a game or a score pad
    with a traceback; read this way it is an answer like any other, refused
    with the byte shown (:func:`corazones.core.text.visible`).
    """
    if isinstance(stream, io.TextIOWrapper) and stream.errors == "strict":
        stream.reconfigure(errors="surrogateescape")
    return stream


def ask_line(prompt: str, stream: TextIO | None = None, limit: int = MAX_ANSWER_CHARS) -> str:
    """Print ``prompt`` and read one answer of at most ``limit`` characters (a longer one is cut to it).

    ``input()`` would read a line of any length into memory; this reads the
    answer in bounded pieces and drops what goes past the limit.  End of input
    raises :class:`EOFError`, as ``input()`` does.
    """
    import typer

    src = lenient(stream if stream is not None else sys.stdin)
    typer.echo(prompt, nl=False)
    sys.stdout.flush()
    line = src.readline(limit + 1)
    if not line:
        raise EOFError
    if not line.endswith("\n") and len(line) > limit:
        while True:  # drop the rest of an over-long answer
            rest = src.readline(4096)
            if not rest or rest.endswith("\n"):
                break
        return line[:limit]
    return line.rstrip("\r\n")
