"""A pad as text: its JSON (read strictly, with size limits) and its CSV.  Text in and text out: no I/O.

A saved pad holds the rules, the names and what was entered; loading replays
every hand, so a file cannot carry a total that disagrees with its rows.
"""

from __future__ import annotations

import json
from typing import Any, Final

from corazones.core.actions import MOON_CHOICES
from corazones.core.cards import HEARTS, SUIT_LETTERS, card_str, parse_card
from corazones.core.errors import N_, CardError, Message, RecordError, RulesError
from corazones.core.limits import parse_json, show
from corazones.core.pad.entry import DEFAULT_REVOKE_PENALTY, MAX_HANDS, Entry, PadError, Revoke
from corazones.core.pad.layout import glyph
from corazones.core.pad.sheet import Pad
from corazones.core.rules import Rules

FORMAT: Final = "corazones-pad"
VERSION: Final = 1
#: A saved pad's text, in bytes: bigger input is refused before it is parsed.
MAX_TEXT: Final = 1_000_000


def entry_to_json(e: Entry) -> dict[str, Any]:
    """An entry as JSON: only the fields that were given."""
    d: dict[str, Any] = {}
    if e.counts is not None:
        d["counts"] = list(e.counts)
        d["cards"] = {card_str(c): list(seats) for c, seats in e.cards}
    if e.points is not None:
        d["points"] = list(e.points)
    if e.shooters:
        d["shooters"] = list(e.shooters)
    if e.moon is not None:
        d["moon"] = e.moon
    if e.suit != HEARTS:
        d["suit"] = SUIT_LETTERS[e.suit]
    if e.declarer is not None:
        d["declarer"] = e.declarer
    if e.bid:
        d["bid"] = e.bid
    if e.revokes:
        d["revokes"] = [{"seat": v.seat, "to_avoid_all": v.to_avoid_all} for v in e.revokes]
    if e.note:
        d["note"] = e.note
    return d


def pad_to_json(pad: Pad) -> dict[str, Any]:
    """JSON-ready pad: the rules, the names and what was entered (totals are recomputed on loading)."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "rules": pad.rules.to_dict(),
        "names": list(pad.names),
        "revoke_penalty": pad.revoke_penalty,
        "hands": [entry_to_json(e) for e in pad.entries],
    }


def dumps(pad: Pad) -> str:
    """Pad JSON text, one hand per line."""
    data = pad_to_json(pad)
    head = {k: v for k, v in data.items() if k != "hands"}
    lines = ["{"]
    lines += [f"  {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}," for k, v in head.items()]
    hands = [json.dumps(h, ensure_ascii=False) for h in data["hands"]]
    if hands:
        lines.append('  "hands": [')
        lines += ["    " + h + ("," if i < len(hands) - 1 else "") for i, h in enumerate(hands)]
        lines.append("  ]")
    else:
        lines.append('  "hands": []')
    return "\n".join(lines) + "\n}\n"


#: How a text cell may begin that a spreadsheet reads as a formula (OWASP, "CSV injection"): ``=HYPERLINK(...)``,
#: ``+1+1``, ``-2+3``, ``@SUM(A1)``, and a tab or carriage return before one of them.
FORMULA_STARTS: Final = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(value: object) -> object:
    """A cell of the pad's CSV as a spreadsheet should show it: as it is, never run as a formula.

    A text (a name, a note, the moon) that begins like a formula gets a single quote in front, which
    spreadsheets read as "this is text" (OWASP's advice); a number stays a number, negative ones too
    (``-26`` is a score, not a formula).  Every face's CSV is made here (:func:`to_csv`).
    """
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def csv_line(cells: list[object]) -> str:
    """One CSV line (RFC 4180 quoting): each cell through :func:`csv_cell`, quoted when it holds , " or a line break.

    Written here rather than with :mod:`csv`, whose writer (ending lines with ``\n``) leaves a carriage return
    unquoted: a spreadsheet would start a new row there, and the text after it would be a cell of its own.
    """
    out = []
    for cell in cells:
        text = str(csv_cell(cell))
        if any(c in text for c in ',"\n\r'):
            text = '"' + text.replace('"', '""') + '"'
        out.append(text)
    return ",".join(out) + "\n"


def to_csv(pad: Pad) -> str:
    """The sheet as CSV: one line per hand with each player's hand score and running total.

    Text cells go through :func:`csv_cell`, so a name or a note cannot be a formula in a spreadsheet.
    """
    head: list[object] = ["hand", *pad.names, *(f"{n} total" for n in pad.names)]
    if pad.uses_chips:
        head += [f"{n} chips" for n in pad.names] + ["pool"]
    head += ["moon", "note"]
    lines = [csv_line(head)]
    for r in pad.rows:
        line: list[object] = [r.index + 1, *r.scores, *r.totals]
        if pad.uses_chips:
            line += [*r.chips, r.pool]
        moon = "" if r.shooter is None else f"{pad.names[r.shooter]} {r.moon_choice}"
        line += [moon, r.entry.note]
        lines.append(csv_line(line))
    return "".join(lines)


_ENTRY_FIELDS: Final = ("counts", "cards", "points", "shooters", "moon", "suit", "declarer", "bid", "revokes", "note")
_PAD_FIELDS: Final = ("format", "version", "rules", "names", "revoke_penalty", "hands")


def entry_from_json(data: object, hand: int = 1) -> Entry:
    """Read one entry strictly: unknown fields and wrong types are refused with the hand number."""
    if not isinstance(data, dict):
        raise PadError(N_("hand {hand} must be an object"), hand=hand)
    unknown = sorted(str(k) for k in data if k not in _ENTRY_FIELDS)
    if unknown:
        raise PadError(
            N_("hand {hand}: unknown field(s) {fields}; fields: {allowed}"),
            hand=hand,
            fields=", ".join(unknown),
            allowed=", ".join(_ENTRY_FIELDS),
        )

    def int_list(key: str) -> tuple[int, ...] | None:
        v = data.get(key)
        if v is None:
            return None
        if not isinstance(v, list) or len(v) > 64 or any(isinstance(x, bool) or not isinstance(x, int) for x in v):
            raise PadError(N_("hand {hand}: {field} must be a list of whole numbers"), hand=hand, field=key)
        return tuple(v)

    cards_raw = data.get("cards", {})
    if not isinstance(cards_raw, dict) or len(cards_raw) > 104:
        raise PadError(N_("hand {hand}: cards must be an object such as {example}"), hand=hand, example='{"QS": [2]}')
    cards: list[tuple[int, tuple[int, ...]]] = []
    for name, seats in cards_raw.items():
        try:
            card = parse_card(name)
        except CardError:
            raise PadError(N_("hand {hand}: {text} is not a card"), hand=hand, text=show(name)) from None
        if (
            not isinstance(seats, list)
            or len(seats) > 2
            or any(isinstance(x, bool) or not isinstance(x, int) for x in seats)
        ):
            raise PadError(N_("hand {hand}: who took {card} must be a list of seats"), hand=hand, card=glyph(card))
        cards.append((card, tuple(seats)))
    suit = data.get("suit", "H")
    if not isinstance(suit, str) or suit not in SUIT_LETTERS or len(suit) != 1:
        raise PadError(N_("hand {hand}: suit must be one of C, D, S, H"), hand=hand)
    declarer = data.get("declarer")
    if declarer is not None and (isinstance(declarer, bool) or not isinstance(declarer, int)):
        raise PadError(N_("hand {hand}: declarer must be a seat number or null"), hand=hand)
    bid = data.get("bid", 0)
    if isinstance(bid, bool) or not isinstance(bid, int):
        raise PadError(N_("hand {hand}: bid must be a whole number"), hand=hand)
    moon = data.get("moon")
    if moon is not None and moon not in MOON_CHOICES:
        raise PadError(N_("hand {hand}: moon must be subtract_from_self or add_to_others"), hand=hand)
    revokes_raw = data.get("revokes", [])
    if not isinstance(revokes_raw, list) or len(revokes_raw) > 16:
        raise PadError(N_("hand {hand}: revokes must be a list"), hand=hand)
    revokes = []
    for rv in revokes_raw:
        ok = isinstance(rv, dict) and set(rv) <= {"seat", "to_avoid_all"} and "seat" in rv
        if ok:
            seat, avoid = rv["seat"], rv.get("to_avoid_all", False)
            ok = isinstance(seat, int) and not isinstance(seat, bool) and isinstance(avoid, bool)
        if not ok:
            raise PadError(
                N_("hand {hand}: a revoke is written as {example}"),
                hand=hand,
                example='{"seat": 1, "to_avoid_all": false}',
            )
        revokes.append(Revoke(rv["seat"], rv.get("to_avoid_all", False)))
    note = data.get("note", "")
    if not isinstance(note, str):
        raise PadError(N_("hand {hand}: note must be text"), hand=hand)
    counts = int_list("counts")
    if counts is None and cards_raw:
        raise PadError(N_("hand {hand}: cards go with counts"), hand=hand)
    return Entry(
        counts=counts,
        cards=tuple(sorted(cards)),
        points=int_list("points"),
        shooters=int_list("shooters") or (),
        moon=moon,
        suit=SUIT_LETTERS.index(suit),
        declarer=declarer,
        bid=bid,
        revokes=tuple(revokes),
        note=note,
    )


def loads(text: str | bytes) -> Pad:
    """Read a saved pad strictly and replay its hands; :class:`PadError` says what is wrong and where."""
    if isinstance(text, bytes):
        if len(text) > MAX_TEXT:
            raise PadError(N_("the file is larger than {limit} bytes; it is not a score pad"), limit=MAX_TEXT)
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise PadError(N_("the file is not UTF-8 text")) from None
    if len(text) > MAX_TEXT:
        raise PadError(N_("the file is larger than {limit} bytes; it is not a score pad"), limit=MAX_TEXT)
    try:
        # the records' strict reader: a 5,000-digit count, NaN, a key given twice or deep nesting is refused
        # by where it sits (hands[0].counts[0]), before a number too long to print reaches a message
        data = parse_json(text, Message(N_("a score pad")), MAX_TEXT)
    except RecordError as e:
        raise PadError(e.template, **e.params) from None
    return from_json(data)


def from_json(data: object) -> Pad:
    """Build a pad from :meth:`Pad.to_json` output, checking every field and every hand."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise PadError(N_("not a Corazones score pad (format must be {format})"), format=FORMAT)
    if data.get("version") != VERSION:
        raise PadError(
            N_("score pad version {version} is not supported; supported: {supported}"),
            version=show(data.get("version")),
            supported=VERSION,
        )
    unknown = sorted(str(k) for k in data if k not in _PAD_FIELDS)
    if unknown:
        raise PadError(
            N_("unknown field(s) {fields}; fields: {allowed}"),
            fields=", ".join(unknown),
            allowed=", ".join(_PAD_FIELDS),
        )
    for key in ("rules", "names", "hands"):
        if key not in data:
            raise PadError(N_("the score pad has no {field}"), field=key)
    try:
        rules = Rules.from_dict(data["rules"])
    except RulesError as e:
        raise PadError(N_("rules: {error}"), error=str(e)) from None
    if not isinstance(data["hands"], list):
        raise PadError(N_("hands must be a list"))
    if len(data["hands"]) > MAX_HANDS:
        raise PadError(N_("a pad holds at most {limit} hands"), limit=MAX_HANDS)
    if not isinstance(data["names"], list):
        raise PadError(N_("names must be a list of the players' names"))
    penalty = data.get("revoke_penalty", DEFAULT_REVOKE_PENALTY)
    pad = Pad(rules, tuple(data["names"]), penalty)
    for i, raw in enumerate(data["hands"]):
        entry = entry_from_json(raw, i + 1)
        try:
            pad.add(entry)
        except PadError as e:
            raise PadError(N_("hand {hand}: {reason}"), hand=i + 1, reason=e) from None
    return pad
