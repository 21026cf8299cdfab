"""The exit codes of every ``corazones`` command, and the one way a command stops on an error.

Scripts depend on exit codes, so they are few, fixed and documented (here, in
``corazones --help`` and in ``docs/cli.md``).  An error is one line on
standard error, made safe for the terminal: it names what was wrong and what
is allowed, never a traceback.
"""

from __future__ import annotations

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
#: Interrupted (Ctrl-C, or the end of standard input in the middle of a game).
INTERRUPTED = 130

#: Every code a command exits with (``docs/cli.md`` has a row for each; the tests hold it to that).
CODES = (OK, FAILED, USAGE, INTERRUPTED)

#: The codes as the root's help ends with them: one sentence for the catalog, worded when the help is drawn.
EPILOG = filled_help(
    N_(
        "Exit codes: {ok} ok; {failed} the input was read and does not check (verify, replay), or the work failed "
        "(arena, record not written); {usage} usage error or unusable input (bad flag or value, unwritable output, "
        "unreadable or oversized file); {interrupted} interrupted (Ctrl-C, or end of input during a game)."
    ),
    ok=OK,
    failed=FAILED,
    usage=USAGE,
    interrupted=INTERRUPTED,
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
