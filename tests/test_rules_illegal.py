"""Illegal actions: every kind raises ``IllegalActionError`` naming what is allowed, and leaves the
game exactly as it was (every seat's observation JSON and the hidden state compared before/after).

The rules being enforced are those of RULES.md §1-§3; the messages are the project's contract
(docs: 'clear error messages naming what was wrong and what is allowed').
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from corazones.core import Action, Deal, Game, IllegalActionError, Kind, Rules
from tests.helpers import TOP, cards, snapshot, spread

Scenario = Callable[[], tuple[Game, Action, str]]


def crafted(rules: Rules, hands: list[str], plays: str = "", dealer: int | None = None, **kw: object) -> Game:
    """A game whose current hand has these exact hands (seat 0 eldest), with ``plays`` already made."""
    g = Game(rules, seed=0)
    g.dealer = rules.players - 1 if dealer is None else dealer
    g.deal = Deal(rules, [cards(h) for h in hands], (), g.dealer, "hold", **kw)  # type: ignore[arg-type]
    for c in cards(plays):
        g.apply(Action.play(g.deal.turn, c))
    return g


STANDARD = Rules.preset("standard")
HANDS = ["2C 9S AH 3D", "3C 2S 4H QS", "4C 5H 6H 5D", "KC KS 7H 6D"]


def play_out_of_turn() -> tuple[Game, Action, str]:
    g = crafted(STANDARD, HANDS)
    return g, Action.play(1, cards("3C")[0]), r"it is not seat 1's turn to play; waiting for seat\(s\) 0"


def play_card_not_held() -> tuple[Game, Action, str]:
    g = crafted(STANDARD, HANDS)
    return g, Action.play(0, "AS"), "seat 0 does not hold AS"


def play_not_two_of_clubs() -> tuple[Game, Action, str]:
    g = crafted(STANDARD, HANDS)
    return g, Action.play(0, "9S"), r"9S may not be played now \(the first trick must be led with 2C\); legal: 2C$"


def play_not_following_suit() -> tuple[Game, Action, str]:
    g = crafted(STANDARD, HANDS, "2C")
    return g, Action.play(1, "2S"), r"2S may not be played now \(must follow C\); legal: 3C$"


def play_penalty_on_first_trick() -> tuple[Game, Action, str]:
    g = crafted(STANDARD, ["2C 9S", "3D QS", "4D 5H", "KC KS"], "2C")
    return g, Action.play(1, "QS"), r"QS may not be played now \(no penalty cards on the first trick\); legal: 3D$"


def lead_heart_before_broken() -> tuple[Game, Action, str]:
    g = crafted(STANDARD, HANDS, "2C 3C 4C KC")
    return g, Action.play(3, "7H"), r"7H may not be played now \(H not broken yet\); legal: 6D KS$"


def chasse_discard_order() -> tuple[Game, Action, str]:
    g = crafted(Rules.preset("chasse_coeur"), ["2C 3C", "5H QD", "QS 4D", "6D 7D"], "2C")
    return g, Action.play(1, "QD"), r"QD may not be played now \(must discard by the discard order H Q\); legal: 5H$"


def auction_penalty_lead() -> tuple[Game, Action, str]:
    r = Rules.preset("auction_hearts")
    g = crafted(r, ["2S 3C", "2C 3D", "2D 3H", "2H 3S"], chips=[25] * 4)
    g.apply(Action.bid(0, 1))
    for s in (1, 2, 3):
        g.apply(Action.bid(s, 0))
    g.apply(Action.declare(0, "S"))
    return g, Action.play(0, "2S"), r"\(the declarer may not lead the penalty suit to the first trick\); legal: 3C$"


def play_two_cards() -> tuple[Game, Action, str]:
    g = crafted(STANDARD, HANDS)
    return g, Action(Kind.PLAY, 0, tuple(cards("2C 9S"))), "a play names exactly one card"


def play_no_card() -> tuple[Game, Action, str]:
    g = crafted(STANDARD, HANDS)
    return g, Action(Kind.PLAY, 0, ()), "a play names exactly one card"


@pytest.mark.parametrize("bad", [52, -1, 1.5, True])
def test_card_that_is_not_a_card_index(bad: object) -> None:
    g = crafted(STANDARD, HANDS)
    before = snapshot(g)
    with pytest.raises(IllegalActionError, match=r"not a card: .*; a card is an index 0 to 51"):
        g.apply(Action(Kind.PLAY, 0, (bad,)))  # type: ignore[arg-type]
    with pytest.raises(IllegalActionError, match="not a card"):
        g2 = Game(STANDARD, seed=5)
        g2.apply(Action(Kind.PASS, 0, (bad, 1, 2)))  # type: ignore[arg-type]
    assert snapshot(g) == before


def wrong_kind_pass_in_play() -> tuple[Game, Action, str]:
    g = crafted(STANDARD, HANDS)
    return g, Action.pass_cards(0, "2C 9S AH"), r"pass is not possible now: the game waits for play from seat\(s\) 0"


def wrong_kind_bid_in_play() -> tuple[Game, Action, str]:
    g = crafted(STANDARD, HANDS)
    return g, Action.bid(0, 1), "bid is not possible now: the game waits for play"


def wrong_kind_moon_in_play() -> tuple[Game, Action, str]:
    g = crafted(STANDARD, HANDS)
    return g, Action.moon(0, "add_to_others"), "moon is not possible now: the game waits for play"


def bad_seat() -> tuple[Game, Action, str]:
    g = crafted(STANDARD, HANDS)
    return g, Action.play(4, "2C"), "seat 4 does not exist; seats are 0 to 3"


def bool_seat() -> tuple[Game, Action, str]:
    g = crafted(STANDARD, HANDS)
    return g, Action(Kind.PLAY, True, tuple(cards("2C"))), "seat True does not exist"  # type: ignore[arg-type]


def bid_game() -> Game:
    r = Rules.preset("auction_hearts")
    return crafted(r, ["2S 3C", "2C 3D", "2D 3H", "2H 3S"], chips=[25, 3, 25, 25])


def bid_too_low() -> tuple[Game, Action, str]:
    g = bid_game()
    g.apply(Action.bid(0, 2))
    return g, Action.bid(1, 2), r"bid 2 is not allowed; allowed: 0 \(no bid\) or 3 to 3$"


def bid_over_chips() -> tuple[Game, Action, str]:
    g = bid_game()
    return g, Action.bid(0, 26), r"bid 26 is not allowed; allowed: 0 \(no bid\) or 1 to 25"


def bid_not_whole() -> tuple[Game, Action, str]:
    g = bid_game()
    return g, Action(Kind.BID, 0, (), "3"), r"bid '3' is not allowed; allowed: 0 \(no bid\) or 1 to 25"


def bid_bool() -> tuple[Game, Action, str]:
    g = bid_game()
    return g, Action(Kind.BID, 0, (), True), r"bid True is not allowed"


def bid_out_of_turn() -> tuple[Game, Action, str]:
    g = bid_game()
    return g, Action.bid(2, 5), r"it is not seat 2's turn to bid; waiting for seat\(s\) 0"


def declare_game() -> Game:
    g = bid_game()
    g.apply(Action.bid(0, 1))
    for s in (1, 2, 3):
        g.apply(Action.bid(s, 0))
    return g


def declare_bad_suit() -> tuple[Game, Action, str]:
    return declare_game(), Action(Kind.DECLARE, 0, (), 4), r"declare a suit index 0-3 \(CDSH\), not 4"


def declare_float_suit() -> tuple[Game, Action, str]:
    return declare_game(), Action(Kind.DECLARE, 0, (), 1.0), r"declare a suit index 0-3 \(CDSH\), not 1.0"


def declare_out_of_turn() -> tuple[Game, Action, str]:
    return declare_game(), Action.declare(1, "S"), r"it is not seat 1's turn to declare; waiting for seat\(s\) 0"


def moon_game() -> Game:
    g = Game(STANDARD, seed=0)
    g.dealer = 3
    g.deal = Deal(STANDARD, spread(TOP, {}), (), 3, "hold")
    while g.decision_kind() is Kind.PLAY:
        s = g.to_act()[0]
        g.apply(Action.play(s, max(c for c in range(52) if g.deal.legal_mask(s) >> c & 1)))
    assert g.decision_kind() is Kind.MOON
    return g


def moon_bad_choice() -> tuple[Game, Action, str]:
    return moon_game(), Action(Kind.MOON, 0, (), "both"), "moon choice must be one of subtract_from_self, add_to_others"


def moon_out_of_turn() -> tuple[Game, Action, str]:
    return moon_game(), Action.moon(2, "add_to_others"), r"it is not seat 2's turn to moon; waiting for seat\(s\) 0"


def moon_play_instead() -> tuple[Game, Action, str]:
    return moon_game(), Action.play(0, "2C"), r"play is not possible now: the game waits for moon from seat\(s\) 0"


def after_game_over() -> tuple[Game, Action, str]:
    g = Game(Rules.preset("quick"), seed=3)
    rng = random.Random(3)
    while not g.over:
        s = g.to_act()[0]
        if g.decision_kind() is Kind.PASS:
            g.apply(Action.pass_cards(s, rng.sample(g.deal.hand(s), 3)))
        else:
            g.apply(rng.choice(g.legal_actions(s)))
    return g, Action.play(0, "2C"), "the game is over; no action is expected"


SCENARIOS: list[Scenario] = [
    play_out_of_turn,
    play_card_not_held,
    play_not_two_of_clubs,
    play_not_following_suit,
    play_penalty_on_first_trick,
    lead_heart_before_broken,
    chasse_discard_order,
    auction_penalty_lead,
    play_two_cards,
    play_no_card,
    wrong_kind_pass_in_play,
    wrong_kind_bid_in_play,
    wrong_kind_moon_in_play,
    bad_seat,
    bool_seat,
    bid_too_low,
    bid_over_chips,
    bid_not_whole,
    bid_bool,
    bid_out_of_turn,
    declare_bad_suit,
    declare_float_suit,
    declare_out_of_turn,
    moon_bad_choice,
    moon_out_of_turn,
    moon_play_instead,
    after_game_over,
]


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[s.__name__ for s in SCENARIOS])
def test_illegal_action_raises_with_allowed_and_changes_nothing(scenario: Scenario) -> None:
    g, action, message = scenario()
    before = snapshot(g)
    clone_before = g.clone()
    assert not g.is_legal(action)
    with pytest.raises(IllegalActionError, match=message):
        g.apply(action)
    assert snapshot(g) == before
    assert snapshot(clone_before) == before
    assert len(g.actions) == len(clone_before.actions)


def test_is_legal_agrees_with_apply_for_every_card_in_random_positions() -> None:
    """For each card index and each seat, ``is_legal`` says True exactly for the cards ``apply`` accepts
    (so no rule is enforced by one and forgotten by the other)."""
    rng = random.Random(12)
    for preset in ("standard", "chasse_coeur", "omnibus", "black_maria", "cancellation_hearts", "kitty"):
        g = Game(Rules.preset(preset), seed=rng.randrange(1000))
        for _ in range(60):
            if g.over:
                break
            kind = g.decision_kind()
            seat = g.to_act()[0]
            if kind is Kind.PLAY:
                legal = {a.card for a in g.legal_actions(seat)}
                for s in range(g.rules.players):
                    for c in range(52):
                        ok = g.is_legal(Action(Kind.PLAY, s, (c,)))
                        assert ok == (s == seat and c in legal), (preset, s, c)
                g.apply(Action(Kind.PLAY, seat, (rng.choice(sorted(legal)),)))
            elif kind is Kind.PASS:
                g.apply(Action.pass_cards(seat, rng.sample(g.deal.hand(seat), g.rules.pass_count)))
            else:
                g.apply(rng.choice(g.legal_actions(seat)))
