"""Property tests of RULES.md §5 (and of the play rules behind it) over random legal games.

For every preset and every player count it allows, hypothesis picks seeds; each seed drives a
game of uniformly random legal decisions, and at every step:

* §5 cards are conserved: each dealt card is in exactly one place (a hand, the current trick, a
  won pile, the annulled-cards pile, the kitty, or passed in transit);
* the engine's legal cards equal a reference written from RULES.md §1-§3 (first lead, follow suit,
  first-trick rule, breaking, Auction's first lead, discard order), and the seat to play is the one
  the rules name;
* §5 what a seat sees: every seat's observation JSON holds only cards that seat may know, and
  scrambling every card hidden from it (other hands, passes between others, the kitty) leaves its
  observation byte-identical.

At the end of each hand: trick winners (including Cancellation) and who got the kitty match a
reference; §5 penalty points sum to the rules' total unless the moon redistributed them, and the
moon scores match §1; chips are conserved and settled as in §4; the game ends exactly when §1/§4
say; and §5 the record replays byte for byte.
"""

from __future__ import annotations

import itertools
import json
import random
import re
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from corazones.core import Action, Deal, Game, Kind, Rules, RulesError
from corazones.core.cards import RANK_LETTERS, SUIT_LETTERS, card_str, format_cards, mask_cards, parse_card
from corazones.core.records import dumps, make_record, replay, verify_record

QS = parse_card("QS")
SEEDS = st.integers(min_value=0, max_value=2**63 - 1)


def random_action(g: Game, rng: random.Random) -> Action:
    seat = g.to_act()[rng.randrange(len(g.to_act()))]
    if g.decision_kind() is Kind.PASS:
        return Action.pass_cards(seat, rng.sample(g.deal.hand(seat), g.rules.pass_count))
    return rng.choice(g.legal_actions(seat))


# ------------------------------------------------------------ references


def ref_winner(rules: Rules, plays: tuple[tuple[int, int], ...]) -> int | None:
    """Winner of a trick by §1 (highest of the suit led) and §3 Cancellation (identical cards cancel;
    two pairs annul under ``two_pairs``; nobody able to win annuls)."""
    led = plays[0][1] // 13
    counts = Counter(c for _, c in plays)
    live = [(c, s) for s, c in plays if c // 13 == led and counts[c] == 1]
    if rules.decks == 2 and rules.cancel_whole_trick == "two_pairs" and sum(k > 1 for k in counts.values()) >= 2:
        return None
    if not live:
        return None
    return max(live)[1]


def ref_piles(d: Deal) -> tuple[list[list[int]], list[int], list[int | None]]:
    """Cards each seat won, cards waiting after annulled tricks, and who received each trick's cards."""
    piles: list[list[int]] = [[] for _ in range(d.n)]
    pending: list[int] = []
    got: list[int | None] = []
    for i, t in enumerate(d.tricks):
        w = ref_winner(d.rules, t.plays)
        assert t.winner == w, f"trick {i + 1} {t.to_json()}: engine winner {t.winner}, rules say {w}"
        cards = pending + [c for _, c in t.plays]
        if w is None and i == d.hand_size - 1:
            w = t.leader  # an annulled last trick goes to its leader
        if w is None:
            pending = cards
            got.append(None)
        else:
            piles[w] += cards
            pending = []
            got.append(w)
    return piles, pending, got


def in_group(token: str, card: int) -> bool:
    t = token.upper()
    if t in SUIT_LETTERS:
        return card // 13 == SUIT_LETTERS.index(t)
    return card % 13 == RANK_LETTERS.index(t)


def ref_leader(d: Deal) -> int:
    """Who must lead the current trick."""
    r = d.rules
    n = d.n
    if d.tricks:
        last = d.tricks[-1]
        return last.leader if last.winner is None else last.winner
    if r.auction:
        return d.declarer if d.declarer is not None else d.eldest
    if r.first_lead == "lowest_club":
        held = [(s, c) for s in range(n) for c in d.hand(s)] + list(zip(d.trick_seats, d.trick_cards))
        clubs = [c for _, c in held if c < 13]
        if clubs:
            low = min(clubs)
            return min((s for s, c in held if c == low), key=lambda s: (s - d.eldest) % n)
    return d.eldest


def ref_legal(d: Deal) -> set[int]:
    """The cards the seat to play may play, straight from RULES.md."""
    r = d.rules
    seat = d.turn
    hand = set(d.hand(seat))
    ps = d.penalty_suit
    values = r.card_values(ps)
    first_trick = not d.tricks
    if not d.trick_cards:
        if first_trick and r.first_lead == "lowest_club" and not r.auction:
            clubs = [c for s in range(d.n) for c in d.hand(s) if c < 13]
            if clubs:
                return {min(clubs)}  # the lowest club in play must be led
        cand = hand
        if first_trick and r.auction and d.declarer is not None:
            cand = {c for c in cand if c // 13 != ps} or cand
        played = [c for t in d.tricks for _, c in t.plays]
        broken = any(c // 13 == ps or (r.queen_breaks_hearts and c == QS) for c in played)
        if r.must_break_hearts and not broken:
            cand = {c for c in cand if c // 13 != ps} or cand
        return cand
    led = d.trick_cards[0] // 13
    follow = {c for c in hand if c // 13 == led}
    if follow:
        return follow
    cand = hand
    for token in r.discard_order:
        group = {c for c in cand if in_group(token, c)}
        if group:
            cand = group
            break
    if first_trick and r.no_points_first_trick:
        cand = {c for c in cand if values[c] <= 0} or cand
    return cand


# ------------------------------------------------------------- step checks


def transit(d: Deal) -> list[list[int]]:
    """Cards passed face down that have not arrived yet, per passer."""
    if d.phase != "pass" and d.received is not None:
        return [[] for _ in range(d.n)]
    return [list(p) if p is not None else [] for p in d.passes]


def check_conservation(d: Deal) -> None:
    """§5: every dealt card is in exactly one place."""
    piles, pending, _ = ref_piles(d)
    here: Counter[int] = Counter()
    for s in range(d.n):
        here.update(d.hand(s))
        here.update(piles[s])
        here.update(transit(d)[s])
    here.update(pending)
    here.update(d.trick_cards)
    here.update(d.kitty)
    assert here == Counter(d.rules.deck), "cards conserved"
    assert sorted(d.pending) == sorted(pending), "annulled cards wait for the next winner"
    sizes = {d.hand_count(s) + (s in d.trick_seats) for s in range(d.n)}
    if d.phase == "play":
        assert len(sizes) == 1, "every seat holds the same number of cards at the start of a trick"


def check_turn_and_legal(d: Deal) -> None:
    if d.phase != "play":
        for s in range(d.n):
            assert d.legal_mask(s) == 0
        return
    leader = ref_leader(d)
    assert d.leader == leader, "the rules name the leader"
    assert d.turn == (leader + len(d.trick_cards)) % d.n, "play goes clockwise from the leader"
    assert d.trick_seats == [(leader + i) % d.n for i in range(len(d.trick_cards))]
    mask = d.legal_mask(d.turn)
    engine = {c for c in range(52) if mask >> c & 1}
    assert engine == ref_legal(d), f"legal cards for seat {d.turn}: engine {engine}"
    assert engine, "the seat to play always has a legal card"
    for s in range(d.n):
        if s != d.turn:
            assert d.legal_mask(s) == 0


CARD_TOKEN = re.compile(r'"((?:10|[2-9JQKA])[CDSH])"')


def card_strings(value: Any) -> set[str]:
    """Every card name anywhere inside a JSON value (the observation writes cards as ``card_str``)."""
    return set(CARD_TOKEN.findall(json.dumps(value)))


NAME_BIT = {card_str(c): 1 << c for c in range(52)}


def names_mask(names: set[str]) -> int:
    m = 0
    for name in names:
        m |= NAME_BIT[name]
    return m


def cards_mask(cards: Any) -> int:
    m = 0
    for c in cards or ():
        m |= 1 << c
    return m


def known_to(g: Game, seat: int) -> int:
    """Cards ``seat`` may know about in the current hand: own hand, own pass, cards received, cards played."""
    d = g.deal
    known = d.h1[seat] | cards_mask(d.passes[seat]) | cards_mask(d.trick_cards)
    if d.received is not None:
        known |= cards_mask(d.received[seat])
    for t in d.tricks:
        known |= cards_mask(c for _, c in t.plays)
    return known


def hidden_from(g: Game, seat: int) -> int:
    """One deck: cards ``seat`` must not see (others' hands less what it passed them, others' passes in
    transit, the face-down kitty)."""
    d = g.deal
    mine = cards_mask(d.passes[seat]) if d.pass_offset else 0
    hidden = cards_mask(d.kitty)
    moving = transit(d)
    for t in range(d.n):
        if t != seat:
            hidden |= d.h1[t] & ~mine
            hidden |= cards_mask(moving[t])
    return hidden


def scrambled(g: Game, seat: int, rng: random.Random) -> Game:
    """A copy of ``g`` whose cards hidden from ``seat`` are dealt out again at random (same counts)."""
    g2 = g.clone()
    d = g2.deal
    others = [t for t in range(d.n) if t != seat]
    moving = [d.received is None and d.passes[t] is not None for t in range(d.n)]
    pool = list(d.kitty)
    for t in others:
        pool += d.hand(t)
        if moving[t]:
            pool += list(d.passes[t])  # type: ignore[arg-type]
    rng.shuffle(pool)
    k = len(d.kitty)
    d.kitty, pool = tuple(pool[:k]), pool[k:]
    for t in others:
        size = d.hand_count(t)
        hand, pool = pool[:size], pool[size:]
        d.h1[t] = d.h2[t] = 0
        for c in hand:
            if d.h1[t] >> c & 1:
                d.h2[t] |= 1 << c
            else:
                d.h1[t] |= 1 << c
        if moving[t]:
            size = len(d.passes[t])  # type: ignore[arg-type]
            d.passes[t], pool = tuple(pool[:size]), pool[size:]
    assert not pool
    return g2


def check_observations(g: Game, rng: random.Random) -> None:
    """§5: 'A player only ever sees: their own hand, cards passed to them, cards played face up, trick
    results and scores. Never another player's hand, nor cards passed between two other players, nor a
    face-down kitty.'"""
    d = g.deal
    one_deck = g.rules.decks == 1
    scramble_seat = rng.randrange(g.rules.players)  # one seat a step, so every seat is covered over a hand
    for seat in range(g.rules.players):
        obs = g.observation(seat)
        j = obs.to_json()
        assert sorted(obs.hand) == sorted(d.hand(seat))
        assert j["passed"] == ([card_str(c) for c in d.passes[seat]] if d.pass_offset and d.passes[seat] else None)
        if d.pass_offset and d.received is not None:
            assert obs.received == d.received[seat]
            assert obs.received_from == (seat - d.pass_offset) % d.n
        else:
            assert obs.received is None, "received cards appear only once everyone has passed"
        assert len(j["history"]) == len(g.history), "no result of the hand in progress"
        seen = names_mask(card_strings([v for k, v in j.items() if k not in ("rules", "history")]))
        extra = seen & ~known_to(g, seat)
        assert not extra, f"seat {seat} sees cards it may not know: {format_cards(mask_cards(extra))}"
        if one_deck:
            leak = seen & hidden_from(g, seat)
            assert not leak, f"seat {seat} sees hidden cards {format_cards(mask_cards(leak))}"
        if obs.decision is Kind.PLAY:
            assert {a.card for a in obs.legal} == {c for c in range(52) if d.legal_mask(seat) >> c & 1}
        if seat == scramble_seat:
            other = scrambled(g, seat, rng).observation(seat).to_json()
            assert other == j, f"seat {seat}'s observation depends on cards hidden from it"


def check_step(g: Game, rng: random.Random, observe: bool) -> None:
    d = g.deal
    check_conservation(d)
    check_turn_and_legal(d)
    if observe:
        check_observations(g, rng)


# --------------------------------------------------------------- hand checks


def check_finished_hand(g: Game, d: Deal, before: dict[str, Any]) -> None:
    r = g.rules
    n = r.players
    h = g.history[-1]
    piles, pending, got = ref_piles(d)
    assert not pending
    vals = r.card_values(d.penalty_suit)
    # kitty owner
    if d.kitty:
        if r.kitty_to == "first_trick":
            owner = next(w for w in got if w is not None)
        else:
            owner = next(
                (w for i, w in enumerate(got) if w is not None and any(vals[c] > 0 for c in piles_taken(d, got, i))),
                d.tricks[-1].winner if d.tricks[-1].winner is not None else d.tricks[-1].leader,
            )
        assert d.kitty_owner == owner, "kitty receiver (RULES.md §2)"
        piles[owner] += list(d.kitty)
    assert Counter(c for p in piles for c in p) == Counter(r.deck), "every card ends in a pile"
    pts = [sum(vals[c] for c in p) for p in piles]
    pos = [sum(vals[c] for c in p if vals[c] > 0) for p in piles]
    assert d.pts == pts, "points are the values of the cards each seat took"
    total = sum(vals[c] for c in r.deck)
    assert sum(d.pts) == total, "§5 the sum of penalty points equals the rules' total"
    moon_total = sum(vals[c] for c in r.deck if vals[c] > 0)
    # moon (§1, partnership §3)
    shooter = None
    if r.moon != "off" and moon_total > 0:
        solo = [s for s in range(n) if pos[s] == moon_total]
        if solo:
            shooter = solo[0]
        elif r.moon_needs == "team":
            for team in r.teams:
                if sum(pos[s] for s in team) == moon_total:
                    shooter = max(team, key=lambda s: (pos[s], -s))
    assert d.shooter == shooter, "the moon is shot exactly when one player (or team) takes every penalty card"
    scores = d.hand_scores()
    if shooter is None:
        assert scores == pts
        assert sum(scores) == total
    else:
        choice = d.moon_choice or r.moon
        assert choice in ("add_to_others", "subtract_from_self")
        for s in range(n):
            base = pts[s] - pos[s]
            if r.team_of(s) == r.team_of(shooter):
                want = base - moon_total if (s == shooter and choice == "subtract_from_self") else base
            else:
                want = base + moon_total if choice == "add_to_others" else base
            assert scores[s] == want
    assert h.points == tuple(d.pts) and h.scores == tuple(scores) and h.shooter == shooter
    assert h.kitty == tuple(sorted(d.kitty)) and h.kitty_owner == d.kitty_owner
    assert list(h.totals) == [a + b for a, b in zip(before["scores"], scores)]
    # the auction (§3)
    if r.auction:
        check_auction(d, before, h.bid)
    # settlement (§4)
    check_settlement(g, d, before)


def piles_taken(d: Deal, got: list[int | None], i: int) -> list[int]:
    """Cards received with trick ``i`` (itself plus annulled tricks waiting before it)."""
    start = i
    while start > 0 and got[start - 1] is None:
        start -= 1
    return [c for t in d.tricks[start : i + 1] for _, c in t.plays]


def check_auction(d: Deal, before: dict[str, Any], bid: int) -> None:
    n = d.n
    if d.forced_declarer is not None:
        assert d.bids == [] and bid == 0 and d.declarer == d.forced_declarer
        return
    assert [s for s, _ in d.bids] == [(d.eldest + i) % n for i in range(n)], "each bids once, eldest to dealer"
    raised = [(s, b) for s, b in d.bids if b]
    assert all(b1 < b2 for (_, b1), (_, b2) in itertools.pairwise(raised)), "only higher bids"
    assert all(b <= before["chips"][s] for s, b in raised), "no bid above the bidder's chips"
    if raised:
        assert d.declarer == raised[-1][0] and bid == raised[-1][1]
        assert d.tricks[0].leader == d.declarer
    else:
        assert d.declarer is None and d.penalty_suit == 3 and d.tricks[0].leader == d.eldest


def check_settlement(g: Game, d: Deal, before: dict[str, Any]) -> None:
    r = g.rules
    n = r.players
    h = g.history[-1]
    delta = list(h.chips_delta)
    if r.settlement == "chips_1887":
        low = min(d.pts)
        winners = [s for s in range(n) if d.pts[s] == low]
        want = [0 if s in winners else -d.pts[s] for s in range(n)]
        pool = before["pool"]
        if len(winners) < n:
            pot = -sum(want) + pool
            for s in winners:
                want[s] = pot // len(winners)
            pool = pot % len(winners)
        assert delta == want and g.pool == pool
    elif r.settlement == "chips_pool":
        bid = h.bid
        want = [-k for k in d.pen_count]
        pool = before["pool"] + sum(d.pen_count) + bid
        if d.declarer is not None:
            want[d.declarer] -= bid
        clean = [s for s in range(n) if d.pen_count[s] == 0]
        won = len(clean) in (1, 2) and n - len(clean) > 1
        if won:
            for s in clean:
                want[s] += pool // len(clean)
            pool %= len(clean)
        assert delta == want and g.pool == pool
        if not won and not g.over:
            assert g.deal.forced_declarer == d.declarer, "a failed hand's declarer names the next suit"
            if d.declarer is not None:
                assert g.deal.phase == "declare" and g.deal.to_act() == (d.declarer,)
    else:
        assert delta == [0] * n and g.pool == 0
    if r.settlement in ("chips_1887", "chips_pool"):
        assert sum(g.chips) + g.pool == n * r.stake, "chips are conserved"
        assert pen_counts_match(d)


def pen_counts_match(d: Deal) -> bool:
    vals = d.rules.card_values(d.penalty_suit)
    piles, _, _ = ref_piles(d)
    if d.kitty_owner is not None:
        piles[d.kitty_owner] += list(d.kitty)
    return d.pen_count == [sum(1 for c in p if vals[c] > 0) for p in piles]


def check_game_after_hand(g: Game, before: dict[str, Any]) -> None:
    r = g.rules
    n = r.players
    assert g.scores == [sum(h.scores[s] for h in g.history) for s in range(n)]
    limit = r.hands is not None and len(g.history) >= r.hands
    if r.settlement in ("chips_1887", "chips_pool"):
        over = limit or min(g.chips) <= 0
        if over:
            assert g.winners == tuple(s for s in range(n) if g.chips[s] == max(g.chips))
    else:
        totals = [sum(g.scores[s] for s in team) for team in r.teams]
        reached = limit or (r.target is not None and max(totals) >= r.target)
        low = [i for i, t in enumerate(totals) if t == min(totals)]
        # a tie plays on at the target; the agreed hands end the game unless tie_break = play_on_always
        plays_on = r.tie_break == "play_on_always" or (r.tie_break == "play_on" and not limit)
        over = reached and (len(low) == 1 or not plays_on)
        if over:
            assert g.winners == tuple(s for i in low for s in r.teams[i])
    assert g.over == over, "§1/§4 end of game"
    if not over:
        assert g.dealer == (before["dealer"] + 1) % n, "the deal moves one seat clockwise"
        want = r.pass_direction(g.hand_index) if r.pass_count else "hold"
        assert g.deal.pass_direction == want, "the pass cycle (RULES.md §1, §2)"
        assert g.deal.eldest == (g.dealer + 1) % n


# ------------------------------------------------------------------ drivers


def play_checked(g: Game, rng: random.Random, hands: int | None, observe: bool = True) -> Game:
    """Play ``hands`` hands (or to the end) with random legal actions, checking everything."""
    stop = None if hands is None else g.hand_index + hands
    while not g.over and (stop is None or g.hand_index < stop):
        before = {"scores": g.scores[:], "chips": g.chips[:], "pool": g.pool, "dealer": g.dealer}
        index = g.hand_index
        while g.hand_index == index and not g.over:
            check_step(g, rng, observe)
            g.apply(random_action(g, rng))
        d = g.last_deal
        assert d is not None and d.phase == "done"
        check_finished_hand(g, d, before)
        check_game_after_hand(g, before)
        check_step(g, rng, observe)
    return g


def check_record(g: Game) -> None:
    """§5 'Same seed and same decisions give the same game, byte for byte in its record.'"""
    text = dumps(make_record(g))
    again = Game(g.rules, g.seed)
    for a in g.actions:
        again.apply(a)
    assert dumps(make_record(again)) == text
    assert dumps(make_record(replay(json.loads(text)))) == text
    verify_record(json.loads(text))


# -------------------------------------------------------------- the configs

HAND_CONFIGS: list[tuple[str, dict[str, Any]]] = (
    [("standard", {"players": n}) for n in range(3, 8)]
    + [("kitty", {"players": n}) for n in range(3, 8)]
    + [("kitty", {"players": n, "kitty_to": "first_trick"}) for n in (4, 5)]
    + [("cancellation_hearts", {"players": n}) for n in range(5, 12)]
    + [("cancellation_hearts", {"players": n, "cancel_whole_trick": "no_winner"}) for n in (5, 8)]
    + [("partnership", {"players": n}) for n in (4, 6)]
    + [("partnership", {"players": n, "moon_needs": "team"}) for n in (4, 6)]
    + [("hearts_1887", {"players": n}) for n in range(3, 7)]
    + [("arnold_2011", {"players": n}) for n in range(3, 7)]
    + [("auction_hearts", {"players": n}) for n in (3, 4, 5)]
    + [("black_maria", {"players": n}) for n in (3, 4)]
    + [("omnibus", {"players": n}) for n in (4, 5)]
    + [
        ("standard", {"moon": "add_to_others"}),
        ("standard", {"moon": "subtract_from_self", "queen_breaks_hearts": True}),
        ("standard", {"moon": "off", "no_points_first_trick": False}),
        ("standard", {"passes": ["right"]}),
        ("standard", {"passes": ["across"]}),
        ("standard", {"players": 6, "passes": ["across"], "pass_count": 2}),
        ("black_lady", {}),
        ("quick", {}),
        ("spot_hearts", {}),
        ("eagle_hearts", {}),
        ("eagle_hearts", {"hearts": "eagle_face"}),
        ("black_jack", {}),
        ("four_jacks", {}),
        ("chasse_coeur", {}),
        ("chasse_coeur", {"players": 5}),
    ]
)


def config_id(cfg: tuple[str, dict[str, Any]]) -> str:
    preset, opts = cfg
    return preset + "".join(f"-{k}={v}" for k, v in opts.items())


@pytest.mark.parametrize("cfg", HAND_CONFIGS, ids=[config_id(c) for c in HAND_CONFIGS])
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=SEEDS)
def test_random_hands_keep_every_invariant(cfg: tuple[str, dict[str, Any]], seed: int) -> None:
    """One hand per seed, every step checked, every seat's view checked at every step."""
    preset, opts = cfg
    g = Game(Rules.preset(preset, **opts), seed=seed)
    play_checked(g, random.Random(seed), hands=1)


# Smaller targets keep whole games short while still reaching every end rule.
GAME_CONFIGS: list[tuple[str, dict[str, Any]]] = [
    ("standard", {"target": 40}),
    ("standard", {"players": 5, "target": 30, "tie_break": "shared"}),
    ("partnership", {"target": 60}),
    ("partnership", {"players": 6, "target": 60, "moon_needs": "team"}),
    ("quick", {}),
    ("arnold_2011", {"hands": 3, "target": None}),
    ("arnold_2011", {"players": 5, "target": 30}),
    ("hearts_1887", {"stake": 8}),
    ("hearts_1887", {"players": 5, "stake": 10, "hands": 6}),
    ("auction_hearts", {"stake": 10}),
    ("auction_hearts", {"players": 3, "stake": 10}),
    ("cancellation_hearts", {"players": 7, "target": 60}),
    ("kitty", {"players": 4, "target": 40}),
    ("omnibus", {"target": 40, "settlement": "average_stakes"}),
    ("chasse_coeur", {"target": 80}),
]


@pytest.mark.parametrize("cfg", GAME_CONFIGS, ids=[config_id(c) for c in GAME_CONFIGS])
@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=SEEDS)
def test_random_whole_games_end_by_the_rules_and_replay_byte_for_byte(
    cfg: tuple[str, dict[str, Any]], seed: int
) -> None:
    preset, opts = cfg
    g = Game(Rules.preset(preset, **opts), seed=seed)
    play_checked(g, random.Random(seed), hands=None, observe=False)
    assert g.over and g.winners
    check_record(g)


MANY_CONFIGS = [
    ("standard", {}),
    ("kitty", {"players": 5}),
    ("cancellation_hearts", {"players": 6}),
    ("auction_hearts", {}),
    ("chasse_coeur", {}),
    ("black_maria", {}),
]


@pytest.mark.parametrize("cfg", MANY_CONFIGS, ids=[config_id(c) for c in MANY_CONFIGS])
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=SEEDS)
def test_many_random_hands_conserve_cards_points_and_legality(cfg: tuple[str, dict[str, Any]], seed: int) -> None:
    """Volume: many single hands with the cheap checks (no per-seat observation scrambling)."""
    preset, opts = cfg
    g = Game(Rules.preset(preset, **opts), seed=seed)
    play_checked(g, random.Random(seed), hands=1, observe=False)


# ------------------------------------------------------- rules that can be played

#: The cards some player count strips (RULES.md §2), and two that are never stripped.
STRIPPABLE = ("2C", "2D", "3C", "3D", "4C", "2S", "QS", "JD")


@settings(max_examples=300, deadline=None)
@given(
    players=st.integers(min_value=3, max_value=7),
    strip=st.sampled_from(("seed_003", "arnold_2011", "kitty")),
    hearts=st.sampled_from(("one", "spot", "none")),
    card_points=st.dictionaries(st.sampled_from(STRIPPABLE), st.integers(min_value=-13, max_value=13), max_size=3),
)
def test_accepted_rules_always_put_a_penalty_card_in_play(
    players: int, strip: str, hearts: str, card_points: dict[str, int]
) -> None:
    """§5's penalty total must be something to take: rules the engine accepts leave at least one penalty card
    in the deck it deals (not only on stripped cards), else every hand scores nothing and no score ever
    reaches the target (§1)."""
    try:
        r = Rules(players=players, strip=strip, hearts=hearts, card_points=card_points)
    except RulesError:
        return  # refused, with its reason: nothing is dealt
    values = r.card_values()
    assert any(values[c] > 0 for c in r.deck), f"no penalty card in play with {r.to_dict()}"
