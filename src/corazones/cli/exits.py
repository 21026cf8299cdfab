"""The exit codes of every ``corazones`` command, and the one way a command stops on an error.

Scripts depend on exit codes, so they are few, fixed and documented (here, in
``corazones --help`` and in ``docs/cli.md``).  An error is one line on
standard error, made safe for the terminal: it names what was wrong and what
is allowed, never a traceback.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType
from typing import NoReturn

import typer

from corazones.cli.toolkit import filled_help
from corazones.core.text import safe_line
from corazones.i18n import N_

#: Everything went as asked (a game abandoned with ``q`` included).
OK = 0
#: The command ran and found a problem: a record or hand log that does not check, a replay that stops at an
#: illegal action, a tournament that failed, a record that could not be written at the end of a game.
FAILED = 1
#: A usage error or input that cannot be used at all: an unknown flag or value, an output that cannot be written,
#: a file that is missing, unreadable, too large, not UTF-8 or not a record.
USAGE = 2
#: Interrupted (Ctrl-C or a stop request, SIGTERM, while a game, a review or a tournament runs; or the end of
#: standard input in the middle of a game).
INTERRUPTED = 130

#: Whoever read the output went away (``corazones replay game.json | head -1``): the command stops at once and
#: quietly, with the code a shell gives a program killed by SIGPIPE (128 + 13), so a pipeline's status says
#: "cut short", never "does not check".  A game still writes its record first.
CLOSED_PIPE = 141

#: Every code a command exits with (``docs/cli.md`` has a row for each; the tests hold it to that).
CODES = (OK, FAILED, USAGE, INTERRUPTED, CLOSED_PIPE)

#: The codes as the root's help ends with them: one sentence for the catalog, worded when the help is drawn.
EPILOG = filled_help(
    N_(
        "Exit codes: {ok} ok; {failed} the input was read and does not check (verify, replay), or the work failed "
        "(arena, record not written); {usage} usage error or unusable input (bad flag or value, unwritable output, "
        "unreadable or oversized file); {interrupted} interrupted (Ctrl-C, or end of input during a game); {closed} "
        "the output was closed by its reader (| head), stopped quietly."
    ),
    ok=OK,
    failed=FAILED,
    usage=USAGE,
    interrupted=INTERRUPTED,
    closed=CLOSED_PIPE,
)


def fail(message: object, code: int = USAGE, lang: str = "en") -> NoReturn:
    """Say ``error: message`` on one line of standard error and exit with ``code``.

    ``message`` is a text, or an error or :class:`~corazones.core.errors.Message` carrying a
    template, shown in ``lang`` (the ``error:`` word stays: scripts look for it, and Spanish
    says it the same way).
    """
    from corazones.i18n import error_text, translator

    text = message if isinstance(message, str) else error_text(translator(lang).gettext, message)
    typer.echo(f"error: {safe_line(text, 500)}", err=True)
    raise typer.Exit(code)


def silence_stdout() -> None:
    """Send whatever is still printed to /dev/null, so a closed pipe fails no later line (nor the final flush)."""
    import os
    import sys

    try:
        fd = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):
        return
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, fd)
    os.close(devnull)


def _is_interrupt(error: BaseException) -> bool:
    """Whether ``error`` is Ctrl-C, or an error that Ctrl-C caused (followed through a few causes)."""
    seen: BaseException | None = error
    for _ in range(8):
        if seen is None:
            return False
        if isinstance(seen, KeyboardInterrupt):
            return True
        seen = seen.__cause__ or (None if seen.__suppress_context__ else seen.__context__)
    return False


def _stop_requested(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt


@contextmanager
def plain_interrupts() -> Iterator[None]:
    """Let Ctrl-C, and a stop request (SIGTERM), reach the command as :class:`KeyboardInterrupt` wherever it lands.

    A SIGINT that arrives while compiled (mypyc) code is running can surface as
    a ``SystemError`` ("returned a result with an exception set") whose cause is
    the KeyboardInterrupt.  A command that catches only KeyboardInterrupt would
    then show a traceback and exit 1 instead of saying "interrupted" and exiting
    130, so the commands that catch Ctrl-C run their work inside this.  SIGTERM
    (``kill``, a service manager, a CI time limit) would otherwise end the
    process on the spot, past every ``finally``: a tournament's worker processes
    were left playing boards nobody would collect, and nothing said where the
    finished boards were kept.  Inside this it stops the command as Ctrl-C does.
    """
    previous = None
    if threading.current_thread() is threading.main_thread():
        previous = signal.signal(signal.SIGTERM, _stop_requested)
    try:
        yield
    except KeyboardInterrupt:
        raise
    except Exception as e:
        if _is_interrupt(e):
            raise KeyboardInterrupt from e
        raise
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)
