"""Positions from outside: starting a game or one deal from given hands, replaying outside histories.

The central check: a game started from the position a seeded game dealt, with
the same seed and the same decisions, plays exactly like that game (hand
results, observations), for every kind of preset (pass, auction with chips,
kitty, two decks).  Then the checks of bad positions and histories, each with
the one-line reason.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from corazones.core import Action, Game, Kind, Rules, card_str, parse_cards
from corazones.core.errors import IllegalActionError
from corazones.core.position import Position, PositionError, replay, start_deal, start_game
from corazones.players.registry import make_player
from tests.helpers import random_action

PRESETS = [
    ("standard", {}),
    ("kitty", {"players": 5}),
    ("black_maria", {}),
    ("auction_hearts", {}),
    ("partnership", {}),
    ("cancellation_hearts", {"players": 8}),
    ("hearts_1887", {"players": 4}),
]


def dealt_position(game: Game) -> Position:
    """The position of ``game``'s current hand, read from what each seat was dealt (before any action)."""
    d = game.deal
    return Position(
        game.rules,
        tuple(tuple(d.hand(s)) for s in range(game.rules.players)),
        tuple(d.kitty),
        d.dealer,
        d.pass_direction,
        game.hand_index,
        tuple(game.scores),
        tuple(game.chips) if game.rules.settlement in ("chips_1887", "chips_pool") else None,
        game.pool,
        game.carry_declarer,
    )


def play_hand(game: Game, rng: random.Random) -> list[Action]:
    """Random legal actions until the current hand ends; the actions taken."""
    start = game.hand_index
    taken = []
    while not game.over and game.hand_index == start:
        a = random_action(game, rng)
        game.apply(a)
        taken.append(a)
    return taken


@pytest.mark.parametrize(("preset", "kw"), PRESETS)
def test_started_position_plays_like_the_seeded_game(preset: str, kw: dict[str, Any]) -> None:
    rng = random.Random(preset)
    original = Game(Rules.preset(preset, **kw), seed=11)
    play_hand(original, rng)  # one hand first, so the position carries scores, chips and a pool
    if original.over:  # (a chip game can end after one hand)
        original = Game(original.rules, seed=11)
    position = dealt_position(original)
    resumed = start_game(position, seed=11)
    for seat in range(original.rules.players):
        a, b = original.observation(seat), resumed.observation(seat)
        assert (a.hand, a.dealer, a.pass_direction, a.hand_index, a.scores, a.chips, a.pool, a.to_act) == (
            b.hand,
            b.dealer,
            b.pass_direction,
            b.hand_index,
            b.scores,
            b.chips,
            b.pool,
            b.to_act,
        )
    for action in play_hand(original, rng):
        resumed.apply(action)
    assert resumed.history[-1] == original.history[-1]
    assert (resumed.scores, resumed.chips, resumed.pool) == (original.scores, original.chips, original.pool)
    if not original.over:  # the next hand comes from the same seed in both
        assert resumed.deal.hand(0) == original.deal.hand(0)


def test_position_of_card_names_sets_every_field() -> None:
    rules = Rules.preset("standard")
    hands = ["2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC", "2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD AD"]
    hands += ["2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS", "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH"]
    p = Position.of(rules, hands, dealer=2, pass_direction="across", hand_index=5, scores=[10, 20, 30, 40])
    game = start_game(p, seed=3)
    obs = game.observation(1)
    assert [card_str(c) for c in obs.hand] == hands[1].split()
    assert (obs.dealer, obs.pass_direction, obs.hand_index, obs.scores, obs.pass_to) == (
        2,
        "across",
        5,
        (10, 20, 30, 40),
        3,
    )
    assert Position.from_json(p.to_json()) == p
    assert Position.of(rules, hands).direction == "left"  # the rules' direction for hand 0
    assert Position.of(rules, hands, hand_index=3).direction == "hold"


def test_single_deal_ends_with_its_hand_and_a_bot_answers_any_seat() -> None:
    game = Game(Rules.preset("omnibus"), seed=5)
    deal = start_deal(dealt_position(game), seed=5)
    rng = random.Random(1)
    bots = {s: make_player("standard", seed=s) for s in range(4)}
    while not deal.over:
        seat = deal.to_act()[0]
        move = bots[seat].act(deal.observation(seat))
        assert deal.is_legal(move)
        deal.apply(move)
    assert len(deal.history) == 1 and deal.winners
    assert rng  # the bots, not the rng, chose every move


def test_replay_takes_passes_card_by_card_and_keeps_unfinished_picks() -> None:
    game = Game(Rules.preset("standard"), seed=8)
    whole = game.clone()
    rng = random.Random(2)
    passes = []
    for _ in range(4):
        a = random_action(whole, rng)
        assert a.kind is Kind.PASS
        whole.apply(a)
        passes.append(a)
    one_by_one = [{"seat": a.seat, "pass": [card_str(c)]} for a in passes for c in a.cards]
    replayed = replay(game, one_by_one)
    assert replayed.deal.received == whole.deal.received
    assert game.deal.passes == [None] * 4  # the original is untouched
    picks: dict[int, tuple[int, ...]] = {}
    partial = replay(game, one_by_one[:4], picks)
    assert picks == {1: passes[1].cards[:1]} and partial.deal.passes[0] == passes[0].cards
    with pytest.raises(IllegalActionError, match="stops in the middle of seat 1's pass"):
        replay(game, one_by_one[:4])
    finished = replay(partial, one_by_one[4:], picks)  # the picks carry over
    assert finished.deal.received == whole.deal.received and picks == {}


@pytest.mark.parametrize(
    ("actions", "message"),
    [
        ([{"seat": 0, "play": "2C"}], r"action 0 \(seat 0 plays 2C\): play is not possible now"),
        ([{"seat": 0, "pass": ["2C"]}, {"seat": 0, "pass": ["2C"]}], "action 1 .*cannot pass 2C"),
        ([{"seat": 9, "pass": ["2C"]}], "action 0 .*seat 9 does not exist"),
        ([{"seat": 0, "pass": ["3C", "4C"]}, {"seat": 0, "pass": ["5C", "6C"]}], "picks more than the 3 cards"),
        ([{"seat": 0, "bogus": 1}], "action 0: action .*bogus"),
    ],
)
def test_replay_names_the_action_that_does_not_fit(actions: list[dict[str, Any]], message: str) -> None:
    rules = Rules.preset("standard")
    hands = _hands("2 3 4 5 6 7 8 9 10 J Q K A")
    game = start_game(Position.of(rules, hands), seed=1)
    with pytest.raises(IllegalActionError, match=message):
        replay(game, actions)


def _hands(text: str) -> list[str]:
    return [" ".join(f"{r}{s}" for r in text.split()) for s in "CDSH"]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"hands": _hands("2 3 4 5 6 7 8 9 10 J Q K")}, "seat 0 holds 12 cards; standard with 4 players deals 13"),
        ({"hands": _hands("2 3 4 5 6 7 8 9 10 J Q K A")[:3]}, "needs 4 hands, not 3"),
        ({"dealer": 4}, r"dealer = 4 is not a seat; seats are 0 to 3"),
        ({"dealer": True}, "dealer = True is not a seat"),
        ({"pass_direction": "up"}, "pass_direction = 'up' is not allowed; one of: left, right, across, hold"),
        ({"scores": [1, 2]}, "scores must list 4 whole numbers"),
        ({"chips": [5, 5, 5, 5]}, "chips only count with chip settlements"),
        ({"declarer": 1}, "declarer .* needs auction rules"),
        ({"hand_index": -1}, "hand_index = -1 must be a whole number from 0"),
        ({"pool": -3}, "pool = -3 must be a whole number of chips from 0"),
        ({"pool": 5}, r"a pool of chips only exists with chip settlements \(chips_1887, chips_pool\), not points"),
        ({"kitty": ["2C"]}, "the kitty holds 1 cards; these rules leave 0"),
    ],
)
def test_impossible_positions_are_refused_with_the_reason(change: dict[str, Any], message: str) -> None:
    args: dict[str, Any] = {"hands": _hands("2 3 4 5 6 7 8 9 10 J Q K A")} | change
    hands = args.pop("hands")
    kitty = args.pop("kitty", ())
    with pytest.raises(PositionError, match=message):
        Position.of(Rules.preset("standard"), hands, kitty, **args)


def test_a_pool_is_kept_where_chips_are_played() -> None:
    position = Position.of(Rules.preset("hearts_1887"), _hands("2 3 4 5 6 7 8 9 10 J Q K A"), pool=3)
    assert start_game(position, seed=1).observation(0).pool == 3


def test_a_single_deal_late_in_a_long_game_is_refused_as_a_position() -> None:
    position = Position.of(Rules.preset("standard"), _hands("2 3 4 5 6 7 8 9 10 J Q K A"), hand_index=600)
    assert start_game(position, seed=1).observation(0).hand_index == 600  # a whole game may run that long
    with pytest.raises(PositionError, match="a single deal is played at hand_index 0 to 499, not 600"):
        start_deal(position, seed=1)
    assert start_deal(Position.of(position.rules, position.hands, hand_index=499), seed=1).rules.hands == 500


def test_a_field_name_that_is_not_text_is_refused_as_unknown() -> None:
    with pytest.raises(PositionError, match=r"^unknown position field\(s\) 1; fields: rules, hands"):
        Position.from_json({"rules": "standard", "hands": _hands("2 3 4 5 6 7 8 9 10 J Q K A"), 1: 0})


def test_duplicated_and_stripped_cards_are_named() -> None:
    hands = _hands("2 3 4 5 6 7 8 9 10 J Q K A")
    hands[1] = hands[1].replace("AD", "AC")
    with pytest.raises(PositionError, match=r"cards not in this deck .*: AC"):
        Position.of(Rules.preset("standard"), hands)
    maria = Rules.preset("black_maria")  # three players, 2D stripped
    deck = [card_str(c) for c in maria.deck]
    three = [deck[0:17], deck[17:34], [*deck[34:50], "2D"]]
    with pytest.raises(PositionError, match=r"cards not in this deck .*: 2D"):
        Position.of(maria, three)
    assert Position.of(maria, [deck[0:17], deck[17:34], deck[34:51]]).hands[2][-1] == parse_cards("AH")[0]
    with pytest.raises(PositionError, match="hand of seat 1: not a card: 'ZZ'"):
        Position.of(maria, [deck[0:17], ["ZZ"], deck[34:51]])
    with pytest.raises(PositionError, match="a position needs 'hands'"):
        Position.from_json({"rules": "standard"})
    with pytest.raises(PositionError, match="unknown position field"):
        Position.from_json({"rules": "standard", "hands": [], "seats": 4})


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), which=st.sampled_from(PRESETS))
def test_any_dealt_hand_round_trips_through_json_and_plays_to_the_end(seed: int, which: tuple[str, Any]) -> None:
    preset, kw = which
    game = Game(Rules.preset(preset, **kw), seed=seed)
    position = Position.from_json(dealt_position(game).to_json())
    resumed = start_deal(position, seed=seed)
    rng = random.Random(seed)
    while not resumed.over:
        resumed.apply(random_action(resumed, rng))
    result = resumed.history[-1]
    values = resumed.rules.card_values(result.penalty_suit)
    if resumed.rules.settlement == "points" and result.shooter is None:
        assert sum(result.points) == sum(values[c] for c in resumed.rules.deck)
