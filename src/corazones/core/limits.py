"""Size limits of outside input, and the one JSON reader that enforces them.

Records, hand logs, actions, rule options and names arrive from files, other
programs and, through the web server, from strangers.  Every reader in the
core bounds what it accepts with the named limits below, so a hostile document
is refused with a one-line :class:`~corazones.core.errors.RecordError` instead
of exhausting memory, running for ever, or crashing on a conversion Python
itself refuses (a 5,000-digit integer cannot even be printed).  The faces
import the same constants to bound what they read from a file or a socket
before handing it over.  ``docs/records.md`` lists each limit.

:func:`parse_json` is ``json.loads`` made strict: integers longer than
:data:`MAX_INT_DIGITS` digits, ``NaN``/``Infinity``, duplicate keys, nesting
deeper than :data:`MAX_JSON_DEPTH` and strings longer than
:data:`MAX_STRING_LENGTH` are refused, each named by where it sits
(``actions[3].seat``).  :func:`show` prints any value short and safely for an
error message.
"""

from __future__ import annotations

import json
import operator
import reprlib
import unicodedata
from typing import Any, Final

from corazones.core.errors import N_, Count, Message, RecordError

#: A game record's text, in bytes of UTF-8 (the longest game the option limits allow, eleven players
#: over 500 hands, is about 2 MB and 55,000 actions).
MAX_RECORD_BYTES: Final = 8 * 1024 * 1024
#: Actions in one game record.
MAX_RECORD_ACTIONS: Final = 100_000
#: One hand-log line (one deal), in bytes of UTF-8; a single pretty-printed hand-log object counts as one line.
MAX_HANDLOG_LINE_BYTES: Final = 64 * 1024
#: Any JSON string of a record or hand log (keys included); names and seeds have narrower limits below.
MAX_STRING_LENGTH: Final = 1_000
#: Digits of any JSON integer (a 128-bit seed has 39).
MAX_INT_DIGITS: Final = 40
#: Nesting of arrays and objects (a record nests four deep).
MAX_JSON_DEPTH: Final = 16
#: A player's name, in characters, wherever it is typed, stored or read (the terminal game, the web app's
#: accounts, the score pad, records, the database's column), and the name of a set of rules.  Longer text
#: that only has to be shown is clipped to it (:func:`corazones.core.text.safe_name`).
MAX_NAME_LENGTH: Final = 40
#: A seed given as a string, in characters.
MAX_SEED_LENGTH: Final = 256
#: Players at the table (two decks seat 5 to 11).
MAX_PLAYERS: Final = 11
#: Rule options: the target score, the number of hands, the stake in chips.  Ten times what anyone
#: plays, and small enough that every game they allow fits a record (a chip game with a large stake
#: can still run longer than :data:`MAX_RECORD_ACTIONS`; its record is then refused when written).
MAX_TARGET: Final = 1_000
#: Hands in a game, and so in a score pad.
MAX_HANDS: Final = 500
MAX_STAKE: Final = 1_000
#: The largest bid an action may carry: every chip in the largest possible game.
MAX_BID: Final = MAX_STAKE * MAX_PLAYERS
#: Entries of the list options ``passes`` (a cycle of directions) and ``discard_order``, and of ``card_points``.
MAX_PASS_CYCLE: Final = 16
MAX_DISCARD_ORDER: Final = 17
MAX_CARD_POINTS: Final = 52

#: Sizes and rates the web server enforces, by the name ``welcome`` sends them under (docs/protocol.md).
#: ``serve`` flags and ``Settings`` may raise or lower some of them for one process (``Settings.limit``).
SERVER_LIMITS: Final[dict[str, int]] = {
    "ws_message_bytes": 4096,  # a larger text frame is refused with code too_large
    "ws_frame_hard_bytes": 65536,  # a larger frame closes the connection (1009)
    "ws_rate_per_second": 10,  # sustained messages per second per connection
    "ws_burst": 20,  # messages accepted at once before the rate applies
    "ws_flood_close": 100,  # refused messages in a row before the server closes (1008)
    "hello_timeout_seconds": 10,  # a connection that has not said hello by then is closed (1008)
    "ws_per_address": 30,  # open connections from one address to one process: WebSockets and waiting pad followers
    "token_days": 30,  # a token is valid this long after it is issued; POST /api/auth/refresh renews it
    "chat_chars": 300,
    "chat_per_minute": 30,  # chat lines per minute per connection (a burst of 5)
    "table_connections": 200,  # connections to one table (players and spectators)
    "open_tables_per_player": 10,  # unfinished tables one player created and still sits at (or set up with bots only)
    "tables_per_process": 20000,  # tables one server process holds: it creates and adopts no more
    "tables_per_address": 30,  # unfinished tables created from one client address (per server process)
    "open_table_idle_minutes": 30,  # a table not started yet that nobody connects to expires after this
    "bot_tables_per_player": 1,  # unfinished tables one player set up with bots in every seat
    "hints_per_minute": 12,  # hints per player per minute (a burst of 3), one at a time
    "name_chars": MAX_NAME_LENGTH,
    "password_min": 8,
    "password_max": 128,
    "http_body_bytes": 16384,
    "http_writes_per_minute": 60,  # POSTs per minute per client address
    "missed_events_max": 2000,  # a resume further back gets only the snapshot
    "missed_events_per_minute": 20000,  # events resent per address a minute (resume, reconnect); then the snapshot only
}

_INT_LIMIT: Final = 10**MAX_INT_DIGITS


class _Shorter(reprlib.Repr):
    """``reprlib`` with one more guard: an integer too long for ``repr`` is described, not printed."""

    def __init__(self) -> None:
        super().__init__()
        self.maxstring = 60
        self.maxother = 60
        self.maxlong = 40
        self.maxlist = self.maxtuple = self.maxdict = self.maxset = 6
        self.maxlevel = 3

    def repr_int(self, x: int, level: int) -> str:
        if abs(x) >= _INT_LIMIT:
            return f"<a number of about {_digits(x):,} digits>"
        return super().repr_int(x, level)

    def repr_instance(self, x: object, level: int) -> str:
        try:
            return super().repr_instance(x, level)
        except Exception:  # a value whose repr fails still gets a message
            return f"<{type(x).__name__}>"


_SHORT = _Shorter()


def _digits(x: int) -> int:
    """Decimal digits of ``x`` without converting it (Python refuses to convert huge ints)."""
    return max(1, int(abs(x).bit_length() * 0.30103) + 1)


def index_below(value: object, size: int) -> int:
    """``value`` as an index 0 to ``size - 1`` (an ``int``, or anything with ``__index__``: NumPy integers
    welcome), else -1: a bool, a float (``2.7`` is not card 2), text or an index out of range.  The one
    reading of a card or seat index given to the API, so each refusal names the value as it was given."""
    try:
        index = -1 if isinstance(value, bool) else operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        return -1
    return index if 0 <= index < size else -1


def show(value: Any) -> str:
    """A short, safe rendering of any value for an error message (never raises, at most 120 characters)."""
    try:
        text = _SHORT.repr(value)
    except Exception:
        return f"<{type(value).__name__}>"
    return text if len(text) <= 120 else text[:117] + "..."


def key_of(key: Any) -> str:
    """A field or option name for a message: as it is when it is short printable text, else :func:`show`."""
    if isinstance(key, str) and 0 < len(key) <= 40 and key.isprintable():
        return key
    return show(key)


def bad_text(text: str) -> Message | None:
    """Why ``text`` cannot be a name or seed, or ``None``: control characters and lone surrogates.

    Control characters (newlines, escapes, ``DEL``) have no place in a name and
    can rewrite a terminal; a lone surrogate cannot be written as UTF-8 at all.
    Every other character of Unicode is accepted (the faces still sanitise what
    they print).
    """
    for ch in text:
        cat = unicodedata.category(ch)
        if cat == "Cc":
            return Message(N_("a control character ({code})"), code=f"U+{ord(ch):04X}")
        if cat == "Cs":
            return Message(N_("a lone surrogate ({code}), which is not text"), code=f"U+{ord(ch):04X}")
    return None


def check_name(value: Any, where: str | Message) -> str:
    """A display name: a string of at most :data:`MAX_NAME_LENGTH` characters without control characters."""
    if not isinstance(value, str):
        raise RecordError(N_("{where} must be a string (a name), not {value}"), where=where, value=show(value))
    if len(value) > MAX_NAME_LENGTH:
        raise RecordError(
            N_("{where} has {count} characters; a name has at most {most}"),
            where=where,
            count=Count(len(value)),
            most=MAX_NAME_LENGTH,
        )
    why = bad_text(value)
    if why is not None:
        raise RecordError(
            N_("{where} {value} holds {why}; names are printable text"), where=where, value=show(value), why=why
        )
    return value


# ------------------------------------------------------------------ JSON
class _Huge:
    """Stands for an integer that was too long to convert, so the check can name its field."""

    __slots__ = ("digits",)

    def __init__(self, digits: int) -> None:
        self.digits = digits

    def __repr__(self) -> str:
        return f"<a number of {self.digits:,} digits>"


class _Constant:
    """Stands for ``NaN``, ``Infinity`` or ``-Infinity``, which JSON does not allow."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return self.name


class _Duplicate(dict[str, Any]):
    """An object that named a key twice (the key is kept so the check can name it)."""

    duplicate: str = ""


def _parse_int(text: str) -> int | _Huge:
    digits = len(text.lstrip("-"))
    return _Huge(digits) if digits > MAX_INT_DIGITS else int(text)


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            dup = _Duplicate(pairs)
            dup.duplicate = key
            return dup
        out[key] = value
    return out


#: Where in a JSON document a value sits when it is the document itself.
_TOP_LEVEL: Final = Message(N_("the top level"))


def parse_json(text: str, what: str | Message, max_bytes: int) -> Any:
    """Parse JSON text strictly, refusing what no reader should accept; :class:`RecordError` says where.

    ``what`` names the document in messages (``a game record``) and
    ``max_bytes`` bounds its size (:data:`MAX_RECORD_BYTES`, :data:`MAX_HANDLOG_LINE_BYTES`).
    """
    if not isinstance(text, str):
        raise RecordError(N_("{what} must be given as text, not {kind}"), what=what, kind=type(text).__name__)
    size = len(text) if len(text) * 4 <= max_bytes else len(text.encode("utf-8", "surrogatepass"))
    if size > max_bytes:
        raise RecordError(
            N_("{what} is {size} bytes; at most {most} are read"), what=what, size=Count(size), most=Count(max_bytes)
        )
    try:
        data = json.loads(
            text,
            parse_int=_parse_int,
            parse_constant=_Constant,
            object_pairs_hook=_pairs,
        )
    except json.JSONDecodeError as e:
        raise RecordError(
            N_("not JSON: {error} at line {line} column {column}"),
            error=e.msg.removesuffix(" at"),
            line=e.lineno,
            column=e.colno,
        ) from None
    except RecursionError:
        raise RecordError(
            N_("{what} is nested too deeply; at most {most} levels"), what=what, most=MAX_JSON_DEPTH
        ) from None
    check_json(data)
    return data


def _path(parent: str, key: str | int) -> str:
    if isinstance(key, int):
        return f"{parent}[{key}]"
    label = key if key.isidentifier() else json.dumps(key[:40])
    return f"{parent}.{label}" if parent else label


def check_json(data: Any, where: str = "") -> None:
    """Check a parsed document (or one built in Python) against the JSON limits; :class:`RecordError` if not.

    Only JSON values pass: objects with string keys, arrays (tuples are taken
    for arrays), strings, whole numbers of at most :data:`MAX_INT_DIGITS`
    digits, finite numbers, ``true``, ``false`` and ``null``.  The walk is
    iterative, so even a document nested past Python's recursion limit is
    refused rather than crashing.
    """
    stack: list[tuple[Any, str, int]] = [(data, where, 0)]
    while stack:
        value, path, depth = stack.pop()
        at: str | Message = path or _TOP_LEVEL
        if value is None or isinstance(value, bool):
            continue
        if isinstance(value, int):
            if abs(value) >= _INT_LIMIT:
                raise RecordError(
                    N_("{at}: a number of about {digits} digits; numbers have at most {most}"),
                    at=at,
                    digits=Count(_digits(value)),
                    most=MAX_INT_DIGITS,
                )
        elif isinstance(value, float):
            if value != value or value in (float("inf"), float("-inf")):
                raise RecordError(N_("{at}: {value} is not a number JSON allows"), at=at, value=str(value))
        elif isinstance(value, str):
            if len(value) > MAX_STRING_LENGTH:
                raise RecordError(
                    N_("{at}: a string of {count} characters; strings have at most {most}"),
                    at=at,
                    count=Count(len(value)),
                    most=Count(MAX_STRING_LENGTH),
                )
        elif isinstance(value, _Huge):
            raise RecordError(
                N_("{at}: a number of {digits} digits; numbers have at most {most}"),
                at=at,
                digits=Count(value.digits),
                most=MAX_INT_DIGITS,
            )
        elif isinstance(value, _Constant):
            raise RecordError(N_("{at}: {value} is not a number JSON allows"), at=at, value=value.name)
        elif isinstance(value, dict):
            if isinstance(value, _Duplicate):
                raise RecordError(N_("{at}: the key {key} is given twice"), at=at, key=show(value.duplicate))
            if depth >= MAX_JSON_DEPTH:
                raise RecordError(N_("{at}: nested too deeply; at most {most} levels"), at=at, most=MAX_JSON_DEPTH)
            for key, item in reversed(value.items()):
                if not isinstance(key, str):
                    raise RecordError(N_("{at}: the key {key} is not a string"), at=at, key=show(key))
                if len(key) > MAX_STRING_LENGTH:
                    raise RecordError(
                        N_("{at}: a key of {count} characters; strings have at most {most}"),
                        at=at,
                        count=Count(len(key)),
                        most=Count(MAX_STRING_LENGTH),
                    )
                stack.append((item, _path(path, key), depth + 1))
        elif isinstance(value, list | tuple):
            if depth >= MAX_JSON_DEPTH:
                raise RecordError(N_("{at}: nested too deeply; at most {most} levels"), at=at, most=MAX_JSON_DEPTH)
            stack.extend((value[i], _path(path, i), depth + 1) for i in range(len(value) - 1, -1, -1))
        else:
            raise RecordError(N_("{at}: {value} is not a JSON value"), at=at, value=show(value))
