"""The score pad agrees with the engine: random games of every preset, entered both ways.

Each hand the engine plays is reported to a pad the way people at a table
would: who took which cards (counted cards per player plus the taker of each
named card, read from the tricks and the kitty) on one pad, each player's
points on another.  Both pads must give the engine's hand scores, totals,
chips, pool, end of game, winners and average stakes.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from corazones.core import Action, Game, Kind, Rules
from corazones.core.deal import Deal
from corazones.core.observation import HandResult
from corazones.core.pad import Entry, Pad, PadError, layout
from corazones.core.rules import PRESETS
from corazones.core.scoring import find_shooter, moon_scores
from tests.helpers import random_action

#: Every preset, plus player counts, partnerships and moon settings the presets do not show.
CASES = [(name, {}) for name in PRESETS] + [
    ("standard", {"players": 3}),
    ("kitty", {"players": 5}),
    ("omnibus", {"players": 6, "moon": "add_to_others"}),
    ("partnership", {"moon_needs": "team"}),
    ("partnership", {"players": 6}),
    ("hearts_1887", {"players": 5, "stake": 10}),
    ("auction_hearts", {"players": 3, "stake": 8}),
    ("arnold_2011", {"settlement": "average_stakes", "target": None, "hands": 3}),
    ("cancellation_hearts", {"players": 5, "cancel_whole_trick": "no_winner"}),
    ("eagle_hearts", {"hearts": "eagle_face"}),
]


def cards_won(deal: Deal) -> list[Counter[int]]:
    """The cards each seat ended the hand with: tricks won, annulled tricks carried on, the kitty."""
    won: list[Counter[int]] = [Counter() for _ in range(deal.rules.players)]
    pending: list[int] = []
    tricks = deal.tricks
    for i, t in enumerate(tricks):
        pile = pending + [c for _, c in t.plays]
        if t.winner is None and i < len(tricks) - 1:
            pending = pile
            continue
        won[t.leader if t.winner is None else t.winner].update(pile)
        pending = []
    if deal.kitty:
        assert deal.kitty_owner is not None
        won[deal.kitty_owner].update(deal.kitty)
    return won


def quick_entry(rules: Rules, deal: Deal, result: HandResult) -> Entry:
    lay = layout(rules, result.penalty_suit)
    won = cards_won(deal)
    counts = [sum(k for c, k in w.items() if c in lay.counted) for w in won]
    named = {c: tuple(s for s in range(rules.players) for _ in range(won[s][c])) for c, _, _ in lay.named}
    return Entry.quick(counts, named, **auction_fields(result))


def auction_fields(result: HandResult) -> dict[str, object]:
    extra: dict[str, object] = {"suit": result.penalty_suit, "declarer": result.declarer, "bid": result.bid}
    if result.moon_choice is not None:
        extra["moon"] = result.moon_choice
    return extra


def points_entry(result: HandResult) -> Entry:
    shooters = () if result.shooter is None else (result.shooter,)
    return Entry.by_points(result.points, shooters=shooters, **auction_fields(result))


def hog_action(game: Game, rng: random.Random, hog: int) -> Action:
    """Random play, except that in play the ``hog`` takes tricks with its highest card and the others duck.

    Uniformly random play almost never shoots the moon; half the hands are played this way so it does.
    """
    seat = game.to_act()[0]
    if game.decision_kind() is not Kind.PLAY:
        return random_action(game, rng)
    legal = game.legal_actions(seat)
    if seat == hog:
        return max(legal, key=lambda a: a.cards[0] % 13)
    trick = game.deal.trick_cards
    values = game.deal.values
    if trick and all(a.cards[0] // 13 != trick[0] // 13 for a in legal):  # void: throw the costliest card
        return max(legal, key=lambda a: (values[a.cards[0]], a.cards[0] % 13))
    return min(legal, key=lambda a: a.cards[0] % 13)


def play_and_enter(rules: Rules, seed: int, max_hands: int = 12) -> tuple[Game, Pad, Pad]:
    game = Game(rules, seed=seed)
    rng = random.Random(seed)
    by_cards = Pad(rules)
    by_points = Pad(rules)
    while not game.over and game.hand_index < max_hands:
        hand = game.hand_index
        deal = game.deal
        hog = rng.randrange(rules.players) if rng.random() < 0.5 else None
        while game.hand_index == hand and not game.over:
            game.apply(random_action(game, rng) if hog is None else hog_action(game, rng, hog))
        result = game.history[-1]
        # the engine's moon rule and scoring.py's agree on the finished deal
        assert find_shooter(rules, deal.pos, deal.pos_total) == deal.shooter
        assert moon_scores(rules, deal.pts, deal.pos, deal.shooter, deal.moon_choice, deal.pos_total) == result.scores
        row = by_cards.add(quick_entry(rules, deal, result))
        prow = by_points.add(points_entry(result))
        for r in (row, prow):
            assert r.scores == result.scores
            assert r.totals == result.totals
            assert r.chips == tuple(game.chips) or not by_cards.uses_chips
            assert r.pool == result.pool
        assert row.chips_delta == result.chips_delta
        assert row.penalty_cards == result.penalty_cards
        assert row.shooter == result.shooter
        assert row.over == game.over and prow.over == game.over
    return game, by_cards, by_points


@pytest.mark.parametrize(("preset", "options"), CASES, ids=[f"{p}-{'-'.join(map(str, o.values()))}" for p, o in CASES])
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32))
def test_pad_agrees_with_the_engine(preset: str, options: dict[str, object], seed: int) -> None:
    extra: dict[str, object] = {"target": 40} if PRESETS[preset].get("target", 100) and "target" not in options else {}
    if preset in ("hearts_1887", "auction_hearts") and "stake" not in options:
        extra = {"stake": 12}
    rules = Rules.preset(preset, **{**extra, **options})
    game, by_cards, by_points = play_and_enter(rules, seed)
    for pad in (by_cards, by_points):
        assert pad.totals == tuple(game.scores)
        assert pad.over == game.over
        assert pad.winners == game.winners
        stakes = pad.stakes()
        assert (stakes is None) == (game.stakes() is None)
        if stakes is not None:
            assert tuple(float(x) for x in stakes) == game.stakes()
        if pad.uses_chips:
            assert pad.chips == tuple(game.chips) and pad.pool == game.pool
            assert pad.carry_declarer == game.carry_declarer or game.over


MOON_CASES = [(p, o) for p, o in CASES if Rules.preset(p, **o).moon != "off"]


@pytest.mark.parametrize(
    ("preset", "options"), MOON_CASES, ids=[f"{p}-{'-'.join(map(str, o.values()))}" for p, o in MOON_CASES]
)
def test_pad_agrees_with_the_engine_on_the_moon(preset: str, options: dict[str, object]) -> None:
    """Hands dealt so one seat holds the top cards, played until the engine sees moons; the pad scores them alike."""
    rules = Rules.preset(preset, **options)
    rng = random.Random(f"moon/{preset}/{options}")
    n = rules.players
    moons = 0
    for _attempt in range(400):
        deck = list(rules.deck)
        rng.shuffle(deck)
        deck.sort(key=lambda c: -(c % 13))
        hog = rng.randrange(n)
        size = rules.hand_size
        top, rest = deck[:size], deck[size:]
        rng.shuffle(rest)
        hands = [top if s == hog else [rest.pop() for _ in range(size)] for s in range(n)]
        deal = Deal(rules, hands, rest, (hog - 1) % n, "hold")
        while deal.phase == "play":
            seat = deal.turn
            legal = [a.cards[0] for a in deal.legal_actions(seat)]
            if seat == hog:
                card = max(legal, key=lambda c: c % 13)
            elif deal.trick_cards and all(c // 13 != deal.trick_cards[0] // 13 for c in legal):
                card = max(legal, key=lambda c: (deal.values[c], c % 13))
            else:
                card = min(legal, key=lambda c: c % 13)
            deal.apply(Action.play(seat, card))
        if deal.phase == "moon":
            deal.apply(Action.moon(deal.turn, rng.choice(("subtract_from_self", "add_to_others"))))
        if deal.shooter is None:
            continue
        moons += 1
        choice = deal.moon_choice or rules.moon
        scores = tuple(deal.hand_scores())
        won = cards_won(deal)
        lay = layout(rules)
        counts = [sum(k for c, k in w.items() if c in lay.counted) for w in won]
        named = {c: tuple(s for s in range(n) for _ in range(won[s][c])) for c, _, _ in lay.named}
        extra = {"moon": choice} if rules.moon == "choice" else {}
        assert Pad(rules).add(Entry.quick(counts, named, **extra)).scores == scores
        row = Pad(rules).add(Entry.by_points(deal.pts, shooters=(deal.shooter,), **extra))
        assert row.scores == scores and row.shooter == deal.shooter
        if moons == 5:
            break
    assert moons >= 3, f"only {moons} moons in 400 stacked deals"


@pytest.mark.parametrize("preset", ["standard", "omnibus", "auction_hearts", "hearts_1887"])
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), pick=st.integers(0, 100), other=st.integers(0, 100))
def test_edit_and_remove_equal_a_pad_rebuilt_from_scratch(preset: str, seed: int, pick: int, other: int) -> None:
    """Changing hand i is all or nothing, and leaves exactly the pad made from the changed list of hands."""
    rules = Rules.preset(preset, **({"stake": 15} if preset in ("auction_hearts", "hearts_1887") else {"target": 60}))
    _game, pad, _ = play_and_enter(rules, seed, max_hands=8)
    entries = list(pad.entries)
    i = pick % len(entries)
    j = other % len(entries)
    for change, new_list in (
        (lambda p: p.remove(i), entries[:i] + entries[i + 1 :]),
        (lambda p: p.edit(i, entries[j]), [*entries[:i], entries[j], *entries[i + 1 :]]),
    ):
        trial = Pad(rules, entries=list(entries))
        try:
            fresh: Pad | None = Pad(rules, entries=new_list)
        except PadError:
            fresh = None
        if fresh is None:
            with pytest.raises(PadError):
                change(trial)
            assert trial.rows == pad.rows  # refused: nothing changed
        else:
            change(trial)
            assert trial.rows == fresh.rows and trial.entries == fresh.entries
    if entries:
        trial = Pad(rules, entries=list(entries))
        assert trial.undo() == entries[-1] and trial.rows == pad.rows[:-1]
