"""Cards (RULES.md §1: one 52-card French deck, rank A K Q J 10 ... 2; §3 Cancellation: two decks).

Card notation is the project's own (README/docs): rank ``2``-``10``, ``T``, ``J``, ``Q``,
``K``, ``A`` then a suit letter ``C D S H`` or glyph ``♣ ♦ ♠ ♥``, any case.
"""

from __future__ import annotations

import pytest

from corazones.core import CARDS, Card, CardError, CardSet, card_str, parse_card, parse_cards
from corazones.core.cards import (
    CLUBS,
    DIAMONDS,
    FULL_DECK,
    HEARTS,
    SPADES,
    SUIT_MASK,
    format_cards,
    highest,
    iter_mask,
    lowest,
    make_card,
    mask_cards,
    mask_of,
    rank_of,
    suit_of,
)

QS = make_card(10, SPADES)
TEN_H = make_card(8, HEARTS)
TWO_C = make_card(0, CLUBS)
ACE_H = make_card(12, HEARTS)


@pytest.mark.parametrize(
    ("text", "card"),
    [
        ("QS", QS),
        ("qs", QS),
        ("Qs", QS),
        ("Q♠", QS),
        ("q♠", QS),
        ("Q♤", QS),
        (" QS ", QS),
        ("10H", TEN_H),
        ("10h", TEN_H),
        ("TH", TEN_H),
        ("th", TEN_H),
        ("10♥", TEN_H),
        ("T♡", TEN_H),
        ("2C", TWO_C),
        ("2♣", TWO_C),
        ("AH", ACE_H),
        ("JD", make_card(9, DIAMONDS)),
        ("J♦", make_card(9, DIAMONDS)),
        ("K♢", make_card(11, DIAMONDS)),
    ],
)
def test_parse_accepts_letters_glyphs_ten_as_T_and_any_case(text: str, card: int) -> None:
    """Every notation people type or paste parses to the same card index."""
    assert parse_card(text) == card
    assert Card.parse(text) == card


def test_print_is_canonical_and_round_trips_every_card() -> None:
    """Each of the 52 cards prints one canonical way (``10H`` not ``TH``) that parses back."""
    assert str(CARDS[QS]) == "QS" and card_str(QS) == "QS"
    assert card_str(TEN_H) == "10H"
    assert CARDS[QS].glyph() == "Q♠"
    assert CARDS[TEN_H].glyph() == "10♥"
    assert repr(CARDS[QS]) == "Card('QS')"
    names = {card_str(c) for c in range(52)}
    assert len(names) == 52
    for c in range(52):
        assert parse_card(card_str(c)) == c
        assert parse_card(CARDS[c].glyph()) == c


def test_index_layout_suit_times_13_plus_rank() -> None:
    """Rank 0 is the two and 12 the ace, so a higher index in a suit is a higher card (§1 rank order)."""
    for c in range(52):
        assert make_card(rank_of(c), suit_of(c)) == c
        assert CARDS[c].suit == suit_of(c) and CARDS[c].rank == rank_of(c)
    spades = [parse_card(f"{r}S") for r in ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")]
    assert spades == sorted(spades)
    assert {suit_of(parse_card(t)) for t in ("5C", "5D", "5S", "5H")} == {CLUBS, DIAMONDS, SPADES, HEARTS}


@pytest.mark.parametrize("bad", ["1S", "QX", "", "Q", "S", "11H", "QSS", "10", "ZZ", "1 0H", "0H", "♠Q", "Q♠♠"])
def test_garbage_text_raises_card_error_explaining_notation(bad: str) -> None:
    """Garbage is refused with a CardError that quotes the input and shows the notation."""
    with pytest.raises(CardError) as e:
        parse_card(bad)
    msg = str(e.value)
    assert repr(bad) in msg
    assert "'QS'" in msg and "10H" in msg


@pytest.mark.parametrize("bad", [42, None, 3.5, b"QS", ["QS"]])
def test_non_string_raises_card_error(bad: object) -> None:
    """A card must be text: an int or other object is a CardError naming it (not a TypeError)."""
    with pytest.raises(CardError, match="must be a string"):
        parse_card(bad)  # type: ignore[arg-type]


def test_card_error_is_a_value_error() -> None:
    """Callers that catch ValueError keep working."""
    with pytest.raises(ValueError):
        parse_card("1S")


def test_parse_cards_list_or_separated_text() -> None:
    assert parse_cards("2C, QS 10h") == [TWO_C, QS, TEN_H]
    assert parse_cards(["2C", "Q♠"]) == [TWO_C, QS]
    assert parse_cards("") == []
    with pytest.raises(CardError):
        parse_cards("2C QX")


def test_masks_one_bit_per_card() -> None:
    """A hand is a 52-bit mask; suit masks partition the deck."""
    m = mask_of([QS, TWO_C, ACE_H, QS])
    assert m == (1 << QS) | (1 << TWO_C) | (1 << ACE_H)
    assert mask_cards(m) == [TWO_C, QS, ACE_H]
    assert list(iter_mask(m)) == [TWO_C, QS, ACE_H]
    assert lowest(m) == TWO_C and highest(m) == ACE_H
    assert sum(SUIT_MASK) == FULL_DECK
    for s in range(4):
        assert SUIT_MASK[s].bit_count() == 13
        assert all(suit_of(c) == s for c in mask_cards(SUIT_MASK[s]))
    assert mask_cards(0) == []


def test_cardset_holds_two_copies_for_two_decks() -> None:
    """Cancellation Hearts (two decks): a hand may hold the same card twice, never three times."""
    s = CardSet.parse("QS QS 2C")
    assert len(s) == 3
    assert s.count(QS) == 2 and s.count(TWO_C) == 1 and s.count(ACE_H) == 0
    assert QS in s and ACE_H not in s
    assert [int(c) for c in s] == [TWO_C, QS, QS]
    assert s.one == (1 << QS) | (1 << TWO_C) and s.two == 1 << QS
    with pytest.raises(CardError, match="at most two copies of QS"):
        s.add(QS)
    assert len(s) == 3, "a refused add leaves the set unchanged"
    s.remove(QS)
    assert s.count(QS) == 1 and s.two == 0
    s.remove(QS)
    assert QS not in s
    with pytest.raises(CardError, match="QS is not in the set"):
        s.remove(QS)


def test_cardset_copy_equality_and_hash() -> None:
    a = CardSet.parse("AH 2C 2C")
    b = a.copy()
    assert a == b and hash(a) == hash(b)
    b.remove(TWO_C)
    assert a != b
    assert a.count(TWO_C) == 2, "a copy is independent"
    assert CardSet.from_masks(a.one, a.two) == a
    assert repr(CardSet.parse("AH 2C")) == "CardSet('2C AH')"


def test_format_cards_in_display_order() -> None:
    """Hands are shown clubs, diamonds, spades, hearts, low to high."""
    cards = parse_cards("AH 2C QS 10D")
    assert format_cards(cards) == "2C 10D QS AH"
    assert format_cards(cards, glyphs=True) == "2♣ 10♦ Q♠ A♥"
