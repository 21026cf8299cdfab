"""Tactical positions for the fast playout policy (players/rollout.py).

Each position is a standard deal played to a known trick; the policy must make
the move a careful player makes there, seeing only its own hand.
"""

from __future__ import annotations

from corazones.core import Rules
from corazones.core.cards import parse_card, parse_cards
from corazones.core.deal import Deal
from corazones.players.rollout import Context, choose, heuristic_play, play_out

HANDS = [
    "2C KC 5S 8S 9S KD QD JD 2D 3D 4D 5D 6D",
    "3C 6S QS 7D 8D 9D TD AD 2H 3H 4H 5H 6H",
    "4C 7S 3S 4S AS 7H 8H 9H TH JH QH KH AH",
    "5C 6C 7C 8C 9C TC JC QC AC 2S TS JS KS",
]


def _after(plays: str, hands: list[str] = HANDS) -> Deal:
    """The standard deal of ``hands`` (seat 0 leads the 2♣) after ``plays``."""
    d = Deal.at_play(Rules.preset("standard"), [parse_cards(h) for h in hands], (), 3)
    for c in parse_cards(plays):
        assert d.legal_mask(d.turn) >> c & 1, f"test setup plays an illegal card {c}"
        d.play_card(c)
    return d


def test_drops_the_queen_under_the_king() -> None:
    d = _after("2C 3C 4C 5C KS 9S")  # seat 3 took the first trick and leads the K♠
    assert d.turn == 1
    assert heuristic_play(d) == parse_card("QS")


def test_last_seat_sheds_the_ace_of_spades_on_a_clean_trick() -> None:
    # the Q♠ is unseen by seat 2: a clean trick is the safe moment to be rid of the A♠
    d = _after("2C 3C 4C 5C 2S 9S 6S")
    assert d.turn == 2
    assert heuristic_play(d) == parse_card("AS")


def test_sheds_a_high_club_on_the_first_trick() -> None:
    hands = list(HANDS)
    hands[0] = "2C 7D 5S 8S 9S KD QD JD 2D 3D 4D 5D 6D"
    hands[1] = "3C KC 6S QS 8D 9D TD AD 2H 3H 4H 5H 6H"
    d = _after("2C", hands)
    assert heuristic_play(d) == parse_card("KC")


def test_play_out_is_legal_and_deterministic() -> None:
    a = _after("")
    b = a.clone()
    ctx = Context(a)
    seen: list[int] = []
    while a.phase == "play":
        c = choose(a, ctx)
        assert a.legal_mask(a.turn) >> c & 1
        seen.append(c)
        a.play_card(c)
    play_out(b, Context(b))
    assert len(seen) == 52
    assert a.hand_scores() == b.hand_scores()


def test_a_defender_keeps_its_stoppers_on_the_shooters_trick() -> None:
    # seat 3 took the first trick and leads the A♣; seat 1, out of clubs, may discard
    d = _after("2C 3C 4C 5C AC KC")
    assert d.turn == 1
    ctx = Context(d)
    # nobody shooting: it throws its costliest card, the Q♠
    assert choose(d, ctx) == parse_card("QS")
    # against seat 3's moon it throws its lowest card and keeps the high ones that can win a trick off it
    assert choose(d, ctx, moon=3, defend=True) == parse_card("2H")


def test_with_stoppers_a_defender_keeps_its_high_card_under_the_shooters_ace() -> None:
    hands = [
        "2C 3D 4D 5D 6D 7D 8D 9D TD JD QD KS 2S",
        "3C 4C 5C 6C 7C 8C 9C TC JC QC KC 3S 4S",
        "AD 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH",
        "AC AH AS QS JS TS 9S 8S 7S 6S 5S KD 2D",
    ]
    d = _after("2C 3C AD AC AS", hands)  # seat 3 took the first trick and leads the A♠
    assert d.turn == 0
    # without stoppers, when nothing beats the A♠, seat 0 sheds its highest spade
    assert choose(d, Context(d), moon=3, defend=True) == parse_card("KS")
    # with stoppers it keeps the K♠, the card that can still win a spade trick off the shooter
    assert choose(d, Context(d, stoppers=True), moon=3, defend=True) == parse_card("2S")
    # and it still beats the shooter's card when it can
    d2 = _after("2C 3C AD AC 5S", hands)
    assert choose(d2, Context(d2, stoppers=True), moon=3, defend=True) == parse_card("KS")
