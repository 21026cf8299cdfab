"""A hand typed as one line, the one grammar every face of the pad reads (the line mode and the sheet).

A hand line, for standard Hearts with Ana, Bea, Carl and Dan::

    3 4 6 0 QS=Carl          hearts per player in seat order; Carl took Q♠
    13 0 0 0 QS=Ana moon=add Ana took everything and adds 26 to the others
    p 13 0 13 0              the points way: each player's points
    Ana:AH,KH,QS             the cards one player took (spot-valued hearts)
    suit=S by=Bea bid=3      Auction Hearts: the suit named, the declarer, the bid
    revoke=Dan  revoke=Dan!  a revoke (``!``: made to avoid taking all the hearts)
    ... # a note             anything after ``#`` is a note on the row

The key words are read in English and in Spanish (``moon=``/``luna=``,
``shot=``/``caza=``...).  :func:`parse_hand` turns a line into an
:class:`~corazones.core.pad.entry.Entry`, :func:`entry_text` writes one back.
"""

from __future__ import annotations

import re
from typing import Any

from corazones.core.cards import HEARTS, SUIT_LETTERS, parse_card
from corazones.core.errors import N_, CardError
from corazones.core.pad.entry import Entry, PadError, Revoke
from corazones.core.pad.layout import glyph, layout
from corazones.core.pad.scoring import NAME_THE_SHOOTER
from corazones.core.pad.sheet import Pad
from corazones.core.text import safe_line, visible

MOON_WORDS = {
    "add": "add_to_others",
    "a": "add_to_others",
    "sumar": "add_to_others",
    "sub": "subtract_from_self",
    "s": "subtract_from_self",
    "restar": "subtract_from_self",
    "add_to_others": "add_to_others",
    "subtract_from_self": "subtract_from_self",
}


#: What a line face adds to a refusal of the core, keyed by its template: how to write the fix on a hand line
#: (the web pad has a field where the line has a word).
LINE_HINTS = {NAME_THE_SHOOTER: N_("on a hand line, add shot=PLAYER")}


class HandSyntaxError(PadError):
    """A hand line that cannot be read: the word that is wrong and how to write it."""


def find_player(pad: Pad, text: str) -> int:
    """A seat from a name, a name's unique beginning (any case) or a number 1..n."""
    t = text.strip()
    if t.isdecimal() and 1 <= int(t) <= pad.players:
        return int(t) - 1
    low = t.casefold()
    exact = [s for s, n in enumerate(pad.names) if n.casefold() == low]
    if exact:
        return exact[0]
    starts = [s for s, n in enumerate(pad.names) if low and n.casefold().startswith(low)]
    if len(starts) == 1:
        return starts[0]
    names = ", ".join(pad.names)
    if starts:
        raise HandSyntaxError(N_("{text} could be {names}; type more of the name"), text=visible(t, 40), names=names)
    raise HandSyntaxError(
        N_("{text} is not a player; type a name ({names}) or a number 1 to {n}"),
        text=visible(t, 40),
        names=names,
        n=pad.players,
    )


def _card(text: str) -> int:
    try:
        return parse_card(text)
    except CardError:
        raise HandSyntaxError(
            N_("{text} is not a card; write rank then suit, e.g. QS or Q♠"), text=visible(text, 20)
        ) from None


def parse_hand(pad: Pad, text: str) -> Entry:
    """Read one hand line (see the module's docstring); :class:`HandSyntaxError` names the bad word."""
    body, _hash, note = text.partition("#")
    joined = re.sub(r"\s*([,=:])\s*", r"\1", body).split()
    points_way = bool(joined) and joined[0].lower() in ("p", "points", "puntos")
    if points_way:
        joined = joined[1:]
    numbers: list[int] = []
    takers: dict[int, list[int]] = {}
    extra: dict[str, Any] = {}
    shooters: list[int] = []
    revokes: list[Revoke] = []
    for w in joined:
        w = w.strip(",")
        if not w:
            continue
        if _is_int(w):
            numbers.append(int(w))
            continue
        key, eq, value = w.partition("=")
        k = key.lower()
        if eq:
            if k == "moon" or k == "luna":
                choice = MOON_WORDS.get(value.lower())
                if choice is None:
                    raise HandSyntaxError(
                        N_("moon=add or moon=sub (the shooter's choice), not {text}"), text=visible(w, 40)
                    )
                extra["moon"] = choice
            elif k in ("shot", "caza"):
                shooters += [find_player(pad, v) for v in value.split(",") if v]
            elif k in ("suit", "palo"):
                v = value.upper()[:1]
                if v not in SUIT_LETTERS or len(value) != 1:
                    raise HandSyntaxError(N_("suit= takes one letter: C, D, S or H"))
                extra["suit"] = SUIT_LETTERS.index(v)
            elif k in ("by", "por"):
                extra["declarer"] = find_player(pad, value)
            elif k in ("bid", "puja"):
                if not _is_int(value):
                    raise HandSyntaxError(N_("bid= takes a whole number of chips"))
                extra["bid"] = int(value)
            elif k in ("revoke", "renuncio"):
                avoid = value.endswith("!")
                revokes.append(Revoke(find_player(pad, value.rstrip("!")), avoid))
            else:
                card = _card(key)
                for v in value.split(","):
                    if v:
                        takers.setdefault(card, []).append(find_player(pad, v))
            continue
        who, colon, cards = w.partition(":")
        if colon:
            seat = find_player(pad, who)
            for c in cards.split(","):
                if c:
                    takers.setdefault(_card(c), []).append(seat)
            continue
        raise HandSyntaxError(
            N_("{text} is not understood; type numbers, CARD=player, player:CARDS or type help"), text=visible(w, 40)
        )
    more: dict[str, Any] = {
        **extra,
        "shooters": tuple(shooters),
        "revokes": tuple(revokes),
        "note": safe_line(note, 200),
    }
    if points_way:
        if takers:
            raise HandSyntaxError(N_("the points way takes only numbers; leave out the cards"))
        return Entry.by_points(numbers, **more)
    lay = layout(pad.rules, extra.get("suit", HEARTS))
    if not numbers and not lay.counted:
        numbers = [0] * pad.players
    return Entry.quick(numbers, {c: tuple(s) for c, s in takers.items()}, **more)


def _is_int(w: str) -> bool:
    return w.removeprefix("-").isdecimal() and len(w) < 10  # one sign: "--5" is no number


def entry_text(pad: Pad, e: Entry) -> str:
    """An entry written back as a hand line (to edit it)."""
    words: list[str] = []
    if e.points is not None:
        words = ["p", *map(str, e.points)]
    else:
        lay = layout(pad.rules, e.suit)
        if lay.counted:
            words = [str(c) for c in e.counts or ()]
        words += [f"{glyph(c)}={','.join(pad.names[s] for s in seats)}" for c, seats in e.cards]
    if e.moon:
        words.append("moon=" + ("add" if e.moon == "add_to_others" else "sub"))
    if e.shooters:
        words.append("shot=" + ",".join(pad.names[s] for s in e.shooters))
    if pad.rules.auction and e.declarer is not None:
        words += [f"suit={SUIT_LETTERS[e.suit]}", f"by={pad.names[e.declarer]}"]
        if e.bid:
            words.append(f"bid={e.bid}")
    words += [f"revoke={pad.names[r.seat]}{'!' if r.to_avoid_all else ''}" for r in e.revokes]
    if e.note:
        words.append("# " + e.note)
    return " ".join(words)
