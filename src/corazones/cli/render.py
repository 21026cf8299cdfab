"""Plain-text rendering shared by the line-mode game and ``corazones replay``.

Kept apart from both so that a trick or a hand result reads the same
wherever it is shown.  Texts come from the one message catalog
(:mod:`corazones.i18n`); names from outside (a record's ``players``) are made
safe for the terminal and clipped (:mod:`corazones.core.text`) before they are
shown, so a record cannot retitle the window or print 50 MB of name.

The human player is "you": a sentence whose subject is that seat has its own
text ("Hand 1: you deal", "You shot the moon"), because gluing "you" into a
third-person sentence reads badly in English and worse in Spanish.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

from corazones.core.cards import CARDS, SUIT_GLYPHS, SUIT_LETTERS, card_str, format_cards
from corazones.core.observation import HandResult
from corazones.core.text import safe_name
from corazones.core.trick import Trick
from corazones.i18n import N_, translator
from corazones.i18n.seats import seat_name
from corazones.players.hints import Hint

#: Pass directions and moon choices as the engine names them, marked for the catalog.
WORDS = {
    "left": N_("left"),
    "right": N_("right"),
    "across": N_("across"),
    "hold": N_("hold (no pass)"),
    "subtract_from_self": N_("subtract from self"),
    "add_to_others": N_("add to others"),
}


def gettext_for(lang: str) -> Callable[[str], str]:
    """The catalog's ``gettext`` for ``lang``."""
    return translator(lang).gettext


def word(lang: str, key: str) -> str:
    """An engine word (``left``, ``add_to_others``) in ``lang``; an unknown word is shown as it is, made safe."""
    text = WORDS.get(key)
    return translator(lang).gettext(text) if text is not None else safe_name(key)


class Seats:
    """The seats' display names in one language; the human's seat (if any) is "you".

    ``names`` (from a record) are named by :func:`~corazones.i18n.seats.seat_name`:
    people by their name (made safe and clipped), default seats and bots by their
    number counted from 1.
    """

    def __init__(self, lang: str, count: int, you: int | None = None, names: Sequence[object] | None = None) -> None:
        _ = translator(lang).gettext
        self.lang = lang
        self.you = you
        given = list(names) if names is not None and len(names) == count else [None] * count
        self.names = [_("you") if s == you else seat_name(_, given[s], s, safe_name) for s in range(count)]

    def __getitem__(self, seat: int) -> str:
        return self.names[seat]

    def __len__(self) -> int:
        return len(self.names)

    def __iter__(self) -> Iterator[str]:
        return iter(self.names)

    def is_you(self, seat: int | None) -> bool:
        return seat is not None and seat == self.you


def cards_text(cards: Sequence[int], glyphs: bool = True) -> str:
    return format_cards(cards, glyphs=glyphs) or "-"


def card_text(card: int, glyphs: bool = True) -> str:
    return CARDS[card].glyph() if glyphs else card_str(card)


def suit_text(suit: int, glyphs: bool = True) -> str:
    return SUIT_GLYPHS[suit] if glyphs else SUIT_LETTERS[suit]


def trick_text(tr: Trick, names: Seats, glyphs: bool = True) -> str:
    _ = translator(names.lang).gettext
    plays = "  ".join(f"{names[s]}:{card_text(c, glyphs)}" for s, c in tr.plays)
    who = _("annulled") if tr.winner is None else _("won by {who}").format(who=names[tr.winner])
    return f"{plays}   -> {who}"


def seat_values(names: Sequence[str] | Seats, values: Sequence[int], signed: bool = False) -> str:
    """``Seat 1 3, Seat 2 0, ...`` (with a sign for hand deltas)."""
    return ", ".join(f"{names[s]} {v:+d}" if signed else f"{names[s]} {v}" for s, v in enumerate(values))


def dealer_text(names: Seats, hand: int, dealer: int, direction: str) -> str:
    """``Hand 1: Seat 3 deals. Pass: left.`` (or ``you deal``)."""
    _ = translator(names.lang).gettext
    where = word(names.lang, direction)
    if names.is_you(dealer):
        return _("Hand {hand}: you deal. Pass: {direction}.").format(hand=hand, direction=where)
    return _("Hand {hand}: {dealer} deals. Pass: {direction}.").format(hand=hand, dealer=names[dealer], direction=where)


def bid_text(names: Seats, seat: int, value: int) -> str:
    """One seat's bid in the auction, as it happens."""
    _ = translator(names.lang).gettext
    if names.is_you(seat):
        return _("You bid {chips}.").format(chips=value) if value else _("You do not bid.")
    if value:
        return _("{who} bids {chips}.").format(who=names[seat], chips=value)
    return _("{who} does not bid.").format(who=names[seat])


def hand_result_text(h: HandResult, names: Seats, glyphs: bool = True) -> str:
    lang = names.lang
    _ = translator(lang).gettext
    parts = [_("Hand {n} over.").format(n=h.index + 1)]
    if h.kitty:
        owner = names[h.kitty_owner] if h.kitty_owner is not None else _("nobody")
        parts.append(_("Kitty {cards} went to {who}.").format(cards=cards_text(h.kitty, glyphs), who=owner))
    if h.declarer is not None:
        parts.append(
            _("Penalty suit {suit} named by {who} (bid {bid}).").format(
                suit=suit_text(h.penalty_suit, glyphs), who=names[h.declarer], bid=h.bid
            )
        )
    if h.shooter is not None and h.moon_choice is not None:
        choice = word(lang, h.moon_choice)
        if names.is_you(h.shooter):
            parts.append(_("You shot the moon ({choice}).").format(choice=choice))
        else:
            parts.append(_("The moon was shot by {who} ({choice}).").format(who=names[h.shooter], choice=choice))
    parts.append(
        _("Hand: {row}.  Totals: {totals}.").format(
            row=seat_values(names, h.scores, signed=True), totals=seat_values(names, h.totals)
        )
    )
    if any(h.chips_delta) or h.pool:
        parts.append(
            _("Chips: {row}; pool {pool}.").format(row=seat_values(names, h.chips_delta, signed=True), pool=h.pool)
        )
    return "\n".join(parts)


def hint_text(hint: Hint, names: Seats, glyphs: bool = True) -> str:
    """A hint the way the screen shows cards, seats and suits, in the player's language."""
    _ = translator(names.lang).gettext
    why = hint.text(_, card=lambda c: card_text(c, glyphs), seat=names.__getitem__, suit=lambda s: suit_text(s, glyphs))
    return _("Hint: {why}").format(why=why)
