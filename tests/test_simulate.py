"""Random playouts (corazones.core.simulate) make only legal choices and agree with the validating API."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from corazones.core import PRESETS, Action, Deal, Rules
from corazones.core.cards import mask_cards
from corazones.core.deal import BID, DECLARE, DONE, MOON, PASS, PLAY
from corazones.core.simulate import deal_random, nth_card, play_out, popcount, random_card, random_pass, simulate

CASES = [(name, None) for name in PRESETS] + [("cancellation_hearts", 8), ("cancellation_hearts", 11), ("omnibus", 5)]


def rules_for(name: str, players: int | None) -> Rules:
    return Rules.preset(name) if players is None else Rules.preset(name, players=players)


def replay(start: Deal, done: Deal) -> None:
    """Play ``done``'s recorded choices on ``start`` through ``Deal.apply``, which rejects illegal ones."""
    plays = iter([c for t in done.tricks for _, c in t.plays])
    bids = iter(done.bids)
    while start.phase != DONE:
        phase = start.phase
        if phase == PASS:
            for seat in range(start.n):
                passed = done.passes[seat]
                assert passed is not None
                start.apply(Action.pass_cards(seat, passed))
        elif phase == BID:
            seat, amount = next(bids)
            start.apply(Action.bid(seat, amount))
        elif phase == DECLARE:
            start.apply(Action.declare(start.turn, done.penalty_suit))
        elif phase == PLAY:
            start.apply(Action.play(start.turn, next(plays)))
        else:
            assert phase == MOON and done.moon_choice is not None
            start.apply(Action.moon(start.turn, done.moon_choice))


@pytest.mark.parametrize(("name", "players"), CASES)
def test_playouts_are_legal_and_match_the_validating_api(name: str, players: int | None) -> None:
    rules = rules_for(name, players)
    rng = random.Random(f"{name}/{players}")
    for i in range(25):
        deal = deal_random(rules, rng, dealer=i % rules.players, hand_index=i)
        start = deal.clone()
        plays = play_out(deal, rng)
        assert deal.phase == DONE
        assert plays == sum(len(t.plays) for t in deal.tricks) == rules.hand_size * rules.players
        assert not any(deal.h1) and not any(deal.h2), "every card was played"
        replay(start, deal)
        assert start.tricks == deal.tricks
        assert start.pts == deal.pts and start.pos == deal.pos and start.pen_count == deal.pen_count
        for attr in ("kitty_owner", "shooter", "moon_choice"):
            assert getattr(start, attr) == getattr(deal, attr), attr
        assert start.hand_scores() == deal.hand_scores()


def test_play_out_finishes_a_hand_from_the_middle() -> None:
    rules = Rules.preset("standard")
    rng = random.Random(3)
    deal = deal_random(rules, rng, hand_index=3)  # no pass
    for _ in range(17):  # four tricks and one card
        mask = deal.legal_mask(deal.turn)
        deal.play_card(random_card(mask, rng))
    before = deal.clone()
    assert play_out(deal, rng) == 52 - 17
    assert len(deal.tricks) == 13 and deal.tricks[:4] == before.tricks
    assert sum(deal.pts) in (26, 78, -26)  # 26 in tricks, or a moon shot moved them


def test_simulate_is_deterministic_and_counts_every_card() -> None:
    rules = Rules.preset("standard")
    a = simulate(rules, 60, seed=11)
    b = simulate(rules, 60, seed=11)
    assert (a.deals, a.plays, a.points, a.moons) == (b.deals, b.plays, b.points, b.moons)
    assert a.deals == 60 and a.plays == 60 * 52
    # every hand hands out 26 points, or 78 when the shooter's 26 are added to the others
    assert sum(a.points) == 26 * (60 - a.moons) + 78 * a.moons
    assert simulate(rules, 60, seed=12).points != a.points


def test_random_pass_takes_cards_the_seat_holds() -> None:
    rules = Rules.preset("cancellation_hearts", players=8)  # two decks: copies count
    rng = random.Random(5)
    for i in range(50):
        deal = deal_random(rules, rng, hand_index=i)
        for seat in range(rules.players):
            hand = Counter(deal.hand(seat))
            passed = random_pass(deal, seat, rng)
            assert len(passed) == rules.pass_count and list(passed) == sorted(passed)
            assert not Counter(passed) - hand


def test_mask_helpers_agree_with_lists() -> None:
    rng = random.Random(9)
    for _ in range(300):
        mask = rng.getrandbits(52) or 1
        cards = mask_cards(mask)
        assert popcount(mask) == len(cards)
        assert [nth_card(mask, i) for i in range(len(cards))] == cards


def test_random_card_is_uniform() -> None:
    rng = random.Random(1)
    mask = sum(1 << c for c in range(0, 52, 4))  # 13 cards
    counts = Counter(random_card(mask, rng) for _ in range(13_000))
    assert set(counts) == set(mask_cards(mask))
    assert all(850 < n < 1150 for n in counts.values()), counts
