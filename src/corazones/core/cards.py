"""Cards, suits, ranks and fast card sets.

A card is an ``int`` from 0 to 51: ``suit * 13 + rank`` where rank 0 is the
two and rank 12 the ace.  Keeping cards as small integers lets a hand be a
single 52-bit mask, so following suit, finding the highest card of a trick or
counting penalties are one or two bit operations.  :class:`Card` is an ``int``
subclass that prints nicely; the engine's hot paths use plain ints.

Cancellation Hearts plays with two decks, so a hand can hold two copies of a
card.  :class:`CardSet` is therefore a multiset made of two masks: ``one``
holds every card present at least once and ``two`` every card present twice.
With a single deck ``two`` is always zero and costs nothing.

Card notation: rank ``2``-``10`` (or ``T``), ``J``, ``Q``, ``K``, ``A`` followed
by a suit letter ``C D S H`` or glyph ``♣ ♦ ♠ ♥``; case does not matter.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Final

from corazones.core.errors import N_, CardError
from corazones.core.limits import index_below, show

CLUBS: Final = 0
DIAMONDS: Final = 1
SPADES: Final = 2
HEARTS: Final = 3

#: Suit letters in suit-index order (clubs, diamonds, spades, hearts: the
#: order in which hands are shown, alternating colours).
SUIT_LETTERS: Final = "CDSH"
SUIT_GLYPHS: Final = "♣♦♠♥"
SUIT_NAMES: Final = ("clubs", "diamonds", "spades", "hearts")
RANK_LETTERS: Final = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")

SUIT_MASK: Final = tuple(((1 << 13) - 1) << (13 * s) for s in range(4))
FULL_DECK: Final = (1 << 52) - 1

_RANK_PARSE: Final = {r: i for i, r in enumerate(RANK_LETTERS)} | {"T": 8}
_SUIT_PARSE: Final = {s: i for i, s in enumerate(SUIT_LETTERS)} | {g: i for i, g in enumerate(SUIT_GLYPHS)}
# Glyph variants people paste: white suit symbols.
_SUIT_PARSE.update({"♧": 0, "♢": 1, "♤": 2, "♡": 3})


def _index(card: object) -> int:
    """``card`` as a card index 0-51 (NumPy integers welcome); :class:`CardError` naming it otherwise."""
    index = index_below(card, 52)
    if index < 0:
        raise CardError(N_("not a card: {card}; a card is an index 0 to 51 (2C = 0 ... AH = 51)"), card=show(card))
    return index


def suit_of(card: int) -> int:
    """Suit index of ``card``."""
    return card // 13


def rank_of(card: int) -> int:
    """Rank index of ``card`` (0 = two ... 12 = ace)."""
    return card % 13


def make_card(rank: int, suit: int) -> int:
    """The card of ``rank`` (0 = two) in ``suit``."""
    return suit * 13 + rank


class Card(int):
    """A playing card; an ``int`` 0..51 that prints as ``QS``.

    ``Card.parse("Q♠") == Card.parse("qs") == 36``.
    """

    __slots__ = ()

    def __new__(cls, index: object) -> Card:
        """The card of ``index`` 0-51; anything else (``52``, ``"QS"``, ``1.5``) raises :class:`CardError`.

        Checked because ``int`` would take ``"5"`` or ``1.5`` as a card and ``52`` would only
        fail when printed; text goes through :meth:`parse`.
        """
        return super().__new__(cls, _index(index))

    @property
    def suit(self) -> int:
        return int(self) // 13

    @property
    def rank(self) -> int:
        return int(self) % 13

    @classmethod
    def parse(cls, text: str) -> Card:
        return CARDS[parse_card(text)]

    def glyph(self) -> str:
        """Display form with a suit glyph, e.g. ``Q♠``."""
        return RANK_LETTERS[self.rank] + SUIT_GLYPHS[self.suit]

    def __str__(self) -> str:
        return RANK_LETTERS[self.rank] + SUIT_LETTERS[self.suit]

    def __repr__(self) -> str:
        return f"Card('{self}')"


#: The 52 cards, ``CARDS[i]`` is the :class:`Card` with index ``i``.
CARDS: Final = tuple(Card(i) for i in range(52))
_NAMES: Final = tuple(str(c) for c in CARDS)


def card_str(card: int) -> str:
    """Canonical text of a card: ``QS``, ``10H``."""
    return _NAMES[card]


def parse_card(text: str) -> int:
    """Parse ``QS``, ``10H``, ``TH``, ``Q♠``; raise :class:`CardError` otherwise."""
    if not isinstance(text, str):
        raise CardError(N_("a card must be a string like 'QS', '10H' or 'Q♠', not {value}"), value=show(text))
    if len(text) > 16:  # checked before any work on it: a card is two or three characters
        raise _card_help(text)
    s = text.strip().upper()
    if len(s) < 2 or len(s) > 3:
        raise _card_help(text)
    rank = _RANK_PARSE.get(s[:-1])
    suit = _SUIT_PARSE.get(s[-1])
    if rank is None or suit is None:
        raise _card_help(text)
    return suit * 13 + rank


def _card_help(text: object) -> CardError:
    return CardError(
        N_(
            "not a card: {value}; write rank then suit, rank one of 2-10, T, J, Q, K, A "
            "and suit one of C D S H or ♣ ♦ ♠ ♥ (e.g. 'QS', '10H', 'TH', 'Q♠')"
        ),
        value=show(text),
    )


def parse_cards(texts: Iterable[str] | str) -> list[int]:
    """Parse many cards: a list of strings or one string separated by spaces/commas."""
    if isinstance(texts, str):
        texts = texts.replace(",", " ").split()
    try:
        items = iter(texts)
    except TypeError:
        raise CardError(
            N_("cards are a string like 'QS AH' or a list of card strings, not {value}"), value=show(texts)
        ) from None
    return [parse_card(t) for t in items]


def mask_of(cards: Iterable[int]) -> int:
    """Bit mask of distinct cards (duplicates collapse)."""
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def iter_mask(mask: int) -> Iterator[int]:
    """Cards of a mask, lowest index first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def mask_cards(mask: int) -> list[int]:
    """Cards of a mask as a list, lowest index first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def lowest(mask: int) -> int:
    """Lowest card index in a non-empty mask."""
    return (mask & -mask).bit_length() - 1


def highest(mask: int) -> int:
    """Highest card index in a non-empty mask."""
    return mask.bit_length() - 1


class CardSet:
    """A multiset of cards (at most two copies of each) backed by two bit masks.

    Mutable on purpose: the engine adds and removes cards in place.  Iteration
    yields each copy, lowest card first.
    """

    __slots__ = ("one", "two")

    def __init__(self, cards: Iterable[int] = ()) -> None:
        self.one = 0
        self.two = 0
        for c in cards:
            self.add(c)

    @classmethod
    def from_masks(cls, one: int, two: int = 0) -> CardSet:
        s = cls()
        s.one, s.two = one, two
        return s

    @classmethod
    def parse(cls, text: Iterable[str] | str) -> CardSet:
        return cls(parse_cards(text))

    def add(self, card: int) -> None:
        """Add one copy of ``card`` (an index 0-51; :class:`CardError` otherwise, or for a third copy)."""
        bit = 1 << _index(card)
        if self.one & bit:
            if self.two & bit:
                raise CardError(N_("a card set holds at most two copies of {card}"), card=card_str(card))
            self.two |= bit
        else:
            self.one |= bit

    def remove(self, card: int) -> None:
        """Remove one copy of ``card``; :class:`CardError` when it is not a card or not in the set."""
        bit = 1 << _index(card)
        if self.two & bit:
            self.two ^= bit
        elif self.one & bit:
            self.one ^= bit
        else:
            raise CardError(N_("{card} is not in the set"), card=card_str(card))

    def count(self, card: int) -> int:
        bit = 1 << card
        return (1 if self.one & bit else 0) + (1 if self.two & bit else 0)

    def copy(self) -> CardSet:
        return CardSet.from_masks(self.one, self.two)

    def __contains__(self, card: object) -> bool:
        return isinstance(card, int) and bool(self.one >> card & 1)

    def __len__(self) -> int:
        return self.one.bit_count() + self.two.bit_count()

    def __iter__(self) -> Iterator[Card]:
        for c in iter_mask(self.one):
            yield CARDS[c]
            if self.two >> c & 1:
                yield CARDS[c]

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CardSet) and self.one == other.one and self.two == other.two

    def __hash__(self) -> int:
        return hash((self.one, self.two))

    def __repr__(self) -> str:
        return f"CardSet('{' '.join(str(c) for c in self)}')"


def sort_key(card: int) -> tuple[int, int]:
    """Sort by suit (clubs, diamonds, spades, hearts) then rank."""
    return (card // 13, card % 13)


def format_cards(cards: Iterable[int], glyphs: bool = False) -> str:
    """Space-separated cards in display order."""
    names = [CARDS[c].glyph() if glyphs else _NAMES[c] for c in sorted(cards, key=sort_key)]
    return " ".join(names)
