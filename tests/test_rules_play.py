"""Play rules of RULES.md §1-§3: the first lead, following suit, the first-trick rule,
breaking hearts, spade leads, and the forced discard order of Chasse-Cœur.

Positions are built with ``Deal.at_play`` from explicit hands; seat 0 is eldest hand
(the dealer is the last seat) unless a test says otherwise.
"""

from __future__ import annotations

import pytest

from corazones.core import Action, Game, Rules
from corazones.core.cards import parse_card
from tests.helpers import at_play, legal, play

STANDARD = Rules.preset("standard")


# ------------------------------------------------------------- first lead


def test_two_of_clubs_holder_leads_it_to_the_first_trick() -> None:
    """§1 'First trick: whoever holds 2♣ must lead it' — whatever seat is eldest."""
    d = at_play(STANDARD, ["5H 9C", "KD 2C", "3C QS", "4S AH"])
    assert d.turn == 1 and d.leader == 1
    assert legal(d) == {"2C"}
    assert legal(d, 0) == set(), "nobody else may play before the lead"


@pytest.mark.parametrize("dealer", range(4))
def test_two_of_clubs_leads_regardless_of_dealer(dealer: int) -> None:
    d = at_play(STANDARD, ["5H 9C", "KD 7D", "3C QS", "2C AH"], dealer=dealer)
    assert d.turn == 3 and legal(d) == {"2C"}


def test_three_of_clubs_leads_when_two_of_clubs_is_stripped() -> None:
    """§2 'The first lead is the lowest club in play (3♣ where 2♣ was stripped)' — five players."""
    r = Rules.preset("standard", players=5)
    assert parse_card("2C") in r.stripped
    d = at_play(r, ["5H 9C", "KD 7D", "AC QS", "3C AH", "4C 8H"])
    assert d.turn == 3 and legal(d) == {"3C"}


def test_six_players_seed_003_lowest_club_is_two_of_clubs() -> None:
    """With six players seed_003 strips 3♣ and 4♣ but keeps 2♣, which leads."""
    r = Rules(players=6)
    d = at_play(r, ["5C", "2C", "6C", "7C", "8C", "9C"])
    assert d.turn == 1 and legal(d) == {"2C"}


def test_lowest_club_held_leads_when_two_of_clubs_is_in_the_kitty() -> None:
    """§2 kitty: 'If 2♣ is in the kitty, the lowest club held leads' (and must lead that club)."""
    r = Rules.preset("kitty")
    d = at_play(r, ["5H 9C", "KD 4C", "3C QS", "6C AH"], kitty="2C 7H 8H 9H")
    assert d.turn == 2 and legal(d) == {"3C"}


def test_game_first_leader_holds_lowest_club_after_the_pass() -> None:
    """In a dealt game the first lead comes from whoever holds the lowest club once passes arrive."""
    for n, low in ((3, "2C"), (4, "2C"), (5, "3C"), (6, "2C"), (7, "2C")):
        g = Game(Rules.preset("standard", players=n), seed=n)
        while g.deal.phase == "pass":
            s = g.to_act()[0]
            g.apply(Action.pass_cards(s, g.deal.hand(s)[:3]))
        d = g.deal
        assert parse_card(low) in d.hand(d.turn)
        assert legal(d) == {low}


def test_eldest_leads_any_card_in_old_style_presets() -> None:
    """1887, Arnold, Four Jacks, Chasse-Cœur: 'eldest hand leads any card' (no 2♣ rule)."""
    for preset in ("hearts_1887", "arnold_2011", "four_jacks"):
        r = Rules.preset(preset)
        d = at_play(r, ["5H 9C", "KD 2C", "3C QS", "4S AH"], dealer=2)
        assert d.turn == 3, preset
        assert legal(d) == {"4S", "AH"}, preset


# ------------------------------------------------------------ follow suit


def test_must_follow_suit_led_if_able() -> None:
    """§1 'follow the suit led if able'; otherwise any card (subject to the first-trick rule)."""
    d = at_play(STANDARD, ["2C 3D 4S", "8C 9C AD", "KD QD 5S", "6C 7S 8D"])
    play(d, "2C")
    assert legal(d) == {"8C", "9C"}
    play(d, "9C")
    assert legal(d) == {"KD", "QD", "5S"}, "void in clubs: any non-penalty card"
    play(d, "KD 6C")
    assert d.leader == 1, "highest club wins the trick; the winner leads next"
    play(d, "AD")
    assert legal(d) == {"QD"}
    play(d, "QD")
    assert legal(d) == {"8D"}
    assert legal(d, 0) == set(), "only the seat to play has legal cards"


def test_highest_card_of_suit_led_wins_off_suit_never_wins() -> None:
    """'Highest card of the suit led wins', no trumps: an ace of another suit does not win."""
    r = STANDARD.replace(no_points_first_trick=False)
    d = at_play(r, ["2C 3D", "AS 4D", "AH 5D", "3C 6D"])
    play(d, "2C AS AH 3C")
    assert d.tricks[0].winner == 3
    assert d.pts == [0, 0, 0, 1]


# --------------------------------------------------------- first-trick rule


def test_first_trick_no_penalty_discard() -> None:
    """§1 no_points_first_trick: a seat void in clubs may not discard a heart or Q♠ to trick one."""
    d = at_play(STANDARD, ["2C 5C KH", "QS 8D 4H", "AH 3H 6H", "7C 9D 9S"])
    play(d, "2C")
    assert legal(d) == {"8D"}


def test_first_trick_any_card_when_every_card_held_is_a_penalty_card() -> None:
    """The exception: 'unless every card held is a penalty card (then any card may be played)'."""
    d = at_play(STANDARD, ["2C 5C KH", "8C 8D 4H", "AH 3H QS", "7C 9D 9S"])
    play(d, "2C 8C")
    assert legal(d) == {"AH", "3H", "QS"}


def test_first_trick_rule_off_allows_penalty_discard() -> None:
    r = STANDARD.replace(no_points_first_trick=False)
    d = at_play(r, ["2C 5C KH", "QS 8D 4H", "AH 3H 6H", "7C 9D 9S"])
    play(d, "2C")
    assert legal(d) == {"QS", "8D", "4H"}


def test_first_trick_rule_applies_only_to_the_first_trick() -> None:
    """From trick two on, a seat unable to follow may discard hearts or Q♠."""
    d = at_play(STANDARD, ["2C 5C KH", "8C QS 4H", "3C 6H 5D", "7C 9D 9S"])
    play(d, "2C 8C 3C 7C")
    assert d.leader == 1
    play(d, "QS")
    assert legal(d) == {"6H", "5D"}


def test_omnibus_jack_of_diamonds_is_not_a_penalty_card() -> None:
    """§3 Omnibus: J♦ is a bonus (−10), so it may be discarded on trick one and does not count
    as a penalty card for the 'all penalty cards' exception."""
    r = Rules.preset("omnibus")
    d = at_play(r, ["2C 5C KH", "QS JD 4H", "AH 3H 6H", "7C 9D 9S"])
    play(d, "2C")
    assert legal(d) == {"JD"}


def test_black_maria_spade_penalties_may_not_be_discarded_on_trick_one() -> None:
    """Black Maria's A♠ (10) and K♠ (7) are penalty cards like Q♠."""
    r = Rules.preset("black_maria")
    d = at_play(r, ["2C 5C", "AS 2S", "KS 6H"])
    play(d, "2C")
    assert legal(d) == {"2S"}
    play(d, "2S")
    assert legal(d) == {"KS", "6H"}, "all penalty cards: any"


# ---------------------------------------------------------- breaking hearts


def test_hearts_may_not_be_led_before_broken() -> None:
    """§1 must_break_hearts: no heart lead until a heart has been played in an earlier trick."""
    d = at_play(STANDARD, ["2C AH 5S", "3C 4H 6S", "4C 5H 7S", "KC 6H 8S"])
    play(d, "2C 3C 4C KC")
    assert d.leader == 3
    assert legal(d) == {"8S"}
    assert not d.broken


def test_hearts_may_be_led_when_only_hearts_are_held() -> None:
    """'... unless the leader holds only hearts'."""
    d = at_play(STANDARD, ["2C AH 5S", "3C 4H 6S", "4C 5H 7S", "KC 6H 7H"])
    play(d, "2C 3C 4C KC")
    assert d.leader == 3
    assert legal(d) == {"6H", "7H"}


def test_heart_discard_breaks_hearts_for_later_leads() -> None:
    d = at_play(STANDARD, ["2C 9S AH 3D", "3C 2S 4H 4D", "4C 5H 6H 5D", "KC KS 7H 6D"])
    play(d, "2C 3C 4C KC")
    assert legal(d) == {"KS", "6D"}
    play(d, "KS 9S 2S")
    assert legal(d) == {"5H", "6H", "5D"}
    play(d, "5H")
    assert d.broken
    assert legal(d) == {"7H", "6D"}


@pytest.mark.parametrize("queen_breaks", [False, True])
def test_queen_breaks_hearts_option(queen_breaks: bool) -> None:
    """§1 queen_breaks_hearts (default off): playing Q♠ also breaks hearts."""
    r = STANDARD.replace(queen_breaks_hearts=queen_breaks)
    d = at_play(r, ["2C QS 3D 5D", "3C AS 4H 6D", "4C 2S 5H 7D", "KC KS 6H 8D"])
    play(d, "2C 3C 4C KC")
    play(d, "KS QS AS 2S")
    assert d.leader == 1
    assert d.broken is queen_breaks
    assert legal(d) == ({"4H", "6D"} if queen_breaks else {"6D"})


def test_breaking_rule_off_allows_heart_lead_at_any_time() -> None:
    r = STANDARD.replace(must_break_hearts=False)
    d = at_play(r, ["2C AH 5S", "3C 4H 6S", "4C 5H 7S", "KC 6H 8S"])
    play(d, "2C 3C 4C KC")
    assert legal(d) == {"6H", "8S"}


def test_hearts_1887_eldest_may_lead_a_heart_to_trick_one_and_discard_points() -> None:
    """1887: no heart-breaking rule, no first-trick rule."""
    r = Rules.preset("hearts_1887")
    d = at_play(r, ["AH 5C", "2D 4H", "3D 5H", "4D 6H"])
    assert legal(d) == {"AH", "5C"}
    play(d, "5C")
    assert legal(d) == {"2D", "4H"}


def test_spades_and_queen_of_spades_may_be_led_after_trick_one() -> None:
    """§1 'Spades (and Q♠ itself) may be led at any trick after the first'."""
    d = at_play(STANDARD, ["2C QS 3H", "5D 6D 7D", "8D 9D 10D", "JD KD AD"])
    play(d, "2C 5D 8D JD")
    assert d.leader == 0
    assert legal(d) == {"QS"}


# ------------------------------------------------------------ Chasse-Cœur


def test_chasse_coeur_must_discard_a_heart_if_able() -> None:
    """§3 Chasse-Cœur: unable to follow, discard a heart if able, else a queen, else anything."""
    r = Rules.preset("chasse_coeur")
    d = at_play(r, ["2C 3C", "5H QD", "QS 4D", "6D 7D"])
    play(d, "2C")
    assert legal(d) == {"5H"}
    play(d, "5H")
    assert legal(d) == {"QS"}
    play(d, "QS")
    assert legal(d) == {"6D", "7D"}


def test_chasse_coeur_queen_of_hearts_is_a_heart_first() -> None:
    r = Rules.preset("chasse_coeur")
    d = at_play(r, ["2C 3C", "QH QD", "QS 4D", "6D 7D"])
    play(d, "2C")
    assert legal(d) == {"QH"}


def test_chasse_coeur_discard_order_applies_on_later_tricks_too() -> None:
    r = Rules.preset("chasse_coeur")
    d = at_play(r, ["2C 3S 9D", "4C QD 8D", "5C QC 6D", "6C 7C 8C"])
    play(d, "2C 4C 5C 6C")
    assert d.leader == 3
    play(d, "7C")
    assert legal(d) == {"3S", "9D"}, "no heart, no queen: anything"
    play(d, "3S")
    assert legal(d) == {"QD"}
    play(d, "QD")
    assert legal(d) == {"QC"}, "following suit comes before the discard order"
