"""Tactical positions for the fast playout policy (players/rollout.py).

Each position is a standard deal played to a known trick; the policy must make
the move a careful player makes there, seeing only its own hand.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from corazones.core import Rules
from corazones.core.cards import parse_card, parse_cards
from corazones.core.deal import Deal
from corazones.players.rollout import DUEL, HAND, POLICY, Context, choose, heuristic_play, play_out

ROOT = Path(__file__).resolve().parents[1]

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


def test_the_duel_weights_fish_for_the_queen_of_spades() -> None:
    hands = [
        "5C JC KC 5D 8D TD QD KD AD 9S AS 2H 9H",
        "2C 6C QC 7D 2S 4S 5S 7S QS 5H 6H 7H KH",
        "4C AC 2D 9D JD 6S 8S JS 4H 8H JH QH AH",
        "3C 7C 8C 9C TC 3D 4D 6D 3S TS KS 3H TH",
    ]
    d = _after("2C AC TC KC", hands)  # seat 2 took the first trick; it holds no spade above the unseen Q♠
    assert d.turn == 2
    # the weights set by the policy's duel lead a low spade, to drive out the Q♠ while it cannot fall on us
    assert choose(d, Context(d, policy=DUEL)) == parse_card("6S")
    # the hand-set weights lead from the shortest safe suit
    assert choose(d, Context(d, policy=HAND)) == parse_card("2D")
    # a Context without weights plays by POLICY, the hand-set ones
    assert POLICY is HAND
    assert choose(d, Context(d)) == parse_card("2D")


def test_the_duel_weights_beat_the_hand_set_ones_in_the_policys_duel() -> None:
    # bench/duel.py: the two sets of weights, two seats each, in duplicate on random deals
    args = ["--a", "hand", "--b", "duel", "--boards", "1200", "--seed", "test", "--jobs", "1"]
    out = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "duel.py"), *args],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    m = re.search(r"B better by ([-+.\d]+) points/deal \(([-+.\d]+) to ([-+.\d]+)\), 1200 boards", out)
    assert m, out
    gain, low, _ = map(float, m.groups())
    assert low > 0 and gain > 0.3, out
