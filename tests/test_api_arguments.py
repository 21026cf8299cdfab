"""Wrong arguments to the core's public builders get the documented, typed errors where they are written.

A library caller who passes a preset name for ``Rules``, a seat no table has, a
negative bid or a suit index past hearts is told so by the call that received it
(docs/api.md, Errors), not with an ``AttributeError`` from inside the game or an
action that is built and only refused later by ``apply``.
"""

from __future__ import annotations

import copy
import pickle
from typing import Any

import pytest

from corazones.core import CARDS, Action, Card, CardError, CardSet, Game, IllegalActionError, Kind, Rules, RulesError
from corazones.core.actions import PLAY_ACTIONS
from corazones.core.errors import RecordError

BUILDERS = {
    "play": lambda seat: Action.play(seat, "2C"),
    "pass": lambda seat: Action.pass_cards(seat, "QS AH KH"),
    "bid": lambda seat: Action.bid(seat, 0),
    "declare": lambda seat: Action.declare(seat, "D"),
    "moon": lambda seat: Action.moon(seat, "add_to_others"),
}


@pytest.mark.parametrize("rules", ["standard", 5, {}, True])
def test_game_refuses_what_is_not_rules_with_a_rules_error(rules: Any) -> None:
    with pytest.raises(RulesError, match=r"rules must be a Rules, such as Rules\.preset\('standard'\), not "):
        Game(rules, seed=1)


@pytest.mark.parametrize("builder", BUILDERS)
@pytest.mark.parametrize("seat", [-1, 11, 10**60, True, None, "1", 1.0])
def test_builders_refuse_a_seat_no_table_has(builder: str, seat: Any) -> None:
    with pytest.raises(IllegalActionError, match=r"a seat is a whole number 0 to 10, not "):
        BUILDERS[builder](seat)


@pytest.mark.parametrize("builder", BUILDERS)
def test_builders_keep_any_seat_of_the_largest_table(builder: str) -> None:
    """Seat 10 exists at an 11-seat table; the game checks it against its own size."""
    action = BUILDERS[builder](10)
    assert action.seat == 10 and type(action.seat) is int


def test_a_seat_given_as_another_integer_type_becomes_an_int() -> None:
    class Index:  # what NumPy integers do: an index, not an int
        def __index__(self) -> int:
            return 2

    assert Action.play(Index(), "2C") is PLAY_ACTIONS[2][0]  # type: ignore[arg-type]
    assert Action.bid(Index(), 3) == Action(Kind.BID, 2, (), 3)  # type: ignore[arg-type]


@pytest.mark.parametrize("amount", [-1, -(10**60)])
def test_bid_refuses_a_negative_amount(amount: int) -> None:
    with pytest.raises(RecordError, match=r"a whole number of chips from 0 \(no bid\) to 11,000, not "):
        Action.bid(0, amount)


@pytest.mark.parametrize("suit", [4, -1, 99])
def test_declare_refuses_a_suit_index_past_hearts(suit: int) -> None:
    with pytest.raises(RecordError, match=r"not a suit: .*; use one of C D S H"):
        Action.declare(0, suit)


def test_declare_still_takes_indexes_0_to_3() -> None:
    assert [Action.declare(0, i).value for i in range(4)] == [0, 1, 2, 3]
    assert Action.declare(0, 3).to_json() == {"seat": 0, "declare": "H"}


def test_a_bid_too_high_for_the_table_is_refused_by_the_game_with_its_range() -> None:
    game = Game(Rules.preset("auction_hearts"), seed=1)
    while game.decision_kind() is not Kind.BID:
        game.apply(game.legal_actions()[0])
    seat = game.to_act()[0]
    with pytest.raises(IllegalActionError, match=r"is not allowed; allowed: 0 \(no bid\) or "):
        game.apply(Action.bid(seat, 11_001))


@pytest.mark.parametrize("bad", [52, -1, 60, 10**60, True, 1.5, "5", "QS", None])
def test_card_refuses_what_is_not_a_card_index(bad: Any) -> None:
    """``int`` alone would make ``Card("5")`` the 7C and ``Card(52)`` a card that fails when printed."""
    with pytest.raises(CardError, match=r"not a card: .*; a card is an index 0 to 51"):
        Card(bad)


def test_card_keeps_every_index_and_pickles() -> None:
    assert [str(Card(i)) for i in (0, 36, 51)] == ["2C", "QS", "AH"]
    assert pickle.loads(pickle.dumps(Card(36))) == 36 and copy.copy(CARDS[36]) == 36


@pytest.mark.parametrize("bad", [52, -1, "QS", 1.5, True])
def test_cardset_refuses_what_is_not_a_card(bad: Any) -> None:
    with pytest.raises(CardError, match=r"not a card: .*; a card is an index 0 to 51"):
        CardSet([bad])
    with pytest.raises(CardError, match=r"not a card: "):
        CardSet.parse("QS").remove(bad)
