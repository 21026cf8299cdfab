"""Penalty values and shooting the moon (RULES.md §1 moon, §3 variants, partnership moon).

The moon hands are real hands played to the end: seat 0 holds the top four cards of
three suits plus one more card and wins every trick it should, so the shooter is
produced by play, not by setting scores.
"""

from __future__ import annotations

import pytest

from corazones.core import Action, Deal, IllegalActionError, Kind, Rules
from corazones.core.cards import card_str, parse_card
from tests.helpers import TOP, at_play, boss_policy, play, play_out, spread

STANDARD = Rules.preset("standard")


def moon_hand(rules: Rules) -> Deal:
    """Seat 0 wins all thirteen tricks, so it takes every card."""
    d = Deal.at_play(rules, spread(TOP, {}), (), 3)
    play_out(d, boss_policy(set()))
    assert all(t.winner == 0 for t in d.tricks)
    return d


@pytest.mark.parametrize(
    ("choice", "scores"),
    [("subtract_from_self", [-26, 0, 0, 0]), ("add_to_others", [0, 26, 26, 26])],
)
def test_moon_choice_is_the_shooters_decision(choice: str, scores: list[int]) -> None:
    """§1 moon = choice: 'a player who takes every penalty card chooses' −26 self or +26 to each opponent."""
    d = moon_hand(STANDARD)
    assert d.phase == "moon" and d.shooter == 0
    assert d.to_act() == (0,) and d.decision_kind() is Kind.MOON
    assert {a.value for a in d.legal_actions(0)} == {"subtract_from_self", "add_to_others"}
    with pytest.raises(IllegalActionError, match="not seat 1's turn to moon"):
        d.apply(Action.moon(1, choice))
    with pytest.raises(IllegalActionError, match="moon choice must be one of subtract_from_self, add_to_others"):
        d.apply(Action(Kind.MOON, 0, (), "both"))
    d.apply(Action.moon(0, choice))
    assert d.phase == "done"
    assert d.pts == [26, 0, 0, 0]
    assert d.hand_scores() == scores


@pytest.mark.parametrize(
    ("moon", "scores"),
    [
        ("add_to_others", [0, 26, 26, 26]),
        ("subtract_from_self", [-26, 0, 0, 0]),
        ("off", [26, 0, 0, 0]),
    ],
)
def test_fixed_moon_settings_need_no_decision(moon: str, scores: list[int]) -> None:
    d = moon_hand(STANDARD.replace(moon=moon))
    assert d.phase == "done"
    assert d.shooter == (None if moon == "off" else 0)
    assert d.hand_scores() == scores


@pytest.mark.parametrize(
    ("choice", "scores"),
    [("subtract_from_self", [-36, 0, 0, 0]), ("add_to_others", [-10, 26, 26, 26])],
)
def test_omnibus_shooter_keeps_the_jack_of_diamonds(choice: str, scores: list[int]) -> None:
    """§3 Omnibus: J♦ −10; 'a shooter who also took J♦ keeps the −10'."""
    d = moon_hand(Rules.preset("omnibus"))
    assert d.pts == [16, 0, 0, 0]
    d.apply(Action.moon(0, choice))
    assert d.hand_scores() == scores


@pytest.mark.parametrize(
    ("choice", "scores"),
    [("subtract_from_self", [-26, -10, 0, 0]), ("add_to_others", [0, 16, 26, 26])],
)
def test_omnibus_jack_of_diamonds_not_needed_for_the_moon(choice: str, scores: list[int]) -> None:
    """§3 Omnibus: 'The J♦ is not needed to shoot the moon'; whoever took it keeps −10."""
    top = "AC KC QC JC AS KS QS JS AH KH QH JH 2D"
    reserved = {1: "AD", 2: "JD", 3: "3D"}
    d = Deal.at_play(Rules.preset("omnibus"), spread(top, reserved), (), 3)
    play_out(d, boss_policy({parse_card(c) for c in ("AD", "JD", "3D")}, keep_last=parse_card("2D")))
    last = d.tricks[-1]
    assert [card_str(c) for _, c in last.plays] == ["2D", "AD", "JD", "3D"] and last.winner == 1
    assert d.pos == [26, 0, 0, 0] and d.shooter == 0
    d.apply(Action.moon(0, choice))
    assert d.hand_scores() == scores


def test_partnership_moon_needs_one_player_by_default() -> None:
    """§3 partnership: 'The moon needs one player to take all penalty cards (option: the team)'."""
    top = "AC KC QC JC AD KD QD JD AS KS QS JS 2H"
    reserved = {1: "3H", 2: "AH", 3: "4H"}
    keep = {parse_card(c) for c in ("3H", "AH", "4H")}
    for needs, shooter, scores in (
        ("player", None, [22, 0, 4, 0]),
        ("team", 0, [0, 26, 0, 26]),
    ):
        r = Rules.preset("partnership", moon="add_to_others", moon_needs=needs)
        d = Deal.at_play(r, spread(top, reserved), (), 3)
        play_out(d, boss_policy(keep, keep_last=parse_card("2H")))
        assert d.pos == [22, 0, 4, 0]
        assert d.shooter == shooter
        assert d.hand_scores() == scores


def test_partnership_single_shooter_does_not_charge_the_partner() -> None:
    """The partner is not an opponent: add_to_others charges the two opponents only."""
    d = moon_hand(Rules.preset("partnership", moon="add_to_others"))
    assert d.hand_scores() == [0, 26, 0, 26]
    d = moon_hand(Rules.preset("partnership", moon="subtract_from_self"))
    assert d.hand_scores() == [-26, 0, 0, 0]


def test_chasse_coeur_moon_is_sixty_four() -> None:
    """§3 Chasse-Cœur: 'the moon as in §1 with 64 in place of 26'."""
    d = moon_hand(Rules.preset("chasse_coeur", moon="add_to_others"))
    assert d.pts[0] == 64
    assert d.hand_scores() == [0, 64, 64, 64]


def test_moon_needs_every_penalty_card_of_black_maria_spades() -> None:
    """Black Maria with the moon on: 43 points (hearts, Q♠, A♠, K♠) all taken."""
    r = Rules.preset("black_maria", players=4, moon="subtract_from_self")
    d = moon_hand(r)
    assert d.pts[0] == 43
    assert d.hand_scores() == [-43, 0, 0, 0]


def test_no_moon_when_one_penalty_card_escapes() -> None:
    """Taking 25 of 26 is not a moon: points stand as taken."""
    top = "AC KC QC JC AD KD QD JD AS KS QS JS 2H"
    reserved = {1: "3H", 2: "AH", 3: "4H"}
    d = Deal.at_play(STANDARD, spread(top, reserved), (), 3)
    play_out(d, boss_policy({parse_card(c) for c in ("3H", "AH", "4H")}, keep_last=parse_card("2H")))
    assert d.phase == "done" and d.shooter is None
    assert d.hand_scores() == [22, 0, 4, 0]


# ---------------------------------------------------------------- card values


def one_trick(rules: Rules, hands: list[str]) -> list[int]:
    """Points of a one-card-each hand played in seat order."""
    d = at_play(rules, hands)
    while d.phase == "play":
        d.apply(Action.play(d.turn, d.hand(d.turn)[0]))
    return d.pts


def test_spot_hearts_values() -> None:
    """§3 spot_hearts: A 14, K 13, Q 12, J 11, others face value."""
    assert one_trick(Rules.preset("spot_hearts"), ["2C", "AH", "KH", "10H"]) == [14 + 13 + 10, 0, 0, 0]
    assert one_trick(Rules.preset("spot_hearts"), ["2C", "QH", "JH", "2H"]) == [12 + 11 + 2, 0, 0, 0]


def test_eagle_hearts_values() -> None:
    """§3 eagle_hearts: A 5, K 4, Q 3, J 2, every other heart 1 (face-value option kept)."""
    assert one_trick(Rules.preset("eagle_hearts"), ["2C", "AH", "KH", "10H"]) == [10, 0, 0, 0]
    assert one_trick(Rules.preset("eagle_hearts"), ["2C", "QH", "JH", "2H"]) == [6, 0, 0, 0]
    face = Rules.preset("eagle_hearts", hearts="eagle_face")
    assert one_trick(face, ["2C", "AH", "KH", "10H"]) == [19, 0, 0, 0]


def test_black_maria_spade_values_three_players() -> None:
    """§3 black_maria: Q♠ 13, A♠ 10, K♠ 7, hearts 1; three players."""
    r = Rules.preset("black_maria")
    assert one_trick(r, ["QS", "AS", "KS"]) == [0, 30, 0]
    assert one_trick(r, ["2C", "KS", "5H"]) == [8, 0, 0]


def test_black_jack_jack_of_spades_ten() -> None:
    """§3 black_jack: J♠ (10) instead of Q♠."""
    assert one_trick(Rules.preset("black_jack"), ["2C", "JS", "QS", "3H"]) == [11, 0, 0, 0]
    assert one_trick(Rules.preset("black_jack", card_points={"JS": 13}), ["2C", "JS", "QS", "3H"]) == [14, 0, 0, 0]


def test_four_jacks_values() -> None:
    """§3 four_jacks: every jack 1, J♠ 2, hearts nothing."""
    assert one_trick(Rules.preset("four_jacks"), ["JC", "JS", "JD", "AH"]) == [4, 0, 0, 0]
    assert one_trick(Rules.preset("four_jacks"), ["2C", "JH", "QS", "KH"]) == [1, 0, 0, 0]


def test_chasse_coeur_queens_thirteen_hearts_one() -> None:
    assert one_trick(Rules.preset("chasse_coeur"), ["2C", "QC", "QH", "5H"]) == [0, 27, 0, 0]


def test_standard_queen_thirteen_hearts_one() -> None:
    assert one_trick(STANDARD, ["2C", "QS", "AH", "5H"]) == [15, 0, 0, 0]


def test_trick_order_of_play_is_clockwise_from_leader() -> None:
    d = at_play(STANDARD, ["3C 4D", "2C 5D", "4C 6D", "5C 7D"])
    play(d, "2C 4C 5C 3C")
    assert d.tricks[0].plays == (
        (1, parse_card("2C")),
        (2, parse_card("4C")),
        (3, parse_card("5C")),
        (0, parse_card("3C")),
    )
    assert d.tricks[0].winner == 3
