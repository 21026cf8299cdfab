"""The checks the core's JSON readers share: whole numbers, seats and unknown fields, with the reader's field path."""

from __future__ import annotations

import json

import pytest

from corazones.core.errors import RecordError
from corazones.core.handlog import check_line
from corazones.core.position import PositionError
from corazones.core.validate import is_whole, is_whole_in, refuse_unknown, seat, seat_or_none
from tests.helpers import hand_entries


@pytest.mark.parametrize("value", [True, False, 1.0, "1", None, [1]])
def test_a_whole_number_is_an_int_and_never_a_bool(value: object) -> None:
    assert not is_whole(value) and not is_whole_in(value, 0, 10)


def test_ranges_are_inclusive_and_open_ended() -> None:
    assert is_whole(0) and is_whole_in(0, 0, 0) and is_whole_in(10**30, 1) and is_whole_in(-5, None, -5)
    assert not is_whole_in(11, 0, 10) and not is_whole_in(-1, 0)


def test_a_seat_is_named_by_its_path_in_the_readers_error() -> None:
    assert seat(3, 4, "hands[0].seat", RecordError) == 3
    with pytest.raises(RecordError, match=r"^hands\[0\]\.seat must be a seat 0 to 3, not True$"):
        seat(True, 4, "hands[0].seat", RecordError)
    with pytest.raises(PositionError, match=r"^dealer must be a seat 0 to 4, not 5$"):
        seat(5, 5, "dealer", PositionError)
    assert seat_or_none(None, 4, "declarer", RecordError) is None


def test_unknown_fields_are_all_named_with_the_fields_there_are() -> None:
    refuse_unknown({"a": 1}, ("a", "b"), "final", RecordError)
    with pytest.raises(RecordError, match=r"^final: unknown field\(s\) c, d; fields: a, b$"):
        refuse_unknown({"a": 1, "c": 2, "d": 3}, ("a", "b"), "final", RecordError)
    with pytest.raises(RecordError, match=r"^unknown field\(s\) c; fields: a, b$"):
        refuse_unknown({"c": 2}, ("a", "b"), None, RecordError)


def test_the_hand_log_keeps_its_paths() -> None:
    entry = hand_entries("standard", {}, seed=3, hands=1)[0]
    entry["expect"]["pionts"] = [0, 0, 0, 26]
    verdict = check_line(json.dumps(entry))
    assert not verdict.ok and "expect: unknown field(s) pionts" in verdict.message, verdict.message
    verdict = check_line('{"rules": "standard", "dealer": true}')
    assert not verdict.ok and "dealer must be a seat 0 to 3 (or null), not true" in verdict.message, verdict.message
