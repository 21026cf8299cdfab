"""Whole-game rules: dealer draw and rotation (§1), end of game, ties, quick, fixed hands,
partnership team scores (§3), and 1887 chips settlement (§4).

Scores are produced by crafted hands played through ``Game.apply``: the game's current
deal is replaced by a ``Deal`` with chosen hands, so each hand's points are known.
"""

from __future__ import annotations

import itertools
import random

import pytest

from corazones.core import Action, Deal, Game, Kind, Rules
from corazones.core.cards import parse_card
from corazones.core.game import draw_key
from corazones.core.scoring import settle_chips_1887
from tests.helpers import TOP, boss_policy, spread

#: Seat 0 wins every trick: [26, 0, 0, 0] (hearts only: [13, 0, 0, 0]).
ALL = (TOP, {}, set(), None)
#: Seat 0 takes all but the last trick, which seat 2 wins with four hearts: [22, 0, 4, 0].
MOST = ("AC KC QC JC AD KD QD JD AS KS QS JS 2H", {1: "3H", 2: "AH", 3: "4H"}, {"3H", "AH", "4H"}, "2H")


def play_hand(g: Game, plan: tuple[str, dict[int, str], set[str], str | None], moon: str | None = None) -> None:
    """Replace the game's current deal by the crafted one and play it through ``Game.apply``."""
    top, reserved, keep, last = plan
    g.deal = Deal(g.rules, spread(top, reserved), (), g.dealer, "hold")
    policy = boss_policy({parse_card(c) for c in keep}, None if last is None else parse_card(last))
    index = g.hand_index
    while g.hand_index == index and not g.over:
        s = g.to_act()[0]
        if g.decision_kind() is Kind.MOON:
            assert moon is not None
            g.apply(Action.moon(s, moon))
        else:
            g.apply(Action.play(s, policy(g.deal, s, g.deal.legal_mask(s))))


# ------------------------------------------------------------------ dealer


def test_dealer_is_drawn_lowest_card_deals() -> None:
    """§1 'Dealer: chosen by drawing cards, lowest card deals' (equal ranks: ♣ < ♦ < ♥ < ♠, engine choice)."""
    for seed in range(60):
        g = Game(Rules.preset("standard"), seed=seed)
        assert len(set(g.draw)) == 4
        ranks = [c % 13 for c in g.draw]
        assert g.draw[g.dealer] % 13 == min(ranks)
        assert g.dealer == min(range(4), key=lambda s: draw_key(g.draw[s]))
    assert draw_key(parse_card("2C")) < draw_key(parse_card("2D")) < draw_key(parse_card("2H"))
    assert draw_key(parse_card("2H")) < draw_key(parse_card("2S")) < draw_key(parse_card("3C"))


def test_deal_moves_one_seat_clockwise_each_hand() -> None:
    """§1 'afterwards the deal moves one seat clockwise (to the left) each hand'; eldest is left of dealer."""
    g = Game(Rules.preset("standard", players=5, target=30), seed=8)
    rng = random.Random(8)
    while not g.over:
        d = g.deal
        assert d.eldest == (d.dealer + 1) % 5
        s = g.to_act()[0]
        if g.decision_kind() is Kind.PASS:
            g.apply(Action.pass_cards(s, rng.sample(d.hand(s), 3)))
        else:
            g.apply(rng.choice(g.legal_actions(s)))
    dealers = [h.dealer for h in g.history]
    assert len(dealers) >= 2
    assert all(b == (a + 1) % 5 for a, b in itertools.pairwise(dealers))


# -------------------------------------------------------------- game end


def test_game_ends_after_a_hand_where_a_score_reaches_target_lowest_wins() -> None:
    """§1 'after a hand, if any score ≥ target ... the game ends; lowest score wins'."""
    g = Game(Rules.preset("standard"), seed=1)
    g.scores = [70, 10, 20, 30]
    play_hand(g, MOST)
    assert g.scores == [92, 10, 24, 30] and not g.over, "92 < 100: play continues"
    assert g.dealer == (g.history[-1].dealer + 1) % 4
    play_hand(g, MOST)
    assert g.scores == [114, 10, 28, 30]
    assert g.over and g.winners == (1,)
    assert g.phase == "game_over" and g.to_act() == ()


@pytest.mark.parametrize(("tie_break", "over", "winners"), [("play_on", False, ()), ("shared", True, (1, 2))])
def test_tie_for_lowest_plays_on_or_shares(tie_break: str, over: bool, winners: tuple[int, ...]) -> None:
    """§1 'If two or more share the lowest score, further hands are played until one player alone is
    lowest (tie_break = play_on); alternative shared'."""
    g = Game(Rules.preset("standard", tie_break=tie_break), seed=1)
    g.scores = [80, 10, 6, 40]
    play_hand(g, MOST)
    assert g.scores == [102, 10, 10, 40]
    assert g.over is over and g.winners == winners
    if not over:
        play_hand(g, MOST)
        assert g.scores == [124, 10, 14, 40]
        assert g.over and g.winners == (1,)


def test_target_option() -> None:
    g = Game(Rules.preset("standard", target=20), seed=1)
    play_hand(g, MOST)
    assert g.scores == [22, 0, 4, 0] and not g.over, "seats 1 and 3 tie at 0: play on"
    play_hand(g, ALL, moon="add_to_others")
    assert g.scores == [22, 26, 30, 26] and g.over and g.winners == (0,)


def test_quick_single_hand_decides_ties_play_on() -> None:
    """§1 'quick: a single hand decides the game (lowest points wins; ties play on)'."""
    g = Game(Rules.preset("quick"), seed=2)
    play_hand(g, ALL, moon="add_to_others")
    assert g.over and g.winners == (0,) and len(g.history) == 1
    g = Game(Rules.preset("quick"), seed=2)
    play_hand(g, MOST)
    assert not g.over, "seats 1 and 3 tie for lowest"
    play_hand(g, ALL, moon="subtract_from_self")
    assert g.scores == [-4, 0, 4, 0] and g.over and g.winners == (0,)


def test_fixed_number_of_hands() -> None:
    """§3 arnold_2011: 'the game is a fixed number of hands, or to a target'. The agreed hands end the game
    (docs/rules.md): sides tied for lowest share the win."""
    r = Rules.preset("arnold_2011", hands=3, target=None)
    for seed in range(6):
        g = Game(r, seed=seed)
        rng = random.Random(seed)
        while not g.over:
            g.apply(rng.choice(g.legal_actions(g.to_act()[0])))
        totals = list(g.scores)
        assert len(g.history) == 3
        assert g.winners == tuple(s for s, t in enumerate(totals) if t == min(totals))


def test_agreed_hands_end_the_game_even_on_a_tie() -> None:
    """Issue: arnold_2011, settlement average_stakes, hands=2: totals [13, 13, 0, 0] after two hands end the
    game (a shared low score changes nothing in an average-stakes settlement); quick still plays on."""
    g = Game(Rules.preset("arnold_2011", settlement="average_stakes", hands=2, target=None), seed=1)
    g.scores = [0, 0, 0, 0]
    g.dealer = 3
    play_hand(g, ALL)
    assert not g.over and g.scores == [13, 0, 0, 0]
    g.scores = [0, 13, 0, 0]
    play_hand(g, ALL)
    assert g.scores == [13, 13, 0, 0] and len(g.history) == 2
    assert g.over and g.winners == (2, 3)
    assert g.stakes() == (6.5, 6.5, -6.5, -6.5)
    shared_target = Rules.preset("arnold_2011", hands=2, target=10)
    assert shared_target.tie_plays_on(False) and not shared_target.tie_plays_on(True)
    assert Rules.preset("quick").tie_plays_on(True)
    assert not Rules.preset("standard", tie_break="shared").tie_plays_on(False)


def test_arnold_target_eighty_also_ends_the_game() -> None:
    g = Game(Rules.preset("arnold_2011"), seed=1)
    assert g.rules.target == 80
    g.scores = [60, 50, 40, 30]
    g.dealer = 3
    play_hand(g, ALL)
    assert g.scores == [73, 50, 40, 30] and not g.over
    play_hand(g, ALL)
    assert g.over and g.winners == (3,)


# ---------------------------------------------------------------- partnership


def test_partnership_team_totals_and_target_on_team_scores() -> None:
    """§3 partnership: 'partners' points are added into one team score; the target applies to team scores'."""
    g = Game(Rules.preset("partnership"), seed=1)
    g.scores = [50, 0, 30, 0]
    play_hand(g, MOST)
    assert g.scores == [72, 0, 34, 0]
    assert g.totals() == [106, 0]
    assert g.over and g.winners == (1, 3), "no single score reached 100, the team did"


def test_partnership_six_players_three_teams_of_alternate_seats() -> None:
    r = Rules.preset("partnership", players=6)
    g = Game(r, seed=1)
    g.scores = [1, 2, 3, 4, 5, 6]
    assert g.totals() == [9, 12]


def test_partnership_tie_between_teams_plays_on() -> None:
    g = Game(Rules.preset("partnership"), seed=1)
    g.scores = [100, 20, 0, 80]
    play_hand(g, ALL, moon="subtract_from_self")
    assert g.scores == [74, 20, 0, 80] and g.totals() == [74, 100]
    assert g.over and g.winners == (0, 2)
    g = Game(Rules.preset("partnership"), seed=1)
    g.scores = [70, 48, 0, 0]
    play_hand(g, MOST)
    assert g.totals() == [96, 48] and not g.over
    g.scores = [100, 60, 0, 40]
    play_hand(g, ALL, moon="add_to_others")
    assert g.totals() == [100, 152] and g.over and g.winners == (0, 2)


# ------------------------------------------------------------- 1887 chips


def test_chips_1887_seed_example() -> None:
    """§4: 'A 2, B 2, C 3, D 6 hearts → C pays 3, D pays 6, A and B take 4 each, 1 chip stays in the pool'."""
    out = settle_chips_1887([2, 2, 3, 6], pool=0)
    assert out.delta == (4, 4, -3, -6) and out.pool == 1 and out.winners == (0, 1)


def test_chips_1887_all_thirteen_hearts() -> None:
    """'A player who takes all 13 hearts pays 13 chips, shared equally by the others with the remainder
    to the pool (with four players: 4 each and 1 to the pool).'"""
    out = settle_chips_1887([13, 0, 0, 0], pool=0)
    assert out.delta == (-13, 4, 4, 4) and out.pool == 1
    out = settle_chips_1887([0, 13, 0], pool=0)
    assert out.delta == (6, -13, 6) and out.pool == 1


def test_chips_1887_pool_goes_to_next_winners() -> None:
    """'chips in the pool go to the next hand's winner(s) on top of what they collect'."""
    out = settle_chips_1887([1, 4, 5, 3], pool=1)
    assert out.delta == (13, -4, -5, -3) and out.pool == 0
    out = settle_chips_1887([2, 2, 3, 6], pool=1)
    assert out.delta == (5, 5, -3, -6) and out.pool == 0
    out = settle_chips_1887([3, 3, 3, 4], pool=2)
    assert out.delta == (2, 2, 2, -4) and out.pool == 0
    out = settle_chips_1887([3, 3, 3, 4], pool=0)
    assert out.delta == (1, 1, 1, -4) and out.pool == 1


def test_chips_1887_everyone_equal_nobody_pays() -> None:
    out = settle_chips_1887([3, 3, 3], pool=5)
    assert out.delta == (0, 0, 0) and out.pool == 5


def test_chips_1887_in_game_pool_carried_to_next_hand_and_end_on_no_chips() -> None:
    """In a game: 13 hearts to one player leaves 1 chip in the pool, which the next hand's winners take;
    'A player who runs out of chips ends the game.'"""
    g = Game(Rules.preset("hearts_1887", stake=13), seed=1)
    g.dealer = 3
    play_hand(g, ALL)
    assert g.history[0].points == (13, 0, 0, 0)
    assert g.chips == [0, 17, 17, 17] and g.pool == 1
    assert g.over and g.winners == (1, 2, 3)
    g = Game(Rules.preset("hearts_1887", stake=25), seed=1)
    g.dealer = 3
    play_hand(g, ALL)
    assert g.chips == [12, 29, 29, 29] and g.pool == 1 and not g.over
    g.dealer = 3
    play_hand(g, MOST)
    assert g.history[1].points == (9, 0, 4, 0)
    assert g.chips == [3, 36, 25, 36] and g.pool == 0, "seats 1 and 3 share 13 paid + 1 from the pool"
    assert sum(g.chips) + g.pool == 100


def test_average_stakes_settlement() -> None:
    """§4 average_stakes: 'each player above the average score pays the difference into a common fund and
    each player below draws the difference out'."""
    g = Game(Rules.preset("arnold_2011", settlement="average_stakes", hands=1, target=None), seed=1)
    assert Game(Rules.preset("standard"), seed=1).stakes() is None
    g.dealer = 3
    play_hand(g, MOST)
    assert g.scores == [9, 0, 4, 0]
    stakes = g.stakes()
    assert stakes == (9 - 13 / 4, -13 / 4, 4 - 13 / 4, -13 / 4)
    assert sum(stakes) == 0
