"""Shooting the moon and stopping it: the ``shooter`` level, and the defence of ``standard`` and ``expert``.

Positions are built with the helpers of the heuristic tests: the tricks so
far and the cards each seat still holds, replayed through the validating
engine.
"""

from __future__ import annotations

import dataclasses

import pytest

from corazones.core import Game, Rules, card_str, parse_cards
from corazones.core.observation import Observation
from corazones.players import shooter, standard
from corazones.players.base import best_moon_choice, legal_cards
from corazones.players.expert import WATCH_WORLDS, ExpertBot
from corazones.players.heuristics import View
from corazones.players.registry import make_player
from corazones.players.shooter import ShooterBot
from corazones.players.standard import Params, StandardBot
from corazones.players.table import play_game

from .test_players_heuristic import TABLES, c, names, obs_to_play, pass_obs, position

# High hearts and spades, and four weak cards: a moon hand once the weak ones are passed, though not a sure one.
MOON_HAND = "AH KH QH JH 10H AS KS QS AD 5D 4D 2C 3C"


def deal_around(first: str) -> list[str]:
    """``first`` for seat 0 and the rest of the pack dealt in order to the other three seats."""
    used = set(parse_cards(first))
    rest = [x for x in range(52) if x not in used]
    return [first, *(" ".join(card_str(x) for x in rest[i * 13 : (i + 1) * 13]) for i in range(3))]


def test_shooter_is_registered() -> None:
    assert isinstance(make_player("shooter", 1), ShooterBot)


def test_shooter_keeps_its_high_hearts_and_spades_and_passes_its_weak_cards() -> None:
    obs = pass_obs("standard", deal_around(MOON_HAND))
    assert names(ShooterBot(0).choose_pass(obs)) == {"2C", "3C", "4D"}
    # the standard player, with no sure moon, passes its most dangerous cards instead
    assert names(standard.pass_cards(obs)) == {"QS", "AH", "AS"}


def test_shooter_passes_like_standard_without_a_moon_hand() -> None:
    obs = pass_obs("standard", deal_around("2H 5H 9H 3S 7S JS 4C 8C QC 2D 6D 10D KD"))
    assert shooter.pass_cards(obs) == standard.pass_cards(obs)


def test_shooter_passes_nothing_special_to_a_partner() -> None:
    obs = pass_obs("partnership", deal_around(MOON_HAND), direction="across")
    assert shooter.pass_cards(obs) == standard.pass_cards(obs)


# Seat 0 has won the first three tricks, nobody has a point, and it holds the top hearts.
CONTROL_TRICKS = ["1:2C 2:3C 3:4C 0:AC", "0:KC 1:5C 2:6C 3:7C", "0:AD 1:2D 2:3D 3:4D"]
CONTROL_HANDS = [
    "AH KH QH JH 10H AS KS QS 5D 9C",
    "2H 3H 4H 5H 2S 3S 8C 10C JC QC",
    "6H 7H 8H 4S 5S 6S 7S KD 6D 7D",
    "9H 8S 9S 10S JS 8D 9D 10D JD QD",
]


def test_shooter_takes_control_and_leads_its_surest_winner() -> None:
    game = position("standard", CONTROL_TRICKS, CONTROL_HANDS)
    obs = obs_to_play(game)
    assert obs.seat == 0
    view = View(obs)
    assert shooter.going_for_it(view)
    assert not standard.shooting(view, legal_cards(obs))  # two losers: too many for the standard player
    card = ShooterBot(0).choose_play(obs)
    assert card in {c(x) for x in ("QS", "KS", "AS")}  # a sure winner (hearts are not broken), not a loser
    assert standard.play(obs) != card


# Then seat 0 led the 9♣, seat 1 won it with the 10♣ and the others threw hearts on it; seat 1 leads spades.
GIVE_UP_TRICKS = [*CONTROL_TRICKS, "0:9C 1:10C 2:8H 3:9H", "1:2S 2:4S 3:8S"]
GIVE_UP_HANDS = [
    "AH KH QH JH 10H AS KS QS 5D",
    "2H 3H 4H 5H 3S 8C JC QC",
    "6H 7H 5S 6S 7S KD 6D 7D",
    "9S 10S JS 8D 9D 10D JD QD",
]


def test_shooter_gives_up_once_another_seat_has_a_point() -> None:
    game = position("standard", GIVE_UP_TRICKS, GIVE_UP_HANDS)
    obs = obs_to_play(game)
    assert obs.seat == 0
    assert not shooter.going_for_it(View(obs))
    assert shooter.play(obs) == standard.play(obs)


@pytest.mark.parametrize(("preset", "players"), TABLES[::3])
def test_shooter_plays_legally_in_every_variant(preset: str, players: int) -> None:
    rules = Rules.preset(preset, players=players)
    bots = [ShooterBot(s) if s % 2 == 0 else make_player("standard", s) for s in range(players)]
    game = play_game(Game(rules, seed=7), bots, max_hands=2)
    assert game.history


def moon_of_seat_0(level: str, defend: bool) -> int | None:
    """Who shoots the moon in deal 52 with ``level`` in seat 0 among standard players (defending or not)."""
    params = Params() if defend else Params(defend_w=0.0)
    bots = [make_player(level, 208) if s == 0 else StandardBot(208 + s, params) for s in range(4)]
    return play_game(Game(Rules.preset("standard"), seed=52), bots, max_hands=1).history[0].shooter


def test_shooter_turns_a_hand_standard_plays_safe_into_a_moon() -> None:
    """Deal 52, against players who do not defend: the shooter shoots the moon, the standard player does not."""
    assert moon_of_seat_0("shooter", defend=False) == 0
    assert moon_of_seat_0("standard", defend=False) is None


def test_standard_players_stop_that_moon() -> None:
    assert moon_of_seat_0("shooter", defend=True) is None


# ---------------------------------------------------------------------------------- defence
# Seat 0 has won every trick and taken 21 points; it has led the 10♥ and seat 1 can take it with its J♥.
# If seat 1 ducks, seat 0 takes the last trick with the Q♥ it may well hold (the other seats have shown
# voids or low hearts), and with it the moon.
LAST_CHANCE_TRICKS = [
    "1:2C 2:5C 3:9C 0:AC",
    "0:KC 1:3C 2:6C 3:10C",
    "0:QC 1:4C 2:7C 3:QS",
    "0:JC 1:2D 2:8C 3:JS",
    "0:AD 1:3D 2:5D 3:9D",
    "0:KD 1:4D 2:6D 3:10D",
    "0:QD 1:2S 2:7D 3:JD",
    "0:AS 1:3S 2:4S 3:8S",
    "0:KS 1:2H 2:5S 3:9S",
    "0:AH 1:3H 2:6H 3:7H",
    "0:KH 1:4H 2:6S 3:8H",
    "0:10H",
]
LAST_CHANCE_HANDS = ["QH", "JH 5H", "8D 7S", "9H 10S"]


def last_chance() -> Observation:
    obs = obs_to_play(position("standard", LAST_CHANCE_TRICKS, LAST_CHANCE_HANDS))
    assert obs.seat == 1
    return obs


def test_standard_spends_its_stopper_when_one_seat_has_every_point() -> None:
    obs = last_chance()
    assert standard.moon_threat(View(obs))[0] == 0
    assert card_str(standard.play(obs)) == "JH"
    assert card_str(standard.play(obs, Params(defend_w=0.0))) == "5H"  # without the defence it ducks


@pytest.mark.parametrize(
    ("tricks", "hands"),
    [(CONTROL_TRICKS, CONTROL_HANDS), (GIVE_UP_TRICKS, GIVE_UP_HANDS), (LAST_CHANCE_TRICKS, LAST_CHANCE_HANDS)],
)
def test_positions_deal_the_whole_pack_once(tricks: list[str], hands: list[str]) -> None:
    cards = [item.split(":")[1] for t in tricks for item in t.split()] + [x for h in hands for x in h.split()]
    assert sorted(parse_cards(" ".join(cards))) == list(range(52))


def test_expert_spends_its_stopper_when_one_seat_has_every_point() -> None:
    obs = last_chance()
    bot = ExpertBot(0, worlds=40, time_limit=None)
    seat, chance = bot._watch(View(obs))
    assert seat == 0 and chance == 1.0  # it has every point but the last trick's: the alarm is total
    assert card_str(bot.choose_play(obs)) == "JH"


def test_a_seat_that_wins_every_trick_is_a_threat_before_it_has_a_point() -> None:
    """Seat 0 has won the first three tricks, nobody has a point yet: the others watch it."""
    game = position("standard", [*CONTROL_TRICKS, "0:QS"], [CONTROL_HANDS[0].replace("QS ", ""), *CONTROL_HANDS[1:]])
    obs = obs_to_play(game)
    assert obs.seat == 1 and not any(obs.points_taken)
    who, worth = standard.moon_threat(View(obs))
    assert who == 0 and 0 < worth < 26
    # two tricks are not enough to call it control
    assert standard.moon_threat(View(obs), Params(control_from=5))[0] is None


def test_expert_watch_names_nobody_when_nobody_threatens() -> None:
    game = position(
        "standard", CONTROL_TRICKS[:2], [h + " " + x for h, x in zip(CONTROL_HANDS, ["AD", "2D", "3D", "4D"])]
    )
    obs = obs_to_play(game)
    assert ExpertBot(0)._watch(View(obs)) == (-1, 0.0)


def test_expert_watches_a_seat_from_its_second_trick_and_more_with_each() -> None:
    """The expert's playouts start modelling a shooter sooner than ``standard``'s own defence does.

    Seat 0 has won the first two tricks and leads the A♦: ``standard`` (control from the third trick)
    names nobody yet, the expert names seat 0 on a quarter of its deals; one trick later, on half.
    """
    two = position(
        "standard",
        [*CONTROL_TRICKS[:2], "0:AD"],
        [CONTROL_HANDS[0], *(h + " " + x for h, x in zip(CONTROL_HANDS[1:], ["2D", "3D", "4D"]))],
    )
    obs = obs_to_play(two)
    assert obs.seat == 1
    assert standard.moon_alarm(View(obs)) == (None, 0.0)
    assert ExpertBot(0)._watch(View(obs)) == (0, 0.25)
    three = position("standard", [*CONTROL_TRICKS, "0:QS"], [CONTROL_HANDS[0].replace("QS ", ""), *CONTROL_HANDS[1:]])
    assert ExpertBot(0)._watch(View(obs_to_play(three))) == (0, 0.5)


def _watched_positions(hands: int) -> list[Observation]:
    """Every play decision of ``hands`` standard hands (no pass) at which the expert's watch names a seat."""
    seen: list[Observation] = []

    class Probe(StandardBot):
        def choose_play(self, obs: Observation) -> int:
            if ExpertBot(0)._watch(View(obs))[0] >= 0:
                seen.append(obs)
            return super().choose_play(obs)

    for seed in range(hands):
        play_game(
            Game(Rules.preset("standard", passes=("hold",)), seed=seed), [Probe(i) for i in range(4)], max_hands=1
        )
    return seen


def test_expert_watches_a_lone_taker_from_its_first_point() -> None:
    """A seat alone with points is watched from its first point, on its share of the points ÷ 0.6 of the deals.

    ``standard``'s own defence waits for 15% of the points; the expert's playouts tilt a few deals at once,
    since a stopper's worth shows only on deals where the seat shoots.
    """
    early = 0
    for obs in _watched_positions(12):
        pos = [max(0, p) for p in obs.points_taken]
        takers = [s for s in range(4) if pos[s] > 0]
        if len(takers) != 1 or takers[0] == obs.seat:
            continue
        who, level = ExpertBot(0)._watch(View(obs))
        share = pos[takers[0]] / 26
        assert who == takers[0] and level >= min(1.0, share / 0.6) - 1e-9
        if share < 0.15 and standard.moon_alarm(View(obs)) == (None, 0.0):
            early += 1  # named before standard's own defence would be
    assert early > 0


def test_the_search_takes_more_deals_while_the_watch_names_a_seat() -> None:
    """Up to ``WATCH_WORLDS`` times the budget where a seat is watched; never more than the budget without it."""
    with_watch, without = [], []
    for obs in _watched_positions(2):
        if len(legal_cards(obs)) < 2:
            continue
        with_watch.append(ExpertBot(0, worlds=40, time_limit=None).search(obs).worlds)
        without.append(ExpertBot(0, worlds=40, time_limit=None, watch=False).search(obs).worlds)
    assert with_watch and max(with_watch) <= 40 * WATCH_WORLDS and max(with_watch) > 40
    assert max(without) <= 40


def moon_obs(preset: str, seat: int, scores: list[int], taken: list[int]) -> Observation:
    """``seat``'s view of a shot moon: the game's scores before the hand and each seat's points in it."""
    obs = Game(Rules.preset(preset), seed=1).observation(seat)
    return dataclasses.replace(obs, scores=tuple(scores), points_taken=tuple(taken))


def test_moon_choice_counts_the_j_diamonds_another_seat_took() -> None:
    # Adding 26 puts seat 2 and 3 past 100; seat 1 took the J♦ (-10) and ends on 76, below our 78.
    obs = moon_obs("omnibus", 0, [78, 60, 70, 80], [26, -10, 0, 0])
    assert best_moon_choice(obs) == "subtract_from_self"


def test_moon_choice_counts_the_j_diamonds_the_shooter_took() -> None:
    # Our J♦ takes us from 99 to 89, below seat 1's 96: adding to the others ends the game as the winner.
    obs = moon_obs("omnibus", 0, [99, 70, 80, 80], [16, 0, 0, 0])
    assert best_moon_choice(obs) == "add_to_others"


def test_moon_choice_plays_for_the_win_when_adding_wins() -> None:
    obs = moon_obs("standard", 2, [90, 80, 50, 95], [0, 0, 26, 0])
    assert best_moon_choice(obs) == "add_to_others"
    assert best_moon_choice(moon_obs("standard", 2, [90, 20, 50, 95], [0, 0, 26, 0])) == "subtract_from_self"
