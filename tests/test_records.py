"""Game records: canonical bytes, replay to the identical game, and verify naming the first discrepancy."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest

from corazones.core import Action, Game, Kind, RecordError, Rules, card_str
from corazones.core.records import dumps, loads, make_record, replay, replay_steps, verify_record
from tests.helpers import play_random, random_action, shooter_policy


def random_game(preset: str, seed: int, hands: int | None = 2, **options: Any) -> Game:
    return play_random(Game(Rules.preset(preset, **options), seed=seed), random.Random(seed), max_hands=hands)


def moon_game(choice: str, preset: str = "quick", **options: Any) -> Game:
    """A game whose first hand is a moon shot by seat 0 (the first seed that gives one)."""
    for seed in range(400):
        game = Game(Rules.preset(preset, **options), seed)
        while game.hand_index == 0:
            game.apply(shooter_policy(game, choice))
        if game.history[0].shooter is not None:
            return game
    raise AssertionError("no moon in 400 seeds")


def text_of(game: Game) -> str:
    return dumps(make_record(game))


PRESETS_TO_RECORD = [
    ("standard", {}),
    ("omnibus", {"players": 5}),
    ("black_maria", {}),
    ("kitty", {}),
    ("auction_hearts", {}),
    ("cancellation_hearts", {}),
    ("hearts_1887", {}),
    ("partnership", {}),
    ("chasse_coeur", {}),
]


@pytest.mark.parametrize(("preset", "options"), PRESETS_TO_RECORD)
def test_record_round_trips_and_replays_to_the_identical_game(preset: str, options: dict[str, Any]) -> None:
    game = random_game(preset, seed=11, hands=3, **options)
    text = text_of(game)
    rec = loads(text)
    assert dumps(rec) == text, "dumps(loads(text)) gives the same bytes"
    again = replay(rec)
    assert text_of(again) == text, "the replayed game writes the same record"
    assert again.scores == game.scores and again.chips == game.chips and again.pool == game.pool
    assert again.history == game.history
    assert verify_record(rec).actions == game.actions


def test_same_seed_and_decisions_give_the_same_bytes() -> None:
    a = random_game("standard", seed=5)
    b = random_game("standard", seed=5)
    assert text_of(a) == text_of(b)
    assert text_of(a) != text_of(random_game("standard", seed=6))


def test_finished_games_verify_with_chips_and_pool() -> None:
    for preset in ("hearts_1887", "auction_hearts"):
        game = random_game(preset, seed=3, hands=None)
        assert game.over
        rec = loads(text_of(game))
        replayed = verify_record(rec)
        assert replayed.over and replayed.winners == game.winners
        assert rec["final"]["chips"] == game.chips and sum(game.chips) + game.pool == 4 * game.rules.stake


def test_record_text_is_one_action_per_line_in_fixed_field_order() -> None:
    game = random_game("quick", seed=2, hands=1)
    text = text_of(game)
    lines = text.splitlines()
    assert lines[1] == '  "format": "corazones-record",' and lines[2] == '  "version": 2,'
    first = lines.index('  "actions": [')
    assert json.loads(lines[first + 1].rstrip(",")) == game.actions[0].to_json()
    shuffled = dict(reversed(list(loads(text).items())))
    assert dumps(shuffled) == text, "field order of the input does not change the bytes"


@pytest.mark.parametrize("choice", ["subtract_from_self", "add_to_others"])
def test_moon_records_verify_and_a_changed_choice_is_caught(choice: str) -> None:
    game = moon_game(choice)
    h = game.history[0]
    assert h.shooter == 0 and h.moon_choice == choice
    assert h.scores == ((-26, 0, 0, 0) if choice == "subtract_from_self" else (0, 26, 26, 26))
    rec = loads(text_of(game))
    verify_record(rec)
    moon_at = next(i for i, a in enumerate(rec["actions"]) if "moon" in a)
    other = "add_to_others" if choice == "subtract_from_self" else "subtract_from_self"
    rec["actions"][moon_at]["moon"] = other
    with pytest.raises(RecordError, match=rf"hand 1 \(ended by action #{moon_at + 1}\): scores: the record says"):
        verify_record(rec)


# ------------------------------------------------------------------ tampering
@pytest.fixture(scope="module")
def record() -> dict[str, Any]:
    return loads(text_of(random_game("standard", seed=21, hands=2)))


def tampered(record: dict[str, Any]) -> dict[str, Any]:
    return copy.deepcopy(record)


def play_index(rec: dict[str, Any], after: int) -> int:
    return next(i for i, a in enumerate(rec["actions"]) if "play" in a and i >= after)


def test_a_card_not_held_is_named_with_its_action_number(record: dict[str, Any]) -> None:
    rec = tampered(record)
    i = play_index(rec, 30)
    seat = rec["actions"][i]["seat"]
    game = Game(Rules.from_dict(rec["rules"]), rec["seed"])
    for a in rec["actions"][:i]:
        game.apply(Action.from_json(a))
    held = {str(c) for c in game.deal.hand(seat)}
    foreign = next(f"{r}{s}" for s in "CDSH" for r in ("2", "5", "9", "K") if f"{r}{s}" not in held)
    rec["actions"][i]["play"] = foreign
    with pytest.raises(
        RecordError, match=rf"^action #{i + 1} \(seat {seat} plays {foreign}\) is illegal: .*does not hold"
    ):
        verify_record(rec)


def test_a_held_card_that_breaks_a_rule_is_named(record: dict[str, Any]) -> None:
    rec = tampered(record)
    game = Game(Rules.from_dict(rec["rules"]), rec["seed"])
    for i, raw in enumerate(rec["actions"]):
        a = Action.from_json(raw)
        seat = a.seat
        if a.kind is Kind.PLAY:
            legal = game.deal.legal_mask(seat)
            illegal = [c for c in game.deal.hand(seat) if not legal >> c & 1]
            if illegal:
                rec["actions"][i]["play"] = card_str(illegal[0])
                with pytest.raises(RecordError, match=rf"^action #{i + 1} .* is illegal: .* may not be played now"):
                    verify_record(rec)
                return
        game.apply(a)
    raise AssertionError("no position with an illegal held card")


def test_a_changed_hand_score_is_named(record: dict[str, Any]) -> None:
    rec = tampered(record)
    rec["hands"][1]["scores"][2] += 1
    with pytest.raises(RecordError, match=r"^hand 2 \(ended by action #\d+\): scores: the record says \["):
        verify_record(rec)


def test_a_changed_final_total_is_named(record: dict[str, Any]) -> None:
    rec = tampered(record)
    rec["final"]["scores"][0] += 5
    with pytest.raises(RecordError, match=r"^final scores: the record says \[.*\], the rules give \["):
        verify_record(rec)


def test_the_first_discrepancy_is_reported(record: dict[str, Any]) -> None:
    rec = tampered(record)
    rec["hands"][0]["points"] = [1, 2, 3, 4]
    last = len(rec["actions"]) - 1
    rec["actions"][last]["play"] = "ZZ"
    with pytest.raises(RecordError, match=r"^hand 1 .*points"):
        verify_record(rec)


def test_truncated_actions_are_caught(record: dict[str, Any]) -> None:
    rec = tampered(record)
    del rec["actions"][-5:]
    with pytest.raises(
        RecordError,
        match=r"lists 2 hand results, but its \d+ actions finish only 1 hand; the game still waits for play",
    ):
        verify_record(rec)
    rec["hands"].pop()
    with pytest.raises(RecordError, match=r"^final scores"):
        verify_record(rec)


def test_truncated_game_claiming_to_be_over_is_caught() -> None:
    game = random_game("quick", seed=4, hands=None)
    rec = loads(text_of(game))
    del rec["actions"][-3:]
    rec["hands"] = []
    with pytest.raises(RecordError, match=r"final over: the record says the game is over, but it is not after its"):
        verify_record(rec)


def test_extra_actions_after_the_end_are_illegal() -> None:
    game = random_game("quick", seed=4, hands=None)
    rec = loads(text_of(game))
    rec["actions"].append({"seat": 0, "play": "2C"})
    n = len(rec["actions"])
    with pytest.raises(RecordError, match=rf"^action #{n} .* is illegal: the game is over"):
        verify_record(rec)


def test_truncated_text_is_not_json(record: dict[str, Any]) -> None:
    text = dumps(record)
    with pytest.raises(RecordError, match=r"^not JSON: .* at line \d+ column \d+"):
        loads(text[: len(text) // 2])


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda r: r.update(colour="red"), r"unknown record field\(s\) colour; fields: format, version"),
        (lambda r: r.pop("seed"), r"record has no seed"),
        (lambda r: r.pop("hands"), r"record has no hands"),
        (lambda r: r.update(version=3), r"record version 3 is not supported; this program reads versions 1, 2"),
        (lambda r: r.update(version=True), r"record version True is not supported"),
        (lambda r: r.update(version=1), r"'commitment' came with version 2"),
        (lambda r: r.update(commitment="00"), r"'commitment' must be 64 lowercase hexadecimal digits"),
        (lambda r: r.update(format="other"), r"not a Corazones game record"),
        (lambda r: r.update(seed=True), r"record 'seed': a seed must be a whole number or a string, not True"),
        (lambda r: r.update(seed=[1]), r"record 'seed': a seed must be a whole number or a string"),
        (lambda r: r.update(seed="x\x1b[2J"), r"record 'seed': the seed 'x\\x1b\[2J' holds a control character"),
        (lambda r: r.update(players=["a", "b", "c", "d" * 101]), r"players\[3\] has 101 characters; a name has"),
        (lambda r: r.update(players=["a", "b", "\x1b]0;pwned\x07", "d"]), r"players\[2\] .* holds a control character"),
        (lambda r: r["rules"].update(moon="sometimes"), r"record rules: moon = 'sometimes' is not allowed"),
        (lambda r: r["rules"].update(jokers=2), r"record rules: unknown option\(s\) jokers"),
        (lambda r: r["rules"].update(passes=5), r"record rules: passes must be a list"),
        (lambda r: r.update(players=["a", "b"]), r"'players' must list 4 seat names"),
        (lambda r: r.update(actions={}), r"'actions' must be a list"),
        (lambda r: r.update(final=[]), r"'final' must be an object"),
        (lambda r: r["final"].pop("pool"), r"final: missing field\(s\) pool"),
        (lambda r: r["final"].update(bonus=1), r"final: unknown field\(s\) bonus"),
    ],
)
def test_malformed_records_name_the_problem(record: dict[str, Any], change: Any, message: str) -> None:
    rec = tampered(record)
    change(rec)
    with pytest.raises(RecordError, match=message):
        loads(json.dumps(rec))


@pytest.mark.parametrize(
    ("action", "message"),
    [
        ({"seat": 0, "play": 5}, r"'play' must be a card written as a string"),
        ({"seat": 0, "play": True}, r"'play' must be a card written as a string"),
        ({"seat": 0, "play": "1X"}, r"not a card: '1X'"),
        ({"seat": 0, "pass": "QS"}, r"'pass' must be a list of cards"),
        ({"seat": 0, "pass": ["QS", 3, "2C"]}, r"'pass' must be a list of cards"),
        ({"seat": 0}, r"must have exactly one of play, pass, bid, declare, moon"),
        ({"play": "2C"}, r"has no 'seat'; a seat is a whole number 0 to 10"),
        ({"seat": 0, "play": "2C", "pass": ["2C"]}, r"exactly one of"),
        ({"seat": 0, "play": "2C", "note": "x"}, r"unknown key\(s\) note"),
        ({"seat": "0", "play": "2C"}, r"a seat is a whole number 0 to 10, not '0'"),
        ({"seat": 0, "bid": -1}, r"'bid' must be a whole number of chips from 0 \(no bid\) to 11,000, not -1"),
        # a seat the table lacks is the record's data, named by its index
        ({"seat": 9, "pass": ["2C", "3C", "4C"]}, r": a seat is a whole number 0 to 3, not 9"),
        ({"seat": 4, "pass": ["2C", "3C", "4C"]}, r": a seat is a whole number 0 to 3, not 4"),
        ({"seat": 0, "bid": 3}, r"is illegal: bid is not possible now: the game waits for pass"),
        ({"seat": 0, "moon": "maybe"}, r"moon choice 'maybe' is not one of"),
        ({"seat": 0, "declare": 2}, r"'declare' must be a suit letter"),
        ("2C", r"an action is an object"),
    ],
)
def test_malformed_actions_are_named(record: dict[str, Any], action: Any, message: str) -> None:
    rec = tampered(record)
    rec["actions"][0] = action
    with pytest.raises(RecordError, match=r"^action #1\b.*" + message):
        verify_record(rec)


def test_json_types_are_compared_strictly(record: dict[str, Any]) -> None:
    rec = tampered(record)
    rec["final"]["over"] = 0
    with pytest.raises(RecordError, match=r"final over: the record says 0, the rules give false"):
        verify_record(rec)


def test_hand_result_fields_are_all_checked(record: dict[str, Any]) -> None:
    rec = tampered(record)
    rec["hands"][0].pop("totals")
    with pytest.raises(RecordError, match=r"^hand 1 .*missing field\(s\) totals"):
        verify_record(rec)
    rec = tampered(record)
    rec["hands"][0]["luck"] = 1
    with pytest.raises(RecordError, match=r"^hand 1 .*unknown field\(s\) luck"):
        verify_record(rec)


def test_unfinished_record_replays_to_the_same_position() -> None:
    game = Game(Rules.preset("standard"), seed=8)
    rng = random.Random(8)
    for _ in range(70):
        game.apply(random_action(game, rng))
    rec = loads(text_of(game))
    assert rec["final"]["over"] is False
    again = verify_record(rec)
    assert again.to_act() == game.to_act() and again.deal.hand(0) == game.deal.hand(0)
    assert [s.index for s in replay_steps(rec)] == list(range(70))


def test_make_record_checks_player_names() -> None:
    game = Game(Rules.preset("standard"), seed=1)
    with pytest.raises(RecordError, match="players must name each of the 4 seats"):
        make_record(game, ["a", "b"])
    assert make_record(game, ["N", "E", "S", "W"])["players"] == ["N", "E", "S", "W"]
