"""Hostile and careless input to every core reader: records, hand logs, actions, rule options, cards.

Each reader must answer with its documented error (a :class:`CorazonesError`
subclass) or verdict, in one short line, and never with another exception:
not ``ValueError: Exceeds the limit (4300 digits)``, not ``AttributeError``,
not ``RecursionError``.  The first half names the faults of issue 9; the second
throws random and mutated documents at each reader (Hypothesis).
"""

from __future__ import annotations

import copy
import json
import os
import random
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from corazones.core import Action, CardError, Game, IllegalActionError, Kind, RecordError, Rules, RulesError
from corazones.core.cards import card_str, parse_card, parse_cards
from corazones.core.errors import CorazonesError
from corazones.core.handlog import MALFORMED, check_entry, check_line
from corazones.core.limits import (
    MAX_HANDLOG_LINE_BYTES,
    MAX_JSON_DEPTH,
    MAX_NAME_LENGTH,
    MAX_RECORD_ACTIONS,
    MAX_RECORD_BYTES,
    MAX_STRING_LENGTH,
    parse_json,
    show,
)
from corazones.core.records import check_shape, dumps, loads, make_record, replay, verify_record
from corazones.core.rules import OPTION_NAMES, PRESETS
from tests.helpers import play_random

HUGE = "9" * 5000
#: Modest by default so the suite stays quick; CORAZONES_FUZZ_EXAMPLES=2000 for a long hunt.
FUZZ = settings(
    max_examples=int(os.environ.get("CORAZONES_FUZZ_EXAMPLES", "40")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)


def quick_game(seed: int = 3) -> Game:
    return play_random(Game(Rules.preset("quick"), seed=seed), random.Random(seed))


@pytest.fixture(scope="module")
def record_text() -> str:
    return dumps(make_record(quick_game(), ["Ana", "Bea", "Carl", "Dani"]))


def hand_log_line() -> dict[str, Any]:
    """A valid hand-log entry: the first hand of a standard game played at random."""
    game = Game(Rules.preset("standard"), seed=8)
    deal = game.deal
    hands = [[card_str(c) for c in deal.hand(s)] for s in range(4)]
    rng = random.Random(8)
    passes: list[list[str]] = [[] for _ in range(4)]
    plays: list[str] = []
    while game.hand_index == 0:
        seat = game.to_act()[0]
        if game.decision_kind() is Kind.PASS:
            action = Action.pass_cards(seat, rng.sample(game.deal.hand(seat), 3))
            passes[seat] = [card_str(c) for c in action.cards]
        else:
            action = rng.choice(game.legal_actions(seat))
            if action.kind is Kind.PLAY:
                plays.append(card_str(action.cards[0]))
        game.apply(action)
    entry = {
        "rules": "standard",
        "dealer": game.history[0].dealer,
        "hands": hands,
        "pass_direction": "left",
        "passes": passes,
        "plays": plays,
        "expect": {"points": list(game.history[0].scores)},
    }
    if game.history[0].shooter is not None:
        entry["moon_choice"] = game.history[0].moon_choice
    assert check_entry(entry).ok
    return entry


def one_line(message: str) -> bool:
    return "\n" not in message and len(message) < 600


# ------------------------------------------------------------- fault 1: huge integers
@pytest.mark.parametrize(
    ("path", "where"),
    [
        (("version",), "version"),
        (("seed",), "seed"),
        (("rules", "players"), "rules.players"),
        (("rules", "target"), "rules.target"),
        (("actions", 0, "seat"), "actions[0].seat"),
        (("hands", 0, "points", 2), "hands[0].points[2]"),
        (("final", "pool"), "final.pool"),
    ],
)
def test_a_5000_digit_integer_anywhere_in_a_record_is_refused_by_field(
    record_text: str, path: tuple[str | int, ...], where: str
) -> None:
    data = json.loads(record_text)
    target = data
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = "@HUGE@"
    text = json.dumps(data).replace('"@HUGE@"', HUGE)
    with pytest.raises(RecordError) as e:
        verify_record(loads(text))
    assert str(e.value) == f"{where}: a number of 5,000 digits; numbers have at most 40"
    built = copy.deepcopy(json.loads(record_text))  # the same number built in Python
    target = built
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = int(HUGE[:4000]) ** 2
    with pytest.raises(RecordError, match=re.escape(where) + r": a number of about 8,00\d digits"):
        verify_record(built)


@pytest.mark.parametrize("field", ["dealer", "bids", "expect", "options", "passes"])
def test_a_5000_digit_integer_in_a_hand_log_is_a_malformed_verdict(field: str) -> None:
    entry = hand_log_line()
    values = {
        "dealer": "@HUGE@",
        "bids": ["@HUGE@", 0, 0, 0],
        "expect": {"points": [0, 0, 0, "@HUGE@"]},
        "options": {"target": "@HUGE@"},
        "passes": [["2C", "@HUGE@", "3C"]] * 4,
    }
    entry[field] = values[field]
    line = json.dumps(entry).replace('"@HUGE@"', HUGE)
    verdict = check_line(line)
    assert not verdict.ok and verdict.status == MALFORMED
    assert "a number of 5,000 digits; numbers have at most 40" in verdict.message and one_line(verdict.message)
    entry[field] = json.loads(json.dumps(values[field]).replace('"@HUGE@"', "1"))
    assert check_entry(json.loads(line.replace(HUGE, "1"))).status != "crash"


def test_huge_integers_through_the_python_api_get_the_documented_errors() -> None:
    huge = 10**5000
    game = Game(Rules.preset("standard"), seed=1)
    for action in (Action(Kind.PLAY, huge, (1,)), Action(Kind.PASS, 0, (huge, 1, 2)), Action(Kind.BID, 0, (), huge)):
        with pytest.raises(IllegalActionError, match="a number of about 5,001 digits"):
            game.apply(action)
    with pytest.raises(IllegalActionError, match="does not exist"):
        game.legal_actions(huge)
    with pytest.raises(RulesError, match="target = <a number of about 5,001 digits> is out of range"):
        Rules.preset("standard", target=huge)
    with pytest.raises(CardError, match="a card must be a string like 'QS', '10H' or 'Q♠', not <a number of about"):
        parse_card(huge)  # type: ignore[arg-type]
    with pytest.raises(CorazonesError, match="at most 40 digits"):
        Game(seed=huge)
    with pytest.raises(RecordError, match="a bid is a whole number"):
        Action.bid(0, True)
    assert show(huge) == "<a number of about 5,001 digits>"


# ------------------------------------------------------------- fault 2 (core half): sizes
def test_sizes_are_bounded_with_named_limits(record_text: str) -> None:
    with pytest.raises(RecordError, match=f"at most {MAX_RECORD_BYTES:,} are read"):
        loads(" " * (MAX_RECORD_BYTES + 1))
    data = json.loads(record_text)
    data["actions"] = data["actions"] * (MAX_RECORD_ACTIONS // len(data["actions"]) + 1)
    with pytest.raises(RecordError, match=f"a record holds at most {MAX_RECORD_ACTIONS:,}"):
        loads(json.dumps(data))
    data = json.loads(record_text)
    data["players"][1] = "x" * (MAX_NAME_LENGTH + 1)
    with pytest.raises(
        RecordError, match=f"players\\[1\\] has {MAX_NAME_LENGTH + 1} characters; a name has at most {MAX_NAME_LENGTH}"
    ):
        loads(json.dumps(data))
    data["players"][1] = "y" * 5_000_000
    with pytest.raises(RecordError, match="players\\[1\\]: a string of 5,000,000 characters"):
        verify_record(data)
    verdict = check_line("{" + " " * MAX_HANDLOG_LINE_BYTES + "}")
    assert verdict.status == MALFORMED and f"at most {MAX_HANDLOG_LINE_BYTES:,} are read" in verdict.message
    with pytest.raises(RecordError, match=f"nested too deeply; at most {MAX_JSON_DEPTH} levels"):
        parse_json("[" * 40 + "]" * 40, "a test", 1000)
    with pytest.raises(RecordError, match=f"strings have at most {MAX_STRING_LENGTH:,}"):
        loads(record_text.replace('"Ana"', json.dumps("a" * (MAX_STRING_LENGTH + 1))))


def test_a_record_beyond_the_limits_is_never_written() -> None:
    """make_record and dumps refuse what loads would refuse, so every record written reads back."""
    game = quick_game()
    game.actions = game.actions * (MAX_RECORD_ACTIONS // len(game.actions) + 1)
    with pytest.raises(RecordError, match=f"a record holds at most {MAX_RECORD_ACTIONS:,}"):
        make_record(game)
    record = make_record(quick_game())
    record["hands"] = record["hands"] * 30_000
    with pytest.raises(RecordError, match=f"a record is at most {MAX_RECORD_BYTES:,}"):
        dumps(record)


@pytest.mark.parametrize(
    "name",
    ["Zoë", "李小龍", "Ana 🂡", "N" * MAX_NAME_LENGTH, "", "\u202eevil"],
)
def test_names_are_any_unicode_text_within_the_limit(record_text: str, name: str) -> None:
    data = json.loads(record_text)
    data["players"][2] = name
    assert loads(json.dumps(data))["players"][2] == name


@pytest.mark.parametrize("name", ["a\x1b]0;owned\x07", "line\nbreak", "tab\there", "del\x7f", "c1\x9b", "\ud800"])
def test_names_with_control_characters_or_lone_surrogates_are_refused(record_text: str, name: str) -> None:
    data = json.loads(record_text)
    data["players"][0] = name
    with pytest.raises(RecordError, match=r"players\[0\] .* holds a (control character|lone surrogate)") as e:
        loads(json.dumps(data))
    assert one_line(str(e.value)) and "\x1b" not in str(e.value)
    with pytest.raises(RecordError, match=r"players\[0\]"):
        make_record(quick_game(), [name, "b", "c", "d"])


def test_nan_infinity_and_duplicate_keys_are_refused(record_text: str) -> None:
    head, _, tail = record_text.rpartition('"pool": 0')  # the last one is final.pool
    with pytest.raises(RecordError, match=r"final\.pool: NaN is not a number JSON allows"):
        loads(head + '"pool": NaN' + tail)
    with pytest.raises(RecordError, match=r"final\.pool: -Infinity is not a number JSON allows"):
        loads(head + '"pool": -Infinity' + tail)
    with pytest.raises(RecordError, match=r"final\.pool: inf is not a number JSON allows"):
        loads(head + '"pool": 1e999' + tail)
    with pytest.raises(RecordError, match=r"actions\[0\]: the key 'seat' is given twice"):
        loads(record_text.replace('{"seat": ', '{"seat": 1, "seat": ', 1))
    verdict = check_line(json.dumps(hand_log_line()).replace('"rules": ', '"dealer": 1, "rules": ', 1))
    assert verdict.status == MALFORMED and "the key 'dealer' is given twice" in verdict.message


# ------------------------------------------------------------- fault 3: loose parsing
def test_version_true_is_not_version_1(record_text: str) -> None:
    for version in ("true", "1.0", '"1"'):
        with pytest.raises(RecordError, match="is not supported; this program reads versions 1, 2"):
            loads(record_text.replace('"version": 2', f'"version": {version}'))


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"seat": 0, "play": "2C", "note": "hi"}, r"unknown key\(s\) note; an action has 'seat' and one of play"),
        ({"seat": 0, "play": 0}, r"'play' must be a card written as a string like \"QS\", not 0"),
        ({"seat": 0, "pass": [1, 2, 3]}, r"'pass' must be a list of cards"),
        ({"seat": 0, "bid": -1}, r"'bid' must be a whole number of chips from 0 \(no bid\) to 11,000, not -1"),
        ({"seat": 0, "bid": True}, r"'bid' must be a whole number of chips"),
        ({"seat": 0, "bid": 2.0}, r"'bid' must be a whole number of chips"),
        ({"seat": "0", "play": "2C"}, r"a seat is a whole number 0 to 10, not '0'"),
        ({"seat": True, "play": "2C"}, r"a seat is a whole number 0 to 10, not True"),
        ({"seat": 1.0, "play": "2C"}, r"a seat is a whole number 0 to 10, not 1.0"),
        ({"seat": -1, "play": "2C"}, r"a seat is a whole number 0 to 10, not -1"),
        ({"seat": 0, "declare": "Hearts"}, r"not a suit: 'Hearts'; use one of C D S H"),
        ({"seat": 0, "declare": 3}, r"'declare' must be a suit letter C, D, S or H, not 3"),
        ({"seat": 0, "moon": ["add_to_others"]}, r"moon choice \['add_to_others'\] is not one of"),
        ({"seat": 0}, r"must have exactly one of play, pass, bid, declare, moon"),
        ({"play": "2C"}, r"has no 'seat'"),
        ([0, "2C"], r"an action is an object like"),
    ],
)
def test_action_from_json_is_strict_and_names_the_field(data: Any, message: str) -> None:
    with pytest.raises(RecordError, match=message) as e:
        Action.from_json(data)
    assert one_line(str(e.value))


def test_action_from_json_accepts_what_to_json_writes() -> None:
    for action in (
        Action.play(2, "QS"),
        Action.pass_cards(1, "QS AH KH"),
        Action.bid(0, 0),
        Action.bid(3, 12),
        Action.declare(1, "♦"),
        Action.moon(0, "add_to_others"),
    ):
        assert Action.from_json(action.to_json()) == action
    assert Action.from_json({"seat": 0, "declare": "d"}) == Action.declare(0, "D")


@pytest.mark.parametrize("bad", [None, {}, {"seat": 0, "play": "2C"}, "junk", 7, ("play", 0)])
def test_game_refuses_what_is_not_an_action_with_the_documented_error(bad: Any) -> None:
    game = Game(Rules.preset("standard"), seed=4)
    before = dumps(make_record(game))
    for call in (game.apply, game.is_legal):
        with pytest.raises(IllegalActionError, match=r"^expected an Action \(Action.play\(seat, 'QS'\)") as e:
            call(bad)
        assert one_line(str(e.value))
    assert dumps(make_record(game)) == before, "nothing changed"


@pytest.mark.parametrize("action", [Action("play", 0, (1,)), Action(Kind.PASS, 0, [1, 2, 3])])  # type: ignore[arg-type]
def test_actions_built_by_hand_with_wrong_field_types_are_refused(action: Action) -> None:
    game = Game(Rules.preset("standard"), seed=4)
    with pytest.raises(IllegalActionError, match="an action's"):
        game.apply(action)


@pytest.mark.parametrize("seat", [4, 9, -1, True, "0", 1.0])
def test_a_seat_that_does_not_exist_raises(seat: Any) -> None:
    game = Game(Rules.preset("standard"), seed=4)
    with pytest.raises(IllegalActionError, match=r"does not exist; seats are 0 to 3"):
        game.legal_actions(seat)
    with pytest.raises(IllegalActionError, match=r"does not exist; seats are 0 to 3"):
        game.observation(seat)
    assert game.legal_actions(None), "no seat: the first seat to act"


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"players": "4"}, "players must be a whole number (3 to 7 with one deck, 5 to 11 with two), not '4'"),
        ({"players": 4.0}, "players must be a whole number"),
        ({"target": True}, "target must be a whole number from 1 to 1000 or null, not True"),
        ({"target": 1001}, "target = 1001 is out of range; allowed: 1 to 1000"),
        ({"hands": 501, "target": None}, "hands = 501 is out of range; allowed: 1 to 500"),
        ({"stake": 0}, "stake = 0 is out of range; allowed: 1 to 1000"),
        ({"pass_count": 1.5}, "pass_count must be a whole number"),
        ({"decks": "2"}, "decks must be a whole number from 1 to 2, not '2'"),
        ({"passes": "left"}, "passes must be a list such as ['left', 'right'], or null, not 'left'"),
        ({"passes": {"left": 1}}, "passes must be a list"),
        ({"passes": ["left"] * 17}, "passes has 17 entries; at most 16"),
        ({"discard_order": "HQ"}, "discard_order must be a list"),
        ({"card_points": "QS=13"}, "card_points must be an object"),
        ({"card_points": {"QS": 13.0}}, "card_points[QS] must be a whole number"),
        ({"card_points": {"QS": True}}, "card_points[QS] must be a whole number"),
        ({"moon": ["off"]}, "moon = ['off'] is not allowed"),
        ({"auction": 1}, "auction must be true or false, not 1"),
        ({"partnership": "yes"}, "partnership must be true or false"),
    ],
)
def test_rule_option_types_are_checked(options: dict[str, Any], message: str) -> None:
    with pytest.raises(RulesError) as e:
        Rules.preset("standard", **options)
    assert message in str(e.value) and one_line(str(e.value))


def test_rules_names_and_unknown_options_from_dicts() -> None:
    for data, message in (
        ({"name": ["standard"]}, "the rules' name must be a string"),
        ({"name": "x" * (MAX_NAME_LENGTH + 1)}, f"a name has at most {MAX_NAME_LENGTH}"),
        ({"name": "evil\x1b[2J"}, "holds a control character"),
        ({"name": "standard", 1: 2}, "unknown option(s) 1"),
        ({"name": "standard", "\x1b[2J": 2}, "unknown option(s) '\\x1b[2J'"),
        ([("players", 4)], "rules must be an object of options"),
    ):
        with pytest.raises(RulesError) as e:
            Rules.from_dict(data)  # type: ignore[arg-type]
        assert message in str(e.value), (data, str(e.value))
    assert Rules.from_dict({"name": "Café rules", "players": 5}).name == "Café rules"


# ------------------------------------------------------------- fault 10: Black Maria's values
def test_black_maria_keeps_the_rule_book_and_the_british_values_are_one_override() -> None:
    book = Rules.preset("black_maria")
    spades = {c: book.card_values()[parse_card(c)] for c in ("QS", "KS", "AS")}
    assert spades == {"QS": 13, "KS": 7, "AS": 10}
    british = Rules.preset("black_maria", card_points={"QS": 13, "KS": 10, "AS": 7})
    assert {c: british.card_values()[parse_card(c)] for c in ("QS", "KS", "AS")} == {"QS": 13, "KS": 10, "AS": 7}
    assert sum(british.card_values()) == sum(book.card_values()) == 43


# ------------------------------------------------------------- actions print as cards
def test_actions_print_as_cards() -> None:
    assert repr(Action.pass_cards(0, "QS AH KH")) == "Action(pass, seat 0: QS KH AH)"
    assert repr(Action.play(2, "10H")) == "Action(play, seat 2: 10H)"
    assert repr(Action.bid(1, 0)) == "Action(bid, seat 1: 0)"
    assert repr(Action.declare(3, "S")) == "Action(declare, seat 3: S)"
    assert repr(Action.moon(0, "add_to_others")) == "Action(moon, seat 0: add_to_others)"
    assert repr(Action(Kind.PLAY, 0, (99,))) == "Action(play, seat 0: 99)"
    assert repr(Action(Kind.PASS, None, 5)) == "Action(pass, seat None: 5)"  # type: ignore[arg-type]
    assert str(Action.pass_cards(0, "QS AH KH")) == "seat 0 passes QS KH AH"
    assert str(Action.bid(1, 3)) == "seat 1 bids 3" and str(Action.bid(1, 0)) == "seat 1 passes the bid"


@pytest.mark.integration
def test_the_readme_five_liner_prints_readable_actions() -> None:
    readme = (Path(__file__).parent.parent / "README.md").read_text(encoding="utf-8")
    block = readme.split("## Python in five lines", 1)[1].split("```python", 1)[1].split("```", 1)[0]
    out = subprocess.run([sys.executable, "-c", block], capture_output=True, text=True, check=True).stdout
    assert re.search(r"\[Action\(pass, seat \d: \w+ \w+ \w+\), Action\(pass", out), out
    assert "cards=" not in out


# ------------------------------------------------------------- fuzz: random and mutated documents
_SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**12), max_value=10**12),
    st.integers(),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=20),
    st.sampled_from(["@HUGE@", "@LONG@", "2C", "QS", "10H", "standard", "play", "seat", "left", "hold"]),
)
_JSON = st.recursive(
    _SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=5),
        st.dictionaries(
            st.one_of(st.sampled_from(["seat", "play", "pass", "bid", "rules", "hands", "seed"]), st.text(max_size=8)),
            inner,
            max_size=5,
        ),
    ),
    max_leaves=25,
)


def to_text(value: Any) -> str:
    """JSON text with the placeholders turned hostile: a 5,000-digit integer, a 2,000-character string."""
    text = json.dumps(value, allow_nan=True)
    return text.replace('"@HUGE@"', HUGE).replace('"@LONG@"', json.dumps("x" * 2000))


def mutate(doc: Any, rng: random.Random, value: Any) -> Any:
    """Replace, delete or add one entry somewhere in ``doc`` (in place when it is a container)."""
    containers: list[Any] = []
    stack = [doc]
    while stack:
        node = stack.pop()
        if isinstance(node, dict | list) and node:
            containers.append(node)
            stack.extend(node.values() if isinstance(node, dict) else node)
    if not containers:
        return value
    node = rng.choice(containers)
    op = rng.random()
    if isinstance(node, dict):
        key = rng.choice(list(node))
        if op < 0.15:
            del node[key]
        elif op < 0.25:
            node["extra"] = value
        else:
            node[key] = value
    else:
        i = rng.randrange(len(node))
        if op < 0.15:
            del node[i]
        elif op < 0.25:
            node.append(value)
        else:
            node[i] = value
    return doc


@FUZZ
@given(_JSON)
def test_fuzz_records_loads_random_json(value: Any) -> None:
    with pytest.raises(RecordError):
        verify_record(loads(to_text(value)))
    for reader in (verify_record, replay, check_shape):
        with pytest.raises(RecordError):
            reader(value)


@FUZZ
@given(st.integers(0, 2**32), _JSON)
def test_fuzz_records_mutated_valid_records(record_text: str, seed: int, value: Any) -> None:
    doc = mutate(json.loads(record_text), random.Random(seed), value)
    try:
        verify_record(loads(to_text(doc)))
    except RecordError as e:
        assert one_line(str(e))


@FUZZ
@given(st.integers(0, 2**32), st.sampled_from(["[", "{", '{"a":', "]", "}", ",", "NaN", "9" * 5000, '"', "\\"]))
def test_fuzz_records_text_damage(record_text: str, seed: int, junk: str) -> None:
    rng = random.Random(seed)
    cut = rng.randrange(len(record_text))
    text = record_text[:cut] + junk * rng.choice([1, 3, 2000]) + record_text[cut + rng.randrange(3) :]
    try:
        verify_record(loads(text))
    except RecordError as e:
        assert one_line(str(e))


@FUZZ
@given(_JSON)
def test_fuzz_hand_log_random_lines(value: Any) -> None:
    verdict = check_line(to_text(value))
    assert not verdict.ok and verdict.status == MALFORMED and one_line(verdict.message)
    assert not check_entry(value).ok


@FUZZ
@given(st.integers(0, 2**32), _JSON)
def test_fuzz_hand_log_mutated_lines(seed: int, value: Any) -> None:
    entry = mutate(hand_log_line(), random.Random(seed), value)
    verdict = check_line(to_text(entry))
    assert verdict.status in ("ok", "malformed", "illegal", "mismatch") and one_line(verdict.message)
    assert check_entry(entry).status in ("ok", "malformed", "illegal", "mismatch")


@FUZZ
@given(_JSON)
def test_fuzz_action_from_json(value: Any) -> None:
    for data in (value, {"seat": 0, "play": value}, {"seat": value, "bid": 1}, {"seat": 0, "pass": value}):
        try:
            action = Action.from_json(data)
        except RecordError as e:
            assert one_line(str(e))
        else:
            assert Action.from_json(action.to_json()) == action


_ACTION_FIELDS = st.one_of(_SCALARS, st.just(10**5000), st.lists(st.integers(-3, 60), max_size=4).map(tuple))


@FUZZ
@given(st.sampled_from([*list(Kind), "play", None]), _ACTION_FIELDS, _ACTION_FIELDS, _ACTION_FIELDS, _JSON)
def test_fuzz_game_apply_is_legal_legal_actions(kind: Any, seat: Any, cards: Any, value: Any, other: Any) -> None:
    game = Game(Rules.preset("auction_hearts"), seed=5)
    before = dumps(make_record(game))
    for candidate in (Action(kind, seat, cards, value), other):
        try:
            legal = game.is_legal(candidate)
        except IllegalActionError:
            legal = False
        if not legal:
            with pytest.raises(IllegalActionError):
                game.apply(candidate)
    assert dumps(make_record(game)) == before
    for s in (seat, value):
        try:
            game.legal_actions(s)
        except IllegalActionError as e:
            assert one_line(str(e))


@FUZZ
@given(st.sampled_from(sorted(PRESETS)), st.sampled_from([*sorted(OPTION_NAMES), "name", "jokers"]), _JSON)
def test_fuzz_rule_options(preset: str, option: str, value: Any) -> None:
    for build in (
        lambda: Rules.preset(preset, **{option: value}),
        lambda: Rules.from_dict({"name": preset, option: value}),
    ):
        try:
            rules = build()
        except RulesError as e:
            assert one_line(str(e))
        else:
            assert Rules.from_dict(rules.to_dict()) == rules


@FUZZ
@given(_JSON)
def test_fuzz_rules_from_random_documents(value: Any) -> None:
    try:
        Rules.from_dict(value)
    except RulesError as e:
        assert one_line(str(e))


@FUZZ
@given(st.one_of(_SCALARS, st.text(max_size=5), st.just("x" * 10**6), st.just(10**5000)))
def test_fuzz_card_parsing(value: Any) -> None:
    try:
        card = parse_card(value)
    except CardError as e:
        assert one_line(str(e))
    else:
        assert 0 <= card < 52
    try:
        parse_cards(value)
    except CardError as e:
        assert one_line(str(e))
