"""The kitty (RULES.md §2 ``strip = kitty``) and Cancellation Hearts (§3, Culbertson 1950)."""

from __future__ import annotations

import pytest

from corazones.core import Deal, Game, Rules
from corazones.core.cards import parse_card
from tests.helpers import at_play, cards, highest_legal, legal, play, play_out

KITTY = Rules.preset("kitty")
CANCEL = Rules.preset("cancellation_hearts", players=5)


# ------------------------------------------------------------------- kitty

KITTY_HANDS = ["2C 3D", "AC 4D", "4C 2H", "5C 5D"]


@pytest.mark.parametrize(
    ("kitty_to", "owner", "points"),
    [("first_penalty", 3, [0, 0, 0, 1 + 16]), ("first_trick", 1, [0, 16, 0, 1])],
)
def test_kitty_goes_to_first_penalty_taker_or_first_trick_winner(kitty_to: str, owner: int, points: list[int]) -> None:
    """§2: 'The kitty goes to the first player who takes a penalty card (kitty_to = first_penalty,
    default) or to the winner of the first trick (first_trick); its penalty cards count for whoever
    receives it.'"""
    r = KITTY.replace(kitty_to=kitty_to)
    d = at_play(r, KITTY_HANDS, kitty="QS 6H 7H 8H")
    play(d, "2C AC 4C 5C")
    assert d.tricks[0].winner == 1
    assert d.kitty_owner == (1 if kitty_to == "first_trick" else None)
    play(d, "4D 2H 5D 3D")
    assert d.tricks[1].winner == 3
    assert d.kitty_owner == owner
    assert d.phase == "done"
    assert d.pts == points
    assert sum(d.pts) == 1 + 16


def test_kitty_penalties_count_for_the_moon() -> None:
    """The kitty's penalty cards count for the receiver, so they belong to a moon too."""
    r = KITTY.replace(moon="add_to_others")
    d = at_play(r, ["2C", "3C", "4C", "5C"], kitty="QS AH KH 2H")
    play(d, "2C 3C 4C 5C")
    assert d.kitty_owner == 3 and d.pts == [0, 0, 0, 16]
    assert d.shooter is None, "16 of 26 in a test hand is no moon"


def test_moon_with_the_kitty() -> None:
    """A player who takes every trick also receives the kitty's hearts, so all 26 points: a moon."""
    top = "AC KC QC JC AD KD QD JD AS KS QS AH"
    kitty = "2H 3H 4H 5H"
    used = set(cards(top + " " + kitty))
    rest = [c for c in range(52) if c not in used]
    hands = [cards(top)] + [rest[i::3] for i in range(3)]
    d = Deal.at_play(KITTY.replace(moon="add_to_others"), hands, cards(kitty), 3)
    play_out(d, highest_legal)
    assert all(t.winner == 0 for t in d.tricks)
    assert d.kitty_owner == 0 and d.pos[0] == 26
    assert d.shooter == 0 and d.hand_scores() == [0, 26, 26, 26]


def test_kitty_without_any_penalty_in_tricks_goes_to_last_trick_winner() -> None:
    """Engine choice (docs/rules.md): if no trick held a penalty card, the kitty goes to the last trick's winner."""
    d = at_play(KITTY, ["2C", "3C", "4C", "5C"], kitty="QS AH")
    play(d, "2C 3C 4C 5C")
    assert d.kitty_owner == 3
    assert d.pts == [0, 0, 0, 14]


def test_kitty_game_deals_twelve_each_and_four_face_down() -> None:
    """§2 'With four players the kitty variant deals 12 each and leaves 4 in the kitty.'"""
    g = Game(KITTY, seed=11)
    d = g.deal
    assert [d.hand_count(s) for s in range(4)] == [12] * 4
    assert len(d.kitty) == 4
    allc = sorted([c for s in range(4) for c in d.hand(s)] + list(d.kitty))
    assert allc == list(range(52))
    obs = g.observation(0)
    assert obs.kitty_size == 4 and obs.kitty_owner is None


# ------------------------------------------------------- cancellation hearts


def test_two_decks_five_players_twenty_each_kitty_four() -> None:
    g = Game(CANCEL, seed=3)
    d = g.deal
    assert [d.hand_count(s) for s in range(5)] == [20] * 5 and len(d.kitty) == 4
    allc = sorted([c for s in range(5) for c in d.hand(s)] + list(d.kitty))
    assert allc == sorted(list(range(52)) * 2)


def test_two_of_clubs_first_holder_clockwise_from_eldest_leads() -> None:
    """Two decks may put 2♣ in two hands: the first of them clockwise from eldest leads (engine choice)."""
    d = at_play(CANCEL, ["9D 8D", "AC 2C", "AC 7D", "2C 6D", "3C 5D"], dealer=1)
    assert d.eldest == 2 and d.turn == 3 and legal(d) == {"2C"}


def test_identical_cards_cancel_and_neither_wins() -> None:
    """'Two identical cards (same rank and suit) played to the same trick cancel: neither can win it
    (they still carry their penalty).'"""
    d = at_play(CANCEL, ["2C 9D", "AC 8D", "AC 7D", "5C 6D", "KD 5D"])
    play(d, "2C AC AC 5C KD")
    assert d.tricks[0].winner == 3
    assert d.leader == 3


def test_cancelled_hearts_still_carry_their_penalty() -> None:
    r = CANCEL.replace(no_points_first_trick=False)
    d = at_play(r, ["2C 9D", "QS 8D", "QS 7D", "5C 6D", "AH 5D"])
    play(d, "2C QS QS 5C AH")
    assert d.tricks[0].winner == 3
    assert d.pts == [0, 0, 0, 27, 0]


@pytest.mark.parametrize("rule", ["two_pairs", "no_winner"])
def test_two_pairs_annul_the_trick_cards_go_to_next_winner_same_leader(rule: str) -> None:
    """'If two such pairs appear in one trick, the whole trick is annulled and its cards go to the
    winner of the next trick (the same leader leads again)'."""
    r = CANCEL.replace(cancel_whole_trick=rule)
    d = at_play(r, ["2C 9D", "AC 8D", "AC 7D", "2C 6D", "QS 5H"])
    play(d, "2C AC AC 2C QS")
    t = d.tricks[0]
    assert t.winner is None, "no uncancelled club remains, so both options annul"
    assert d.turn == 0 and d.leader == 0
    assert d.pts == [0] * 5
    play(d, "9D 8D 7D 6D 5H")
    assert d.tricks[1].winner == 0
    assert d.pts == [14, 0, 0, 0, 0], "the annulled Q♠ goes with the next trick"
    assert d.pen_count[0] == 2


def test_two_pairs_option_differs_from_no_winner() -> None:
    """Option cancel_whole_trick: two_pairs (default) annuls on two pairs even if a card could win;
    no_winner annuls only when no uncancelled card of the suit led remains."""
    hands = ["2C 9D", "AC 8D", "AC 7D", "2C 6D", "3C 5D"]
    d = at_play(CANCEL, hands)
    play(d, "2C AC AC 2C 3C")
    assert d.tricks[0].winner is None and d.turn == 0
    d = at_play(CANCEL.replace(cancel_whole_trick="no_winner"), hands)
    play(d, "2C AC AC 2C 3C")
    assert d.tricks[0].winner == 4 and d.turn == 4


def test_single_pair_with_no_other_card_of_suit_led_annuls() -> None:
    """Engine choice (docs/rules.md): one pair that leaves nobody able to win annuls the trick."""
    d = at_play(CANCEL, ["2C 9D", "2C 8D", "KD 7D", "JD 6D", "10D 5D"])
    play(d, "2C 2C KD JD 10D")
    assert d.tricks[0].winner is None and d.turn == 0


@pytest.mark.parametrize("rule", ["two_pairs", "no_winner"])
def test_annulled_last_trick_goes_to_its_leader(rule: str) -> None:
    """'if the last trick is annulled it goes to its leader' — with the annulled cards waiting before it."""
    r = CANCEL.replace(cancel_whole_trick=rule)
    d = at_play(r, ["2C", "2C", "AC", "AC", "5H"])
    assert d.turn == 0
    play(d, "2C 2C AC AC 5H")
    assert d.phase == "done" and d.tricks[0].winner is None
    assert d.pts == [1, 0, 0, 0, 0]
    d = at_play(r, ["2C 9D", "AC 9D", "AC 6D", "2C 6D", "QS 5H"])
    play(d, "2C AC AC 2C QS")
    play(d, "9D 9D 6D 6D 5H")
    assert [t.winner for t in d.tricks] == [None, None]
    assert d.phase == "done"
    assert d.pts == [14, 0, 0, 0, 0], "both annulled tricks go to the last trick's leader"


def test_cancellation_kitty_goes_with_the_first_trick() -> None:
    """'the leftover cards form a kitty added to the first trick'."""
    d = at_play(CANCEL, ["2C 9D", "AC 8D", "3C 7D", "5C 6D", "KD 5D"], kitty="QS 3H 3H")
    play(d, "2C AC 3C 5C KD")
    assert d.kitty_owner == 1
    play(d, "8D 7D 6D 5D 9D")
    assert d.pts == [0, 15, 0, 0, 0]


def test_cancellation_kitty_follows_an_annulled_first_trick() -> None:
    """After an annulled first trick the kitty goes with those cards to the next trick's winner."""
    d = at_play(CANCEL, ["2C 9D", "AC 8D", "AC 7D", "2C 6D", "3C 5D"], kitty="QS 3H")
    play(d, "2C AC AC 2C 3C")
    assert d.kitty_owner is None
    play(d, "9D 8D 7D 6D 5D")
    assert d.kitty_owner == 0 and d.pts == [14, 0, 0, 0, 0]


def test_cancellation_penalty_total_is_fifty_two() -> None:
    r = Rules.preset("cancellation_hearts")
    vals = r.card_values()
    assert sum(vals[c] for c in r.deck) == 52
    assert r.deck.count(parse_card("QS")) == 2
