"""RULES.md §5, what a seat sees: 'their own hand, cards passed to them, cards played face up, trick
results and scores. Never another player's hand, nor cards passed between two other players, nor a
face-down kitty.'  Fixed situations here; random games are checked step by step in test_properties.
"""

from __future__ import annotations

import json
import random

import pytest

from corazones.core import Action, Deal, Game, IllegalActionError, Kind, Observation, Rules
from corazones.core.cards import card_str

STANDARD = Rules.preset("standard")


def public_text(obs: Observation) -> str:
    """The observation's JSON without the rules (whose card_points name cards such as QS)."""
    return json.dumps({k: v for k, v in obs.to_json().items() if k != "rules"})


def text_of(g: Game, seat: int) -> str:
    return public_text(g.observation(seat))


def cards_in(text: str, cards: list[int] | tuple[int, ...]) -> list[str]:
    return [card_str(c) for c in cards if f'"{card_str(c)}"' in text]


def test_pass_phase_shows_own_pass_only_and_received_after_everyone_passed() -> None:
    g = Game(STANDARD, seed=21)
    d = g.deal
    assert d.pass_direction == "left"
    hands = [d.hand(s) for s in range(4)]
    g.apply(Action.pass_cards(1, hands[1][:3]))
    g.apply(Action.pass_cards(2, hands[2][:3]))
    # seat 0 has not passed: it must not see what 1 passed to 2, nor 2's pass to 3, nor any hand
    o0 = g.observation(0)
    t0 = public_text(o0)
    assert o0.passed is None and o0.received is None
    assert o0.pass_to == 1 and o0.received_from == 3
    assert cards_in(t0, hands[1] + hands[2] + hands[3]) == []
    assert o0.decision is Kind.PASS and o0.legal == (), "pass choices are not listed (too many)"
    # seat 1 sees its own pass, not the cards coming from seat 0, nor seat 2's pass to 3
    o1 = g.observation(1)
    assert o1.passed == tuple(hands[1][:3]) and o1.received is None
    assert o1.decision is None, "seat 1 has passed: nothing to decide"
    assert cards_in(public_text(o1), hands[2] + hands[0] + hands[3]) == []
    g.apply(Action.pass_cards(0, hands[0][:3]))
    g.apply(Action.pass_cards(3, hands[3][:3]))
    for s in range(4):
        o = g.observation(s)
        assert o.received == tuple(hands[(s - 1) % 4][:3])
        text = public_text(o)
        # cards that went between two other seats stay hidden
        for a in range(4):
            b = (a + 1) % 4
            if s not in (a, b):
                moved = [c for c in hands[a][:3] if c not in g.deal.trick_cards]
                assert cards_in(text, moved) == []


def test_observation_never_holds_other_hands() -> None:
    g = Game(STANDARD, seed=22)
    rng = random.Random(22)
    for _ in range(30):
        seat = g.to_act()[0]
        if g.decision_kind() is Kind.PASS:
            g.apply(Action.pass_cards(seat, rng.sample(g.deal.hand(seat), 3)))
        else:
            g.apply(rng.choice(g.legal_actions(seat)))
    for s in range(4):
        text = text_of(g, s)
        for t in range(4):
            if t != s:
                mine_passed = set(g.deal.passes[s] or ())
                assert cards_in(text, [c for c in g.deal.hand(t) if c not in mine_passed]) == []


def test_kitty_stays_face_down_until_the_hand_result() -> None:
    """The kitty's cards appear in no observation during the hand, only its size and later its owner;
    the hand result reveals them with the seat that received them."""
    g = Game(Rules.preset("kitty", passes=("hold",)), seed=23)
    kitty = list(g.deal.kitty)
    rng = random.Random(23)
    while g.hand_index == 0:
        for s in range(4):
            o = g.observation(s)
            assert o.kitty_size == 4
            assert cards_in(public_text(o), [c for c in kitty if c not in o.hand]) == []
        seat = g.to_act()[0]
        g.apply(rng.choice(g.legal_actions(seat)))
    h = g.history[0]
    assert sorted(h.kitty) == sorted(kitty) and h.kitty_owner is not None
    assert g.observation(2).history[0].kitty == h.kitty


def test_cancellation_kitty_hidden_even_when_a_copy_is_visible() -> None:
    """Two decks: the observation's multiset of cards never exceeds what the seat may know."""
    g = Game(Rules.preset("cancellation_hearts", players=5, passes=("hold",)), seed=24)
    o = g.observation(0)
    j = o.to_json()
    assert j["kitty_size"] == 4 and "kitty" not in j
    assert sorted(o.hand) == sorted(g.deal.hand(0))


def test_only_the_seat_to_act_gets_a_decision_and_legal_actions() -> None:
    g = Game(Rules.preset("hearts_1887"), seed=25)
    turn = g.deal.turn
    for s in range(4):
        o = g.observation(s)
        if s == turn:
            assert o.decision is Kind.PLAY and o.turn == turn
            assert {a.card for a in o.legal} == {c for c in range(52) if g.deal.legal_mask(s) >> c & 1}
            assert all(a.seat == s for a in o.legal)
        else:
            assert o.decision is None and o.legal == ()


def test_observation_is_a_snapshot() -> None:
    g = Game(Rules.preset("hearts_1887"), seed=26)
    o = g.observation(g.deal.turn)
    before = json.dumps(o.to_json())
    g.apply(o.legal[0])
    assert json.dumps(o.to_json()) == before
    with pytest.raises(AttributeError):
        o.hand = ()  # type: ignore[misc]


def test_unknown_seat_is_refused() -> None:
    g = Game(STANDARD, seed=1)
    with pytest.raises(IllegalActionError, match="seat 4 does not exist; seats are 0 to 3"):
        g.observation(4)
    with pytest.raises(IllegalActionError, match="seat -1 does not exist"):
        g.observation(-1)


def test_public_facts_are_shown() -> None:
    """Trick results, points taken, scores and the hand sizes are public."""
    g = Game(Rules.preset("hearts_1887"), seed=27)
    rng = random.Random(27)
    for _ in range(9):
        g.apply(rng.choice(g.legal_actions(g.to_act()[0])))
    d = g.deal
    for s in range(4):
        o = g.observation(s)
        assert o.tricks == tuple(d.tricks)
        assert o.trick == tuple(zip(d.trick_seats, d.trick_cards))
        assert o.points_taken == tuple(d.pts)
        assert o.hand_sizes == tuple(d.hand_count(t) for t in range(4))
        assert o.scores == tuple(g.scores) and o.chips == tuple(g.chips)


def test_auction_observation_shows_bids_declarer_and_suit_values() -> None:
    g = Game(Rules.preset("auction_hearts"), seed=28)
    first = g.to_act()[0]
    g.apply(Action.bid(first, 2))
    for _ in range(3):
        g.apply(Action.bid(g.to_act()[0], 0))
    g.apply(Action.declare(first, "D"))
    o = g.observation((first + 1) % 4)
    assert o.bids[0] == (first, 2) and o.declarer == first and o.penalty_suit == 1
    assert o.card_values[13] == 1 and o.card_values[39] == 0
    assert o.to_json()["penalty_suit"] == "D"


def test_from_observation_rebuilds_the_same_position() -> None:
    """Deal.from_observation with the true hands agrees with the real deal (used by search)."""
    for preset in ("standard", "omnibus", "chasse_coeur", "cancellation_hearts", "auction_hearts"):
        g = Game(Rules.preset(preset), seed=29)
        rng = random.Random(29)
        for _ in range(40):
            seat = g.to_act()[0]
            if g.decision_kind() is Kind.PASS:
                g.apply(Action.pass_cards(seat, rng.sample(g.deal.hand(seat), g.rules.pass_count)))
            else:
                g.apply(rng.choice(g.legal_actions(seat)))
        if g.decision_kind() is not Kind.PLAY:
            continue
        d = g.deal
        seat = d.turn
        obs = g.observation(seat)
        rebuilt = Deal.from_observation(obs, [d.hand(s) for s in range(d.n)], d.kitty)
        assert rebuilt.turn == d.turn and rebuilt.leader == d.leader
        assert rebuilt.legal_mask(seat) == d.legal_mask(seat), preset
        assert rebuilt.pts == d.pts and rebuilt.broken == d.broken
        assert rebuilt.trick_cards == d.trick_cards
