"""Belief sampling: sampled deals respect everything observed and only what was observed."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from corazones.core import Game, Kind, Rules
from corazones.core.deal import Deal
from corazones.players.belief import Belief
from corazones.players.knowledge import deduce
from corazones.players.pass_prior import pass_prior
from tests.helpers import random_action

PRESETS = [
    ("standard", {}),
    ("kitty", {"players": 5}),
    ("kitty", {}),
    ("cancellation_hearts", {"players": 8}),
    ("cancellation_hearts", {"players": 5}),
    ("black_maria", {}),
    ("chasse_coeur", {}),
    ("auction_hearts", {}),
    ("partnership", {}),
    ("omnibus", {"players": 6}),
    ("arnold_2011", {"players": 3}),
]


def position(preset: int, seed: int, steps: int) -> Game:
    """A game after ``steps`` random legal actions (stopping before it ends)."""
    name, kw = PRESETS[preset]
    g = Game(Rules.preset(name, **kw), seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if g.over:
            break
        a = random_action(g, rng)
        g.apply(a)
        if g.over:
            break
    return g


def real_world(g: Game, seat: int) -> tuple[list[list[int]], list[int]]:
    d = g.deal
    return [d.hand(s) for s in range(g.rules.players)], list(d.kitty)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    preset=st.integers(0, len(PRESETS) - 1),
    seed=st.integers(0, 10_000),
    steps=st.integers(0, 120),
    seat_pick=st.integers(0, 10),
)
def test_samples_respect_every_constraint(preset: int, seed: int, steps: int, seat_pick: int) -> None:
    g = position(preset, seed, steps)
    if g.over:
        return
    seat = seat_pick % g.rules.players
    obs = g.observation(seat)
    belief = Belief(obs)
    hands, kitty = real_world(g, seat)
    if not belief.pre_pass:
        # the real deal is one of the deals the certain constraints allow: they are sound
        # (random play breaks the inferences about sensible discards, so those are left out here)
        assert Belief(obs, infer=False).consistent(hands, kitty) == []
    know = deduce(obs)
    rng = random.Random(seed)
    played = [c for t in obs.tricks for _, c in t.plays] + [c for _, c in obs.trick]
    # a deal weighed by what the pass tells obeys the same constraints as an even one
    weighed = Belief(obs, prior=pass_prior(obs))
    for i in range(6):
        w = (belief if i % 2 else weighed).sample(rng)
        assert belief.consistent(w.hands, w.kitty) == []
        assert sorted(w.hands[seat]) == sorted(belief.my_hand)
        for s in range(g.rules.players):
            if s == seat:
                continue
            for c in w.hands[s]:
                if not belief.pre_pass:
                    assert not know.voids[s] >> (c // 13) & 1, "a void seat got a card of its void suit"
                    assert len(w.hands[s]) == obs.hand_sizes[s]
            for c in know.known[s] if not belief.pre_pass else []:
                assert w.hands[s].count(c) >= know.known[s].count(c), "a card we passed left its receiver"
        # copies: ours + played + sampled == the deck, card by card
        everything = sorted([c for h in w.hands for c in h] + w.kitty + played)
        if not belief.pre_pass:
            assert everything == sorted(g.rules.deck)
        if obs.decision is Kind.PLAY:
            d = Deal.from_observation(obs, w.hands, w.kitty)
            assert d.turn == seat and d.leader == g.deal.leader
            assert d.legal_mask(seat) == g.deal.legal_mask(seat)
            assert d.pts == g.deal.pts


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    preset=st.integers(0, len(PRESETS) - 1),
    seed=st.integers(0, 10_000),
    steps=st.integers(0, 120),
    seat_pick=st.integers(0, 10),
    shooter_pick=st.integers(0, 10),
)
def test_tilt_gives_the_watched_seat_the_top_of_its_suits(
    preset: int, seed: int, steps: int, seat_pick: int, shooter_pick: int
) -> None:
    """A tilted deal is still consistent, and the watched seat could take no higher card of its suits."""
    g = position(preset, seed, steps)
    if g.over:
        return
    n = g.rules.players
    seat = seat_pick % n
    watched = [s for s in range(n) if s != seat][shooter_pick % (n - 1)]
    obs = g.observation(seat)
    belief = Belief(obs)
    w = belief.sample(random.Random(seed))
    before = [sorted(h) for h in w.hands], sorted(w.kitty)
    belief.tilt(w, watched)
    assert belief.consistent(w.hands, w.kitty) == []
    # the same cards in play, the same suit lengths for the watched seat, our hand untouched
    assert sorted([c for h in w.hands for c in h] + w.kitty) == sorted([c for h in before[0] for c in h] + before[1])
    assert sorted(c // 13 for c in w.hands[watched]) == sorted(c // 13 for c in before[0][watched])
    assert sorted(w.hands[seat]) == before[0][seat]
    i = belief.holders.index(watched)
    holders = [w.kitty if s < 0 else w.hands[s] for s in belief.holders]
    mine = holders[i][len(belief.fixed[i]) :]
    for j, other in enumerate(holders):
        if j == i:
            continue
        for y in other[len(belief.fixed[j]) :]:
            for x in mine:
                # a swap the watched seat would gain by is no longer possible
                gain = y > x and y // 13 == x // 13
                assert not (gain and belief.allowed[y] >> i & 1 and belief.allowed[x] >> j & 1), (x, y)


def test_sampler_sees_only_the_observation() -> None:
    """Two games that differ only in hidden cards give equal observations and equal samples."""
    checked = 0
    for seed in range(40):
        g = position(0, seed, 30)
        if g.over or g.decision_kind() is not Kind.PLAY:
            continue
        seat = g.to_act()[0]
        obs = g.observation(seat)
        know = deduce(obs)
        others = [s for s in range(4) if s != seat]
        a, b = others[0], others[1]
        d = g.deal
        swap = None
        for x in d.hand(a):
            for y in d.hand(b):
                if (
                    x // 13 == y // 13
                    and x not in know.known[a]
                    and y not in know.known[b]
                    and x not in (obs.passed or ())
                    and y not in (obs.passed or ())
                ):
                    swap = (x, y)
        if swap is None:
            continue
        g2 = g.clone()
        x, y = swap
        g2.deal.h1[a] ^= (1 << x) | (1 << y)
        g2.deal.h1[b] ^= (1 << x) | (1 << y)
        obs2 = g2.observation(seat)
        assert obs2 == obs
        s1 = Belief(obs).sample(random.Random(5))
        s2 = Belief(obs2).sample(random.Random(5))
        assert s1 == s2
        checked += 1
    assert checked >= 5


def test_first_lead_puts_lower_clubs_in_the_kitty() -> None:
    """With a kitty, the first lead is the lowest club held: lower clubs can only be in the kitty."""
    for seed in range(200):
        g = Game(Rules.preset("kitty", players=4), seed=seed)
        rng = random.Random(seed)
        while g.deal.phase != "play":
            g.apply(random_action(g, rng))
        first = g.deal.first_card
        if first <= 0:
            continue
        g.apply(random_action(g, rng))  # the forced lead
        seat = g.to_act()[0]
        obs = g.observation(seat)
        belief = Belief(obs)
        for _ in range(10):
            w = belief.sample(rng)
            for s, h in enumerate(w.hands):
                if s != seat:
                    assert all(not (c < first) for c in h if c // 13 == 0)
        return
    raise AssertionError("no deal with a club below the first lead in the kitty")


def test_impossible_constraints_still_give_a_deal() -> None:
    """Contradictory facts (never produced by a real game) must not make sampling fail."""
    g = position(0, 3, 20)
    seat = g.to_act()[0]
    belief = Belief(g.observation(seat))
    for c in range(52):
        belief.allowed[c] = 0  # nobody may hold anything
    w = belief.sample(random.Random(1))
    sizes = [len(h) for h in w.hands]
    assert sizes == list(g.observation(seat).hand_sizes)


def test_a_seat_that_threw_something_else_is_taken_not_to_hold_the_queen() -> None:
    """Out of the suit led, a seat that did not throw Q♠ on an opponent's trick is sampled without it."""
    for seed in range(300):
        g = Game(Rules.preset("standard", passes=("hold",)), seed=seed)
        rng = random.Random(seed)
        while not g.over and g.deal.phase == "play":
            d = g.deal
            if d.trick_no > 0 and d.trick_cards and g.decision_kind() is Kind.PLAY:
                seat = d.turn
                led = d.trick_cards[0] // 13
                holds_q = d.h1[seat] >> 36 & 1
                if holds_q and not d.h1[seat] & (0x1FFF << (13 * led)) and led != 2:
                    # a void seat holding Q♠ throws something else instead
                    other = [a for a in g.legal_actions(seat) if a.card != 36]
                    if other:
                        g.apply(other[0])
                        while g.deal.trick_cards:
                            g.apply(random_action(g, rng))
                        t = g.deal.tricks[-1]
                        if t.winner == seat or g.deal.phase != "play":
                            break
                        watcher = g.deal.turn if g.deal.turn != seat else (seat + 1) % 4
                        if g.deal.h1[watcher] >> 36 & 1:
                            break
                        obs = g.observation(watcher)
                        belief = Belief(obs)
                        if not belief.inferred:
                            break
                        for _ in range(20):
                            assert 36 not in belief.sample(rng).hands[seat]
                        # without inference, the same seat does get it sometimes
                        plain = Belief(obs, infer=False)
                        assert any(36 in plain.sample(rng).hands[seat] for _ in range(200))
                        return
            g.apply(random_action(g, rng))
    raise AssertionError("no position where a void seat kept the queen")


@pytest.mark.parametrize(("preset", "kw"), [("cancellation_hearts", {"players": 8}), ("kitty", {"players": 5})])
def test_rebuilt_deals_agree_with_the_table_at_every_play(preset: str, kw: dict[str, object]) -> None:
    """Whole hands: every sampled deal, replayed, has the same leader, turn, legal cards and points.

    With two decks both copies of the lowest club may be dealt; the first seat
    from the eldest hand holding one leads, so the sampler must not give the
    other copy to a seat before the leader.
    """
    rules = Rules.preset(preset, **kw)
    for seed in range(12):
        g = Game(rules, seed=seed)
        rng = random.Random(seed)
        while not g.history:
            seat = g.to_act()[0]
            obs = g.observation(seat)
            if obs.decision is Kind.PLAY:
                belief = Belief(obs)
                for k in range(3):
                    w = belief.sample(random.Random(k))
                    d = Deal.from_observation(obs, w.hands, w.kitty)
                    assert (d.turn, d.leader, d.pts) == (seat, g.deal.leader, g.deal.pts)
                    assert d.legal_mask(seat) == g.deal.legal_mask(seat)
            g.apply(random_action(g, rng))


def test_unconstrained_cards_fall_in_proportion_to_the_room_left() -> None:
    """With no void shown yet, each hidden card lands with a holder as often as that holder has room."""
    g = Game(Rules.preset("kitty", players=5), seed=11)
    rng = random.Random(5)
    while g.decision_kind() is not Kind.PLAY:
        g.apply(random_action(g, rng))
    seat = g.to_act()[0]
    belief = Belief(g.observation(seat), infer=False)
    free = [c for c in belief.items if belief.allowed[c] == (1 << len(belief.holders)) - 1]
    assert len(free) >= 30
    share = [cap / sum(belief.cap) for cap in belief.cap]
    runs = 3000
    counts = {c: [0] * len(belief.holders) for c in free}
    for i in range(runs):
        w = belief.sample(random.Random(i))
        for h, s in enumerate(belief.holders):
            for c in w.kitty if s < 0 else w.hands[s]:
                if c in counts:
                    counts[c][h] += 1
    worst = max(abs(counts[c][h] / runs - share[h]) for c in free for h in range(len(share)))
    assert worst < 0.04, (worst, share)
