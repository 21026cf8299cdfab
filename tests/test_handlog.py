"""Hand logs: lines built from real engine games pass; every kind of corruption fails with a precise verdict."""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable
from typing import Any

import pytest

from corazones.core import Action, Deal, Rules, parse_card
from corazones.core.handlog import ILLEGAL, MALFORMED, MISMATCH, OK, Verdict, check_entry, check_line
from tests.helpers import hand_entries, shooter_policy


def verdict(entry: Any) -> Verdict:
    return check_line(json.dumps(entry))


def refused(entry: dict[str, Any], corrupt: Callable[[dict[str, Any]], Any], status: str, message: str) -> Verdict:
    """The verdict on a corrupted copy of the good line ``entry``: a failure of ``status`` naming ``message``."""
    e = copy.deepcopy(entry)
    assert verdict(e).ok
    corrupt(e)
    v = verdict(e)
    assert not v.ok and v.status == status, v
    assert message in v.message, v.message
    return v


GAMES = [
    ("standard", {}),
    ("omnibus", {}),
    ("black_maria", {}),
    ("kitty", {}),
    ("standard", {"players": 5}),
    ("omnibus", {"players": 3, "queen_breaks_hearts": True}),
    ("hearts_1887", {}),
    ("cancellation_hearts", {}),
    ("chasse_coeur", {}),
    ("spot_hearts", {"players": 6, "strip": "arnold_2011"}),
    ("auction_hearts", {}),
]


@pytest.mark.parametrize(("preset", "options"), GAMES)
def test_lines_from_real_games_pass(preset: str, options: dict[str, Any]) -> None:
    for seed in (1, 2):
        for entry in hand_entries(preset, options, seed, hands=4):
            v = verdict(entry)
            assert v.ok and v.status == OK, v.message
            assert v.points == tuple(entry["expect"]["points"])
            assert v.message.startswith(f"ok, points {entry['expect']['points']}")


@pytest.fixture(scope="module")
def std() -> list[dict[str, Any]]:
    """Four standard hands: passes left, right, across, then hold."""
    return hand_entries("standard", {}, seed=3, hands=4)


def test_dealer_may_be_left_out(std: list[dict[str, Any]]) -> None:
    for entry in std:
        e = copy.deepcopy(entry)
        del e["dealer"]
        assert verdict(e).ok
    old = hand_entries("hearts_1887", {}, seed=4, hands=3)
    for entry in old:  # eldest hand leads: the dealer is read from who led
        e = copy.deepcopy(entry)
        del e["dealer"]
        assert verdict(e).ok


def test_optional_fields_may_be_absent(std: list[dict[str, Any]]) -> None:
    e = copy.deepcopy(std[3])
    assert e["pass_direction"] == "hold"
    for key in ("dealer", "passes", "moon_choice", "expect", "options"):
        e.pop(key, None)
    assert verdict(e).ok
    old = hand_entries("hearts_1887", {}, seed=4, hands=1)[0]
    del old["pass_direction"]  # rules without passing need no direction
    assert verdict(old).ok


def test_the_example_line_of_the_format() -> None:
    """The documented example: options override the preset, moon = add_to_others, points after the moon rule."""
    game_options = {"queen_breaks_hearts": True, "moon": "add_to_others"}
    e = next(
        entry
        for entry in hand_entries("standard", game_options, seed=9, hands=1, policy=shooter_policy)
        if entry["expect"]["shooter"] is not None
    )
    assert e["moon_choice"] is None and e["expect"]["points"] == [0, 26, 26, 26]
    assert verdict(e).ok
    e["expect"] = {"points": [26, 0, 0, 0]}
    v = verdict(e)
    assert v.status == MISMATCH
    assert "points: the log says [26, 0, 0, 0], the rules give [0, 26, 26, 26]" in v.message
    assert "expect.points is the hand score after the moon rule" in v.message


def moon_entry(preset: str = "standard", **options: Any) -> dict[str, Any]:
    for seed in range(400):
        e = hand_entries(preset, options, seed, hands=1, policy=shooter_policy)[0]
        if e["expect"]["taken"] == [26, 0, 0, 0]:  # seat 0 took every penalty card
            return e
    raise AssertionError("no moon in 400 seeds")


@pytest.mark.parametrize(
    ("choice", "points"), [("subtract_from_self", [-26, 0, 0, 0]), ("add_to_others", [0, 26, 26, 26])]
)
def test_moon_with_either_choice(choice: str, points: list[int]) -> None:
    e = moon_entry()
    e["moon_choice"] = choice
    e["expect"] = {"points": points, "taken": [26, 0, 0, 0], "shooter": 0}
    v = verdict(e)
    assert v.ok, v.message
    assert v.message == f"ok, points {points}; seat 0 shot the moon ({choice})"
    e["moon_choice"] = None
    v = verdict(e)
    assert v.status == MALFORMED
    assert "seat 0 shot the moon and these rules let the shooter choose: moon_choice is needed" in v.message


@pytest.mark.parametrize(
    ("fixed", "points"), [("add_to_others", [0, 26, 26, 26]), ("subtract_from_self", [-26, 0, 0, 0])]
)
def test_moon_fixed_by_an_option(fixed: str, points: list[int]) -> None:
    e = moon_entry(moon=fixed)
    assert e["moon_choice"] is None and e["expect"]["points"] == points
    assert verdict(e).ok
    e["moon_choice"] = fixed  # stating the fixed outcome is fine
    assert verdict(e).ok
    other = "add_to_others" if fixed == "subtract_from_self" else "subtract_from_self"
    e["moon_choice"] = other
    v = verdict(e)
    assert v.status == ILLEGAL and f"moon_choice {other}, but these rules fix moon = {fixed}" in v.message


def test_moon_off_scores_raw_points() -> None:
    e = moon_entry(moon="off")
    assert e["expect"]["shooter"] is None and e["expect"]["points"] == [26, 0, 0, 0]
    assert verdict(e).ok


def test_moon_choice_without_a_moon(std: list[dict[str, Any]]) -> None:
    e = copy.deepcopy(std[0])
    assert e["expect"]["shooter"] is None
    e["moon_choice"] = "add_to_others"
    v = verdict(e)
    assert v.status == MISMATCH and "moon_choice add_to_others is given, but nobody shot the moon" in v.message


def seats_of_plays(entry: dict[str, Any]) -> list[int]:
    """Who played each card, by replaying the entry with the engine."""
    rules = Rules.preset(entry["rules"], **entry.get("options", {}))
    hands = [[parse_card(c) for c in h] for h in entry["hands"]]
    deck = list(rules.deck)
    for h in hands:
        for c in h:
            deck.remove(c)
    d = Deal(rules, hands, deck, entry["dealer"], entry["pass_direction"])
    for s, p in enumerate(entry.get("passes") or []):
        if p:
            d.apply(Action.pass_cards(s, p))
    seats = []
    for c in entry["plays"]:
        seats.append(d.turn)
        d.apply(Action.play(d.turn, c))
    return seats


def test_a_revoke_is_named_with_its_play_number(std: list[dict[str, Any]]) -> None:
    e = copy.deepcopy(std[1])
    seats = seats_of_plays(e)
    plays = e["plays"]
    n = 4
    # a play that follows suit, and a later card of the same seat in another suit
    for i, c in enumerate(plays):
        if i % n == 0 or i < n:
            continue
        led = plays[i - i % n][-1]
        if c[-1] != led:
            continue
        later = [j for j in range(i + 1, len(plays)) if seats[j] == seats[i] and plays[j][-1] != led]
        if later:
            j = later[0]
            plays[i], plays[j] = plays[j], plays[i]
            v = verdict(e)
            assert v.status == ILLEGAL
            trick = i // n + 1
            assert v.message.startswith(f"play #{i + 1} (trick {trick}, seat {seats[i]} plays {plays[i]}): ")
            assert f"must follow {led}" in v.message
            return
    raise AssertionError("no revoke to make")


@pytest.mark.parametrize(
    ("corrupt", "status", "message"),
    [
        (lambda e: e.update(colour="red"), MALFORMED, "unknown field(s) colour; fields: rules, options"),
        (lambda e: e.pop("rules"), MALFORMED, "'rules' is missing; give a preset name: standard"),
        (lambda e: e.update(rules="bridge"), MALFORMED, 'rules "bridge" is not a preset; presets: standard'),
        (lambda e: e.update(options=[1]), MALFORMED, "'options' must be an object of option: value"),
        (lambda e: e.update(options={"jokers": 2}), MALFORMED, "options: unknown option(s) jokers; options:"),
        (
            lambda e: e.update(options={"moon": "sometimes"}),
            MALFORMED,
            "options: moon = 'sometimes' is not allowed; moon is one of: choice",
        ),
        (lambda e: e.update(options={"players": 2}), MALFORMED, "options: players = 2 is not possible"),
        (
            lambda e: e.update(bids=[0, 0, 0, 0]),
            MALFORMED,
            "'bids', 'declarer' and 'declare' belong to rules with an auction",
        ),
        (lambda e: e.update(dealer=4), MALFORMED, "dealer must be a seat 0 to 3 (or null), not 4"),
        (lambda e: e.update(dealer="0"), MALFORMED, 'dealer must be a seat 0 to 3 (or null), not "0"'),
        (lambda e: e["hands"].pop(), MALFORMED, "'hands' must list 4 hands as dealt (one per seat, 13 cards each)"),
        (lambda e: e.update(hands="all"), MALFORMED, "'hands' must list 4 hands as dealt"),
        (lambda e: e["hands"][2].pop(), MALFORMED, "hands[2] has 12 cards; these rules deal 13 to each of 4 players"),
        (lambda e: e["hands"][1].__setitem__(4, "1X"), MALFORMED, "hands[1][4]: not a card: '1X'; write rank"),
        (lambda e: e["hands"][1].__setitem__(4, 7), MALFORMED, "hands[1][4]: a card must be a string like 'QS'"),
        (lambda e: e.pop("pass_direction"), MALFORMED, "'pass_direction' is missing; these rules pass left / right"),
        (lambda e: e.update(pass_direction="up"), MALFORMED, 'pass_direction "up" is not one of left, right, across'),
        (lambda e: e.pop("passes"), MALFORMED, "'passes' must list the 3 cards each of the 4 seats gives"),
        (lambda e: e["passes"][3].pop(), MALFORMED, "passes[3] has 2 cards; these rules pass 3"),
        (lambda e: e["passes"].pop(), MALFORMED, "'passes' must list the 3 cards each of the 4 seats gives"),
        (lambda e: e.update(plays=e["plays"][:-1]), MALFORMED, "'plays' has 51 cards; a hand is 13 tricks of 4"),
        (lambda e: e.update(plays=[*e["plays"], "2C"]), MALFORMED, "'plays' has 53 cards"),
        (lambda e: e.pop("plays"), MALFORMED, "'plays' is missing: list every card played"),
        (lambda e: e["plays"].__setitem__(7, "QX"), MALFORMED, "plays[7]: not a card: 'QX'"),
        (lambda e: e.update(moon_choice="maybe"), MALFORMED, 'moon_choice "maybe" is not one of subtract_from_self'),
        (lambda e: e.update(expect=[0, 0]), MALFORMED, "'expect' must be an object such as"),
        (lambda e: e["expect"].update(luck=1), MALFORMED, "expect: unknown field(s) luck; fields: points, taken"),
        (lambda e: e["expect"].update(points=[0, 0]), MALFORMED, "expect.points must list 4 whole numbers"),
        (lambda e: e["expect"].update(taken=[0, 0, 0, "1"]), MALFORMED, "expect.taken must list 4 whole numbers"),
        (lambda e: e["expect"].update(shooter=5), MALFORMED, "expect.shooter must be a seat 0 to 3 (or null)"),
        (lambda e: e["expect"].update(shooter=1), MISMATCH, "shooter: the log says 1, the rules give null"),
        (lambda e: e["expect"].update(kitty_owner=2), MISMATCH, "kitty_owner: the log says 2, the rules give null"),
    ],
)
def test_corruptions_give_precise_verdicts(
    std: list[dict[str, Any]], corrupt: Callable[[dict[str, Any]], Any], status: str, message: str
) -> None:
    assert std[0]["pass_direction"] == "left"
    v = refused(std[0], corrupt, status, message)
    assert str(v) == f"FAIL {status}: {v.message}"


def test_changed_points_and_taken_are_mismatches(std: list[dict[str, Any]]) -> None:
    e = copy.deepcopy(std[0])
    right = e["expect"]["points"]
    e["expect"]["points"] = [*right[:3], right[3] + 1]
    v = verdict(e)
    assert v.status == MISMATCH and v.message == f"points: the log says {e['expect']['points']}, the rules give {right}"
    assert v.points == tuple(right)
    e = copy.deepcopy(std[0])
    e["expect"]["taken"] = [0, 0, 0, 0]
    assert verdict(e).message.startswith("taken: the log says [0, 0, 0, 0], the rules give [")


def test_card_dealt_twice_and_card_not_in_the_deck(std: list[dict[str, Any]]) -> None:
    e = copy.deepcopy(std[0])
    dup = e["hands"][0][0]
    e["hands"][2][5] = dup
    v = verdict(e)
    assert v.status == MALFORMED and v.message == f"hands: {dup} is dealt 2 times (seats 0, 2); the deck holds it once"
    five = hand_entries("standard", {"players": 5}, seed=1, hands=1)[0]
    five["hands"][1][0] = "2D"
    v = verdict(five)
    assert v.status == MALFORMED and v.message == "hands: 2D is not in the deck; these rules remove 2C 2D"


def test_illegal_passes_and_leads(std: list[dict[str, Any]]) -> None:
    e = copy.deepcopy(std[0])
    mine = set(e["hands"][1])
    foreign = next(c for c in e["hands"][0] if c not in mine)
    e["passes"][1][0] = foreign
    v = verdict(e)
    assert v.status == ILLEGAL and v.message.startswith(f"pass of seat 1: seat 1 cannot pass {foreign}: not in hand")
    e = copy.deepcopy(std[0])
    seats = seats_of_plays(e)
    j = seats.index(seats[0], 1)  # the leader's next card, led in place of 2C
    e["plays"][0], e["plays"][j] = e["plays"][j], e["plays"][0]
    v = verdict(e)
    assert v.status == ILLEGAL and v.message.startswith(f"play #1 (trick 1, seat {seats[0]} plays {e['plays'][0]}): ")
    assert "the first trick must be led with 2C" in v.message


def test_direction_must_be_one_the_rules_use(std: list[dict[str, Any]]) -> None:
    maria = hand_entries("black_maria", {}, seed=1, hands=1)[0]
    assert maria["pass_direction"] == "right"
    maria["pass_direction"] = "left"
    v = verdict(maria)
    assert v.status == ILLEGAL and v.message == "pass_direction left is not used by these rules; they pass right"
    old = hand_entries("hearts_1887", {}, seed=1, hands=1)[0]
    old["pass_direction"] = "left"
    v = verdict(old)
    assert v.status == ILLEGAL and v.message == "pass_direction left, but these rules pass no cards (use hold)"
    e = copy.deepcopy(std[3])
    e["passes"] = [["2C", "3C", "4C"]] * 4
    v = verdict(e)
    assert v.status == MALFORMED and "'passes' lists cards, but pass_direction is hold" in v.message


def test_wrong_dealer_under_eldest_lead_is_an_illegal_lead() -> None:
    e = hand_entries("hearts_1887", {}, seed=2, hands=1)[0]
    e["dealer"] = (e["dealer"] + 1) % 4
    v = verdict(e)
    assert v.status == ILLEGAL and v.message.startswith("play #1 (trick 1, seat ")
    seat = (e["dealer"] + 1) % 4
    assert (
        v.message == f"play #1 (trick 1, seat {seat} plays {e['plays'][0]}): seat {seat} does not hold {e['plays'][0]}"
    )


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("{not json", "not JSON: "),
        ("[1, 2]", "each line must be a JSON object with fields rules, options"),
        ('"standard"', "each line must be a JSON object"),
        ("null", "each line must be a JSON object"),
        ("[" * 100000, "a hand-log line is 100,000 bytes; at most 65,536 are read"),
        ("[" * 10000, "nested too deeply"),
    ],
)
def test_lines_that_are_not_hand_logs(line: str, message: str) -> None:
    v = check_line(line)
    assert not v.ok and v.status == MALFORMED and message in v.message


def test_check_entry_never_raises_on_odd_python_values() -> None:
    for value in ({"rules": "standard", "hands": {1, 2}}, object(), {"rules": "standard", "options": {"target": 1.5}}):
        assert not check_entry(value).ok


def test_many_random_corruptions_never_crash(std: list[dict[str, Any]]) -> None:
    """Replace any one value of a valid line by junk: the verdict says no (or yes), never an exception."""
    rng = random.Random(0)
    junk: list[Any] = [None, 0, -1, 99, "x", "QS", [], ["QS"], {}, True, 1.5, [[1]]]
    base = std[0]
    paths: list[tuple[Any, ...]] = []

    def walk(obj: Any, path: tuple[Any, ...]) -> None:
        paths.append(path)
        if isinstance(obj, dict):
            for k, v in obj.items():
                walk(v, (*path, k))
        elif isinstance(obj, list):
            for i, v in enumerate(obj):
                walk(v, (*path, i))

    walk(base, ())
    for path in rng.sample(paths[1:], 120):
        e = copy.deepcopy(base)
        target = e
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = rng.choice(junk)
        v = verdict(e)
        assert v.status in (OK, MALFORMED, ILLEGAL, MISMATCH)
        assert not v.message.startswith("could not check"), (path, v.message)


@pytest.fixture(scope="module")
def auction() -> dict[str, Any]:
    """An Auction Hearts hand in which somebody bid and named a suit."""
    for seed in range(40):
        for e in hand_entries("auction_hearts", {}, seed=seed, hands=3):
            if "declare" in e:
                return e
    raise AssertionError("no auction hand with a declarer in 40 games")


@pytest.mark.parametrize(
    ("corrupt", "status", "message"),
    [
        (lambda e: e.pop("bids"), MALFORMED, "'bids' must list 4 whole numbers of chips, one per seat"),
        (lambda e: e.update(bids=[0, 0, "1", 0]), MALFORMED, "'bids' must list 4 whole numbers"),
        (lambda e: e.pop("declare"), MALFORMED, "'declare' must name the penalty suit (C, D, S, H)"),
        (lambda e: e.update(declare="X"), MALFORMED, 'declare "X" is not a suit; use one of C, D, S, H'),
        (lambda e: e.update(dealer=None), MALFORMED, "'dealer' is needed with an auction"),
        (lambda e: e.update(bids=[0, 0, 0, 0]), ILLEGAL, "is given, but nobody bid: hearts stays the penalty suit"),
        (lambda e: e.update(bids=[3, 2, 0, 0]), ILLEGAL, "bid #2 (seat"),
        (lambda e: e.update(bids=[10**15, 0, 0, 0]), ILLEGAL, "is not allowed; allowed: 0 (no bid) or 1 to 100"),
    ],
)
def test_auction_corruptions(
    auction: dict[str, Any], corrupt: Callable[[dict[str, Any]], Any], status: str, message: str
) -> None:
    refused(auction, corrupt, status, message)


@pytest.fixture(scope="module")
def carried() -> dict[str, Any]:
    """An Auction Hearts hand after a carried-over pool: the last declarer names the suit without bidding."""
    for seed in range(60):
        for e in hand_entries("auction_hearts", {}, seed=seed, hands=4):
            if "declarer" in e:
                return e
    raise AssertionError("no carried-over pool in 60 games")


def test_a_carried_over_pool_hand_is_checked(carried: dict[str, Any]) -> None:
    v = verdict(carried)
    assert v.ok, v.message
    assert v.points == tuple(carried["expect"]["points"])


@pytest.mark.parametrize(
    ("corrupt", "status", "message"),
    [
        (lambda e: e.update(bids=[0, 0, 0, 0]), MALFORMED, "give either 'bids'"),
        (lambda e: e.pop("declare"), MALFORMED, "names the suit after a carried-over pool: 'declare' must name it"),
        (lambda e: e.update(declarer=7), MALFORMED, "declarer must be a seat 0 to 3"),
        (lambda e: e.update(declarer=(e["declarer"] + 1) % 4), ILLEGAL, "play #1"),
    ],
)
def test_carried_over_pool_corruptions(
    carried: dict[str, Any], corrupt: Callable[[dict[str, Any]], Any], status: str, message: str
) -> None:
    refused(carried, corrupt, status, message)


def test_auction_names_the_penalty_suit(auction: dict[str, Any]) -> None:
    """Naming another suit changes what the hand scores (or makes a play illegal)."""
    e = copy.deepcopy(auction)
    e["declare"] = next(s for s in "CDSH" if s != auction["declare"])
    assert not verdict(e).ok
