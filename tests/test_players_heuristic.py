"""The heuristic levels ``beginner`` and ``standard``: always legal, sensible in set situations, stronger.

Positions are written as the tricks played so far plus the cards each seat
still holds; the helper adds the played cards back to rebuild the deal, then
replays the tricks through the validating engine, so every position is a
legal one.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from corazones.core import Action, Deal, Game, Kind, Rules, card_str, parse_card, parse_cards
from corazones.core.observation import Observation
from corazones.core.trick import trick_winner
from corazones.players import beginner, standard
from corazones.players.beginner import BeginnerBot
from corazones.players.heuristics import View, expected_max, losers, positive_taken
from corazones.players.random_bot import RandomBot
from corazones.players.registry import LEVELS, make_player
from corazones.players.standard import Params, StandardBot
from corazones.players.table import play_game

# ------------------------------------------------------------------ helpers


def position(
    preset: str, tricks: Sequence[str], hands: Sequence[str], dealer: int | None = None, **options: object
) -> Game:
    """A game whose current hand has seen ``tricks`` and in which the seats still hold ``hands``.

    A trick is written ``"1:2C 2:3C 3:4C 0:AC"`` (seat:card in play order, a
    trick in progress may be shorter).  The played cards go back to their
    seats to rebuild the deal, which is then replayed through the validating
    engine: a position that breaks a rule fails loudly instead of testing nonsense.
    """
    rules = Rules.preset(preset, **options)
    start = [parse_cards(h) for h in hands]
    plays: list[tuple[int, int]] = []
    for t in tricks:
        for item in t.split():
            seat, card = item.split(":")
            plays.append((int(seat), parse_card(card)))
            start[int(seat)].append(parse_card(card))
    game = Game(rules, seed=0)
    game.deal = Deal.at_play(rules, start, (), rules.players - 1 if dealer is None else dealer)
    for seat, card in plays:
        assert game.deal.turn == seat, f"seat {game.deal.turn} is to play, not {seat} ({card_str(card)})"
        game.apply(Action.play(seat, card))
    return game


def obs_to_play(game: Game) -> Observation:
    seat = game.deal.turn
    obs = game.observation(seat)
    assert obs.decision is Kind.PLAY
    return obs


def c(text: str) -> int:
    return parse_card(text)


def pass_obs(
    preset: str, hands: Sequence[str], direction: str = "left", seat: int = 0, **options: object
) -> Observation:
    """The observation of ``seat`` asked to pass from the dealt ``hands``."""
    rules = Rules.preset(preset, **options)
    game = Game(rules, seed=0)
    game.deal = Deal(rules, [parse_cards(h) for h in hands], (), rules.players - 1, direction)
    obs = game.observation(seat)
    assert obs.decision is Kind.PASS
    return obs


def names(cards: Sequence[int]) -> set[str]:
    return {card_str(x) for x in cards}


# ----------------------------------------------------- legal in every variant

#: (preset, players) pairs covering every preset and the player counts RULES.md allows.
TABLES = [
    *[("standard", n) for n in (3, 4, 5, 6, 7)],
    ("black_lady", 4),
    ("kitty", 4),
    ("kitty", 5),
    ("quick", 4),
    *[("hearts_1887", n) for n in (3, 4, 6)],
    *[("arnold_2011", n) for n in (3, 4, 5, 6)],
    ("spot_hearts", 4),
    ("eagle_hearts", 5),
    ("black_jack", 4),
    ("black_maria", 3),
    ("black_maria", 4),
    ("omnibus", 4),
    ("omnibus", 6),
    ("partnership", 4),
    ("partnership", 6),
    ("auction_hearts", 4),
    ("auction_hearts", 5),
    *[("cancellation_hearts", n) for n in range(5, 12)],
    ("four_jacks", 4),
    ("chasse_coeur", 4),
    ("chasse_coeur", 3),
]


@pytest.mark.parametrize(("preset", "players"), TABLES)
def test_both_levels_play_legally_in_every_variant(preset: str, players: int) -> None:
    """Seats alternate standard, beginner and random; the validating engine refuses any illegal move."""
    rules = Rules.preset(preset, players=players)
    kinds = (StandardBot, BeginnerBot, RandomBot)
    for shift in range(2):
        bots = [kinds[(s + shift) % 3](s) for s in range(players)]
        game = play_game(Game(rules, seed=11 + shift), bots, max_hands=2)
        assert game.history, "at least one hand was completed"
        assert len(game.actions) > rules.hand_size * players


@settings(max_examples=25, deadline=None)
@given(table=st.sampled_from(TABLES), seed=st.integers(0, 10**6), level=st.sampled_from(["standard", "beginner"]))
def test_all_seats_one_level_make_only_legal_decisions(table: tuple[str, int], seed: int, level: str) -> None:
    preset, players = table
    rules = Rules.preset(preset, players=players)
    game = play_game(Game(rules, seed=seed), [make_player(level, seed + s) for s in range(players)], max_hands=1)
    h = game.history[0]
    assert len(h.points) == players


def test_levels_are_registered() -> None:
    assert isinstance(make_player("beginner", 1), BeginnerBot)
    assert isinstance(make_player("standard", 1), StandardBot)
    assert {"random", "beginner", "standard"} <= set(LEVELS)


def test_standard_is_deterministic_given_its_seed() -> None:
    rules = Rules.preset("omnibus", players=5)

    def actions() -> list[str]:
        game = play_game(Game(rules, seed=5), [make_player("standard", s) for s in range(5)], max_hands=2)
        return [str(a) for a in game.actions]

    assert actions() == actions()


# ------------------------------------------------------------- helpers' facts


def test_trick_winner_cancels_identical_cards_with_two_decks() -> None:
    kh, ah, th = c("KH"), c("AH"), c("10H")
    assert trick_winner([th, kh], two_decks=False) == 1
    assert trick_winner([th, kh, kh], two_decks=True) == 0  # the two kings cancel: the ten wins
    assert trick_winner([th, kh, kh, ah], two_decks=True) == 3
    assert trick_winner([th, th, kh, kh], two_decks=True) is None  # two pairs annul the trick
    assert trick_winner([th, th, kh, kh], two_decks=True, cancel_rule="no_winner") is None
    assert trick_winner([th, th, kh, kh, ah], two_decks=True, cancel_rule="no_winner") == 4


def test_expected_max_of_independent_cards() -> None:
    assert expected_max([(13, 1.0), (1, 1.0)]) == 13
    assert expected_max([(13, 0.5), (1, 1.0)]) == pytest.approx(13 * 0.5 + 1 * 0.5)
    assert expected_max([]) == 0


def test_positive_taken_leaves_the_omnibus_bonus_out() -> None:
    game = position(
        "omnibus",
        ["0:2C 1:KC 2:4C 3:5C", "1:5D 2:JD 3:QD 0:2D"],
        ["AD", "4H", "5H", "6H"],
    )
    obs = game.observation(3)
    assert obs.points_taken[3] == -10
    assert positive_taken(obs) == [0, 0, 0, 0]


# ------------------------------------------------------- standard: situations

# A full deal: seat 3 is void in clubs and holds the Q♠.
VOID_QS = [
    "3C 4C 5C 6D 7D 8D 2S 3S 4S 2H 3H 4H",
    "7C 8C 9C 10D JD QD 5S 6S 7S 5H 6H 7H",
    "JC QC KC 2D 3D 8S 9S 10S 8H 9H 10H",
    "5D 9D KD AD QS KS AS JS JH QH KH AH",
]


def test_standard_dumps_the_queen_when_void_in_the_suit_led() -> None:
    game = position("standard", ["0:2C 1:6C 2:AC 3:4D", "2:10C"], VOID_QS)
    obs = obs_to_play(game)
    assert obs.seat == 3
    assert card_str(standard.play(obs)) == "QS"


def test_standard_does_not_lead_the_ace_of_spades_into_an_unseen_queen() -> None:
    game = position(
        "standard",
        ["1:2C 2:6C 3:10C 0:AC"],
        [
            "3C 4C 5C 2D 3D 4D 5D AS 2H 3H 4H 5H",
            "7C 8C 9C 6D 7D 8D 2S 3S 4S 6H 7H 8H",
            "JC QC KC 9D 10D JD 5S 6S 7S 9H 10H JH",
            "QD KD AD QS KS JS 10S 9S 8S QH KH AH",
        ],
    )
    obs = obs_to_play(game)
    assert obs.seat == 0
    assert card_str(standard.play(obs)) != "AS"


DUCK_HANDS = [
    "3C 2D 8D KD 2S 3S 4S 2H 3H 4H 6H 7H",
    "4C 5C 3D 4D 6D 7D 5S 6S 7S 8H 9H",
    "7C 8C 9C 10C 8S 9S 10S JS 10H JH QH",
    "QC KC 10D JD QD AD QS KS AS KH AH",
]


def test_standard_ducks_with_the_highest_card_that_still_loses() -> None:
    game = position("standard", ["0:2C 1:AC 2:6C 3:JC", "1:9D 2:5H 3:5D"], DUCK_HANDS)
    obs = obs_to_play(game)
    assert obs.seat == 0
    assert card_str(standard.play(obs)) == "8D"


def test_standard_wins_a_forced_trick_with_its_highest_card() -> None:
    game = position(
        "standard",
        ["0:2C 1:AC 2:6C 3:JC", "1:3D 2:5H 3:5D"],
        [
            "3C 8D KD 2S 3S 4S 9S 2H 3H 4H 6H 7H",
            "4C 5C 2D 4D 6D 7D 5S 6S 7S 8H 9H",
            "7C 8C 9C 10C 8S 10S JS 10H JH QH AH",
            "QC KC 9D 10D JD QD AD QS KS AS KH",
        ],
    )
    obs = obs_to_play(game)
    assert card_str(standard.play(obs)) == "KD"


def test_standard_captures_the_omnibus_jack_of_diamonds() -> None:
    game = position("omnibus", ["0:2C 1:KC 2:4C 3:5C", "1:5D 2:JD 3:7D"], ["AD 2D", "4H", "5H", "6H"])
    obs = obs_to_play(game)
    assert card_str(standard.play(obs)) == "AD"


def test_standard_does_not_lead_the_omnibus_jack_into_higher_diamonds() -> None:
    """A trick with the J♦ is a gift every opponent holding the A♦ or K♦ takes; leading it loses it."""
    game = position(
        "omnibus",
        ["2:2C 3:10C 0:AC 1:3C"],
        [
            "6C 7C 8C 2D 5D JD QD 3S 7S JS 2H 7H",
            "4C 5C KD 3D 2S 4S 5S 3H 4H 5H 6H 8H",
            "9C JC AD 4D 6D 7D 6S 8S 9S 9H 10H JH",
            "QC KC 8D 9D 10D 10S QS KS AS QH KH AH",
        ],
    )
    obs = obs_to_play(game)
    assert obs.seat == 0
    assert View(obs).p_win(c("JD"), Params().volunteer) < 0.1
    assert card_str(standard.play(obs)) != "JD"


def test_standard_throws_the_black_maria_ace_of_spades_when_void() -> None:
    game = position("black_maria", ["0:2C 1:3C 2:4C", "2:10D 0:9D"], ["8D", "AS 5H", "JD"])
    obs = obs_to_play(game)
    assert obs.seat == 1
    assert card_str(standard.play(obs)) == "AS"


def test_standard_cancels_the_winning_card_with_its_twin() -> None:
    """Two decks: playing the second K♥ cancels the first, so the trick goes to the 10♥."""
    game = position(
        "cancellation_hearts",
        ["0:2C 1:3C 2:4C 3:5C 4:6C", "4:10H 0:KH"],
        ["5D", "KH AH", "JH 6D", "3H 7D", "2H"],
        players=5,
    )
    obs = obs_to_play(game)
    assert obs.seat == 1
    assert card_str(standard.play(obs)) == "KH"


# One opponent (seat 0) has taken every penalty point so far: 16 of 26.
MOON_THREAT_TRICKS = [
    "1:2C 2:6C 3:10C 0:AC",
    "0:AS 1:2S 2:5S 3:QS",
    "0:KS 1:3S 2:6S 3:7S",
    "0:KC 1:3C 2:7C 3:5H",
    "0:QC 1:4C 2:8C 3:6H",
    "0:JC 1:5C 2:9C 3:7H",
    "0:AD 1:2D 2:5D 3:9D",
    "0:KH 1:2H",
]
MOON_THREAT_HANDS = ["KD QD QH JH 10H", "3D 4D 4S 3H 4H", "6D 7D 8D AH 9H 8H", "10D JD 8S 9S 10S JS"]


def test_standard_stops_a_moon_by_taking_a_cheap_heart_trick() -> None:
    game = position("standard", MOON_THREAT_TRICKS, MOON_THREAT_HANDS)
    obs = obs_to_play(game)
    assert obs.seat == 2
    assert standard.moon_threat(View(obs))[0] == 0
    assert card_str(standard.play(obs)) == "AH"
    # without the moon defence the same seat would duck the trick
    assert card_str(standard.play(obs, Params(defend_w=0.0))) != "AH"


# Seat 0 has taken the Q♠ and two hearts, holds the top hearts and the A♦, and plays last.
MOON_SHOT_TRICKS = [
    "1:2C 2:3C 3:4C 0:AC",
    "0:AS 1:2S 2:QS 3:3S",
    "0:KC 1:5C 2:2H 3:6C",
    "0:QC 1:7C 2:3H 3:8C",
    "0:4D 1:KD 2:5D 3:6D",
    "1:7D 2:5H 3:8D",
]
MOON_SHOT_HANDS = [
    "AD 2D AH KH QH JH 10H 9H",
    "9C 10C 3D 9D 10D 8S 9S",
    "4S 5S 6S 7S 4H 6H 7H",
    "JC JD QD 10S JS KS 8H",
]


def test_standard_shoots_the_moon_when_its_hand_takes_everything() -> None:
    game = position("standard", MOON_SHOT_TRICKS, MOON_SHOT_HANDS)
    obs = obs_to_play(game)
    assert obs.seat == 0
    view = View(obs)
    assert losers(view) == (1, 0)  # only the 2♦ can lose, and it carries no penalty
    assert standard.shooting(view, [c("AD"), c("2D")])
    assert card_str(standard.play(obs)) == "AD"  # a trick with a heart in it: take it
    play_game(game, [make_player("standard", s) for s in range(4)], max_hands=1)
    assert game.history[0].shooter == 0


@pytest.mark.parametrize(
    ("scores", "choice"),
    [((0, 0, 0, 0), "subtract_from_self"), ((10, 80, 80, 80), "add_to_others")],
)
def test_standard_moon_choice_follows_the_match(scores: tuple[int, ...], choice: str) -> None:
    """Adding 26 to everyone else is chosen when it ends the game with us ahead."""
    game = position("standard", MOON_SHOT_TRICKS, MOON_SHOT_HANDS)
    game.scores = list(scores)
    play_game(game, [make_player("standard", s) for s in range(4)], max_hands=1)
    assert game.history[0].moon_choice == choice
    if choice == "add_to_others":
        assert game.over and game.winners == (0,)


# ---------------------------------------------------------------- the pass


def test_standard_passes_a_badly_guarded_queen_of_spades() -> None:
    obs = pass_obs(
        "standard",
        [
            "QS 4S 7S AC 10C 6C 2C KD 9D 5D 8H 6H 3H",
            "2S 3S 5S 3C 4C 5C 2D 3D 4D 2H 4H 5H 7H",
            "6S 8S 9S 7C 8C 9C 6D 7D 8D 9H 10H JH QH",
            "10S JS KS AS JC QC KC 10D JD QD AD KH AH",
        ],
    )
    assert "QS" in names(standard.pass_cards(obs))


def test_standard_keeps_a_well_guarded_queen_and_passes_bare_high_spades() -> None:
    hands = [
        "QS 2S 3S 4S 5S AC KC AD KD 9H 6H 3H 2H",
        "6S 7S 8S 3C 4C 5C 2D 3D 4D 4H 5H 7H 8H",
        "9S 10S JS 6C 7C 8C 5D 6D 7D 10H JH QH KH",
        "KS AS 2C 9C 10C JC QC 8D 9D 10D JD QD AH",
    ]
    passed = names(standard.pass_cards(pass_obs("standard", hands)))
    assert "QS" not in passed
    passed3 = names(standard.pass_cards(pass_obs("standard", hands, seat=3)))
    assert {"AS", "KS"} <= passed3  # no Q♠ and no low spades to cover them


def test_standard_empties_a_short_suit() -> None:
    hands = [
        "7C 9C 2D 5D 8D 10D QD 3S 6S 9S 2H 4H 6H",
        "2C 3C 4C 3D 6D 9D JD 2S 4S 7S 10S 3H 5H",
        "5C 6C 8C 10C 4D 7D KD 5S 8S JS QS 7H 8H",
        "JC QC KC AC AD AS KS 9H 10H JH QH KH AH",
    ]
    passed = names(standard.pass_cards(pass_obs("standard", hands)))
    assert {"7C", "9C"} <= passed


def test_standard_keeps_the_omnibus_jack_of_diamonds() -> None:
    hands = [
        "JD QS AS KS AH KH QH AC KC QC AD 2C 3C",
        "2S 3S 4S 5S 4C 5C 6C 2D 3D 4D 2H 3H 4H",
        "6S 7S 8S 9S 7C 8C 9C 5D 6D 7D 5H 6H 7H",
        "10S JS 10C JC KD QD 10D 9D 8D 8H 9H 10H JH",
    ]
    passed = names(standard.pass_cards(pass_obs("omnibus", hands)))
    assert "JD" not in passed
    assert len(passed) == 3


def test_standard_gives_no_penalty_to_its_partner() -> None:
    hands = [
        "QS 4S AC 10C 6C 2C KD 9D 5D AH 8H 6H 3H",
        "2S 3S 5S 3C 4C 5C 2D 3D 4D 2H 4H 5H 7H",
        "6S 8S 9S 7C 8C 9C 6D 7D 8D 9H 10H JH QH",
        "7S 10S JS KS AS JC QC KC 10D JD QD AD KH",
    ]
    obs = pass_obs("partnership", hands, direction="across")
    assert obs.pass_to == 2
    passed = standard.pass_cards(obs)
    assert all(obs.card_values[x] <= 0 for x in passed), names(passed)


# --------------------------------------------------------------- the auction


def test_standard_gives_no_queen_to_a_partner_trick_that_already_stops_the_moon() -> None:
    """Seat 2 alone has points (a moon alarm), but the partner's trick holds three hearts: the moon is stopped anyway.

    Throwing the Q♠ there gives our side 13 points and stops nothing more; kept,
    it may still fall on an opponent's trick.
    """
    tricks = [
        "2:2C 3:KC 0:JC 1:7C",
        "3:JS 0:QC 1:KS 2:AS",
        "2:8S 3:5S 0:JD 1:6S",
        "2:9S 3:10C 0:4C 1:7S",
        "2:AD 3:KD 0:6D 1:10D",
        "2:4S 3:AC 0:5C 1:2S",
        "2:10S 3:JH 0:6C 1:3S",
        "2:2D 3:8D 0:7D 1:QD",
        "1:5D 2:3D 3:9D 0:4D",
        "3:2H 0:4H 1:3H 2:AH",
        "2:5H 3:QH 0:9H",
    ]
    game = position("partnership", tricks, ["6H 10H", "3C 8C QS", "9C 8H", "7H KH"], dealer=1)
    obs = obs_to_play(game)
    assert obs.seat == 1
    assert standard.moon_threat(View(obs))[0] == 2
    assert card_str(standard.play(obs)) != "QS"


def test_standard_feeds_no_queen_to_the_shooters_partner_when_the_moon_needs_the_team() -> None:
    """Seat 1 has won every trick and its side has every point.

    With ``moon_needs = team`` a penalty card on seat 3's trick goes to the shooting side.
    """
    tricks = [
        "0:2C 1:AC 2:3C 3:4C",
        "1:AD 2:2D 3:3D 0:4D",
        "1:KD 2:5D 3:6D 0:7D",
        "1:QD 2:8D 3:9D 0:2H",
        "1:KC 2:5C 3:6C 0:3H",
        "1:10C 2:7C 3:QC",
    ]
    hands = ["QS 2S 3S 4S 4H 5H 6H 7H", "8C 9C JC 10D JD 5S 6S", "7S 8S 9S 8H 9H 10H JH", "10S JS KS AS QH KH AH"]
    team = obs_to_play(position("partnership", tricks, hands, moon_needs="team"))
    assert standard.moon_threat(View(team))[0] == 1
    assert card_str(standard.play(team)) != "QS"
    # when the moon needs one player, seat 3 taking the Q♠ stops seat 1's moon: throw it
    player = obs_to_play(position("partnership", tricks, hands))
    assert card_str(standard.play(player)) == "QS"


def auction_obs(hands: Sequence[str], pool: int = 0, bids: Sequence[int] = ()) -> Observation:
    """The observation of the seat to bid after ``bids`` (seat 0 bids first)."""
    rules = Rules.preset("auction_hearts")
    game = Game(rules, seed=0)
    game.pool = pool
    game.deal = Deal(rules, [parse_cards(h) for h in hands], (), 3, "hold", chips=game.chips)
    for seat, amount in enumerate(bids):
        game.apply(Action.bid(seat, amount))
    return game.observation(game.deal.turn)


AUCTION_HANDS = [
    "2C 3C 4C 5C 6C 7C 2S 3S 4S 5S 6S 7S 8S",
    "8C 9C 10C JC QC KC AC 9S 10S JS QS KS AS",
    "2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD AD",
    "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH",
]


def test_standard_bids_for_a_long_suit_of_low_cards_and_names_it() -> None:
    obs = auction_obs(AUCTION_HANDS)
    assert obs.decision is Kind.BID and obs.seat == 0
    assert standard.bid(obs) == 1  # the lowest raise
    assert standard.declare(obs) == 0  # clubs: six low cards, nothing high


def test_standard_stops_bidding_when_the_price_is_above_the_hand() -> None:
    obs = auction_obs(AUCTION_HANDS, bids=[5])
    assert obs.seat == 1
    assert standard.bid(obs) == 0  # high cards everywhere: naming a suit is not worth six chips
    assert standard.bid(auction_obs(AUCTION_HANDS, bids=[2])) == 0


def test_declare_avoids_the_suit_of_its_high_cards() -> None:
    obs = auction_obs(list(reversed(AUCTION_HANDS)))
    assert obs.hand == tuple(parse_cards(AUCTION_HANDS[3]))
    assert standard.declare(obs) != 3  # all thirteen hearts, the top ones included: never hearts
    assert beginner.declare(auction_obs(AUCTION_HANDS)) == 1  # the beginner names a suit it lacks


# --------------------------------------------------------- beginner's rules


def test_beginner_rules_of_thumb() -> None:
    game = position("standard", ["0:2C 1:6C 2:AC 3:4D", "2:10C"], VOID_QS)
    obs = obs_to_play(game)
    assert card_str(beginner.play(obs)) == "QS"  # void: the costliest penalty card
    game = position("standard", ["0:2C 1:AC 2:6C 3:JC", "1:9D 2:5H 3:5D"], DUCK_HANDS)
    assert card_str(beginner.play(obs_to_play(game))) == "2D"  # follow low
    game = position("standard", ["1:2C 2:6C 3:10C 0:AC"], MOON_LEAD_HANDS)
    assert card_str(beginner.play(obs_to_play(game))) == "2D"  # lead low
    hands = ["QS 4S 7S AC 10C 6C 2C KD 9D 5D 8H 6H AH", *VOID_QS[1:]]
    passed = names(beginner.pass_cards(pass_obs("standard", [h if i else hands[0] for i, h in enumerate(hands)])))
    assert passed == {"QS", "AH", "AC"}


MOON_LEAD_HANDS = [
    "3C 4C 5C 2D 3D 4D 5D AS 2H 3H 4H 5H",
    "7C 8C 9C 6D 7D 8D 2S 3S 4S 6H 7H 8H",
    "JC QC KC 9D 10D JD 5S 6S 7S 9H 10H JH",
    "QD KD AD QS KS JS 10S 9S 8S QH KH AH",
]


# ------------------------------------------------------------------ strength


def _duplicate_mean(level_a: str, level_b: str, games: int, hands: int) -> tuple[float, float]:
    """Mean points per deal of two levels in alternate seats, every deal played with the seats swapped."""
    rules = Rules.preset("standard")
    got: dict[int, list[float]] = {0: [], 1: []}
    for seed in range(games):
        for rotation in (0, 1):
            side = [(s + rotation) % 2 for s in range(4)]
            bots = [make_player(level_a if side[s] == 0 else level_b, seed * 10 + s) for s in range(4)]
            game = play_game(Game(rules, seed=1000 + seed), bots, max_hands=hands)
            for h in game.history:
                for s in range(4):
                    got[side[s]].append(h.scores[s])
    return sum(got[0]) / len(got[0]), sum(got[1]) / len(got[1])


def test_standard_beats_random_by_a_wide_margin() -> None:
    """200 deals (50 games of 4 hands, seats swapped): random takes far more points per deal."""
    mine, theirs = _duplicate_mean("standard", "random", games=25, hands=4)
    assert mine + 4.0 < theirs, (mine, theirs)


def test_beginner_beats_random() -> None:
    mine, theirs = _duplicate_mean("beginner", "random", games=25, hands=4)
    assert mine + 2.0 < theirs, (mine, theirs)
