"""Text from outside made safe to show on a terminal or a web page: pure functions, no I/O.

Names and messages come from records, hand logs and, soon, strangers on the
network.  Written raw to a terminal, ``\\x1b]0;...\\x07`` retitles the window,
``\\x1b[2J`` clears it, a bidi override (U+202E) makes ``evil\\u202etxt.exe``
read backwards, and a 50 MB name floods the screen.  Every face passes such text
through :func:`safe_line` (one line, clipped) or :func:`safe_text` (lines kept)
before showing it.

What is removed: whole escape sequences (CSI ``ESC [ ... final``, the string
sequences OSC/DCS/SOS/PM/APC up to their terminator, two-character ``ESC x``
sequences, and their 8-bit C1 forms), so that what remains reads as the
author meant; then every remaining control character (C0, DEL, C1) and the
invisible bidirectional controls.  Removal does not rely on the sequence
grammar being complete: anything the patterns miss is still a control
character and is dropped (or, with :func:`visible`, written as ``\\x1b``).

The cost is bounded by the output, not the input: text is cut to a window a
few times the display limit before it is cleaned, so a huge input costs no
more than a small one.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Final

from corazones.core.limits import MAX_NAME_LENGTH

#: Display limit for a player's name, in characters.
NAME_LIMIT: Final = MAX_NAME_LENGTH
#: Display limit for one line of a message built from outside data.
LINE_LIMIT: Final = 300
#: The mark that ends clipped text.
ELLIPSIS: Final = "…"

# String sequences (OSC, DCS, SOS, PM, APC) run to BEL or ST (ESC \ or 0x9c); an
# ESC inside one ends it too, and an unterminated one runs to the end.
_STRING_SEQ = r"(?:\x1b[\]PX^_]|[\x90\x98\x9d\x9e\x9f])[^\x07\x1b\x9c]*(?:\x07|\x9c|\x1b\\?|$)"
# CSI: ESC [ (or 0x9b), parameter bytes, intermediate bytes, one final byte.
_CSI = r"(?:\x1b\[|\x9b)[\x30-\x3f]*[\x20-\x2f]*[\x40-\x7e]?"
# Other escape sequences: ESC, intermediate bytes, one final byte (ESC c, ESC ( B, ESC 7 ...).
_OTHER_ESC = r"\x1b[\x20-\x2f]*[\x30-\x7e]?"
_ESCAPE_RE: Final = re.compile(f"{_STRING_SEQ}|{_CSI}|{_OTHER_ESC}")

#: Bidirectional controls: they reorder what is shown around them without being seen.
BIDI_CONTROLS: Final = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
# C0 and C1 controls and DEL, the bidi controls, the line and paragraph separators and the BOM, and lone
# surrogates: a byte that was not UTF-8 on a command line or standard input arrives as one (U+DC80 to
# U+DCFF), and printing it would fail.
_UNSAFE_CLASS = "\x00-\x1f\x7f-\x9f" + "".join(sorted(BIDI_CONTROLS)) + "\u2028\u2029\ufeff\ud800-\udfff"
_UNSAFE_RE: Final = re.compile(f"[{_UNSAFE_CLASS}]")
_SPACES_RE: Final = re.compile(r"[\t\n\r\x0b\x0c\u2028\u2029 ]+")


def strip_escapes(text: str) -> str:
    """``text`` without terminal escape sequences (their visible remains, if any, are kept)."""
    return _ESCAPE_RE.sub("", text)


def is_safe(text: str) -> bool:
    """True when ``text`` holds no control character, escape or bidi control (newlines count as unsafe)."""
    return _UNSAFE_RE.search(text) is None


def clip(text: str, limit: int, ellipsis: str = ELLIPSIS) -> str:
    """``text`` cut to at most ``limit`` characters, ending in ``ellipsis`` when something was cut."""
    if limit < 1:
        raise ValueError(f"limit must be at least 1, not {limit}")
    if len(text) <= limit:
        return text
    if len(ellipsis) >= limit:
        return ellipsis[:limit]
    return text[: limit - len(ellipsis)] + ellipsis


def _window(text: str, limit: int) -> tuple[str, bool]:
    """The first characters of ``text`` that can matter for a display of ``limit`` characters.

    Escape sequences are removed before clipping, so more than ``limit`` raw
    characters may be needed; 8 times the limit plus 4,096 is ample for names
    and messages written in good faith, and bounds the work for the others.
    """
    room = limit * 8 + 4096
    return (text, False) if len(text) <= room else (text[:room], True)


def _finish(out: str, cut: bool, limit: int) -> str:
    """``out`` clipped to ``limit``, with the ellipsis also when the input was cut before cleaning."""
    if cut and len(out) < limit:
        return out + ELLIPSIS
    return clip(out + (ELLIPSIS if cut else ""), limit)


def safe_line(text: str, limit: int = LINE_LIMIT) -> str:
    """One line of ``text`` that is safe to print: no escapes or controls, whitespace runs made one space, clipped.

    Use it for anything from outside shown inline: player names, values
    quoted in error messages, file names.
    """
    raw, cut = _window(text, limit)
    out = _SPACES_RE.sub(" ", strip_escapes(raw))
    out = _UNSAFE_RE.sub("", out).strip()
    return _finish(out, cut, limit)


def safe_name(name: object, limit: int = NAME_LIMIT, empty: str = "?") -> str:
    """A player's name as shown on a screen: :func:`safe_line` clipped to ``limit`` (``empty`` if nothing is left)."""
    return safe_line(str(name), limit) or empty


#: Characters that draw nothing though Unicode files them as letters or symbols: the Hangul fillers and
#: the blank braille pattern, favourites for names and chat lines that look empty.
BLANKS: Final = frozenset("\u115f\u1160\u3164\uffa0\u2800")


def has_visible(text: str) -> bool:
    """Whether ``text`` shows anything: a character that is not a space, a control, a format character
    (zero-width spaces and joiners, soft hyphens, bidi marks) or one of :data:`BLANKS`."""
    return any(
        not c.isspace() and c not in BLANKS and unicodedata.category(c) not in ("Cc", "Cf", "Zs", "Zl", "Zp")
        for c in text
    )


def safe_text(text: str, limit: int = 100_000) -> str:
    """Multi-line ``text`` safe to print: newlines and tabs kept, escapes and other controls removed, clipped."""
    raw, cut = _window(text, limit)
    out = strip_escapes(raw.replace("\r\n", "\n"))
    out = _UNSAFE_RE.sub(lambda m: m.group() if m.group() in "\n\t" else "", out)
    return _finish(out, cut, limit)


def visible(text: str, limit: int = LINE_LIMIT) -> str:
    """``text`` with every unsafe character written as an escape (``\\x1b``, ``\\u202e``), clipped.

    For showing exactly what a file holds (a bad card, a bad name) without
    letting it act on the terminal.
    """
    raw, cut = _window(text, limit)
    out = _UNSAFE_RE.sub(_escaped, raw)
    return _finish(out, cut, limit)


def _escaped(match: re.Match[str]) -> str:
    """One unsafe character as an escape; a byte that was not UTF-8 (U+DC80 to U+DCFF) as that byte, ``\\xff``."""
    c = match.group()
    if "\udc80" <= c <= "\udcff":
        return f"\\x{ord(c) - 0xDC00:02x}"
    return c.encode("unicode_escape", "backslashreplace").decode("ascii")


__all__ = [
    "BIDI_CONTROLS",
    "BLANKS",
    "ELLIPSIS",
    "LINE_LIMIT",
    "NAME_LIMIT",
    "clip",
    "has_visible",
    "is_safe",
    "safe_line",
    "safe_name",
    "safe_text",
    "strip_escapes",
    "visible",
]
