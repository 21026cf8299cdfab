"""Terminals whose encoding cannot show the suits: plain letters instead of a traceback.

A terminal set to a legacy encoding (``LC_ALL=en_US.ISO-8859-1``, or
``PYTHONIOENCODING=latin-1``) cannot encode ♠ ♥ ♦ ♣, the box lines around the
help or the ellipsis, and Python would stop the command at the first one with
``UnicodeEncodeError``.  :func:`fit_streams` gives standard output and error an
error handler (:func:`codecs.register_error`, the standard library's hook for
exactly this) that writes each such character as the letters people write
by hand: ``Q♠`` becomes ``QS``, ``10♥`` becomes ``10H``, a box line ``-`` or
``|``, an accented letter its plain letter where even that is missing.  The
full-screen faces draw whole screens of such characters, so on such a
terminal :func:`full_screen` answers no and the command plays or shows
line by line, saying why once.
"""

from __future__ import annotations

import codecs
import io
import sys
import unicodedata

from corazones.i18n import N_, translator

#: Characters every face prints that a legacy encoding may lack.
SHOWN = "♠♥♦♣╭─│…←→"

HANDLER = "corazones.plain"

NOTE = N_(
    "This terminal's encoding ({encoding}) cannot show the cards' suits, so this goes on line by line; "
    "for the full screen, use a UTF-8 locale (for example LC_ALL=C.UTF-8)."
)

_PLAIN = {
    "♠": "S",
    "♥": "H",
    "♦": "D",
    "♣": "C",
    "♤": "S",
    "♡": "H",
    "♢": "D",
    "♧": "C",
    "…": "...",
    "←": "<-",
    "→": "->",
    "↑": "^",
    "↓": "v",
    "—": "-",
    "–": "-",
    "‘": "'",
    "’": "'",
    "“": '"',
    "”": '"',
    "·": "-",
    "×": "x",
    "•": "*",
    "✓": "v",
}


def plain(char: str) -> str:
    """``char`` in plain ASCII: a suit as its letter, a box line as ``-``, ``|`` or ``+``, else ``?``."""
    if char in _PLAIN:
        return _PLAIN[char]
    code = ord(char)
    if 0x2500 <= code <= 0x257F:  # box drawing
        name = unicodedata.name(char, "")
        if "HORIZONTAL" in name and "VERTICAL" not in name:
            return "-"
        if "VERTICAL" in name and "HORIZONTAL" not in name:
            return "|"
        return "+"
    base = unicodedata.normalize("NFKD", char).encode("ascii", "ignore").decode("ascii")
    return base or "?"


def _plain_error(error: UnicodeError) -> tuple[str, int]:
    if not isinstance(error, UnicodeEncodeError):
        raise error
    return "".join(plain(c) for c in error.object[error.start : error.end]), error.end


codecs.register_error(HANDLER, _plain_error)


def can_show(encoding: str | None) -> bool:
    """Whether text in ``encoding`` can carry every character of :data:`SHOWN`."""
    try:
        SHOWN.encode(encoding or "ascii")
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def fit_streams() -> None:
    """Standard output and error write what their encoding lacks as plain letters (see the module text)."""
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper) and not can_show(stream.encoding):
            stream.reconfigure(errors=HANDLER)


def full_screen(lang: str) -> bool:
    """Whether a full-screen face may open: both ends a terminal that can show the cards.

    A terminal that cannot is told once, on standard error, why the command
    goes on line by line and how to get the full screen.
    """
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        return False
    if can_show(sys.stdout.encoding):
        return True
    note = translator(lang).gettext(NOTE).format(encoding=sys.stdout.encoding)
    print(note, file=sys.stderr)
    return False
