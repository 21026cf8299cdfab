"""Fast random playouts: whole hands played with uniformly random legal choices.

Monte-Carlo bots finish sampled positions with :func:`play_out`, and
``bench/engine.py`` measures the engine's throughput with :func:`simulate`.
Both drive :class:`~corazones.core.deal.Deal` through its non-validating hot
path (:meth:`~corazones.core.deal.Deal.legal_mask` and
:meth:`~corazones.core.deal.Deal.play_card`), so every rule still comes from
``Deal`` and :class:`~corazones.core.rules.Rules`; this module only chooses.

Random choices come from a ``random.Random`` passed in, so a seed gives the
same playout every time.  A card is drawn uniformly from a legal mask by
counting its bits and walking to the chosen one, which avoids building a list
of actions for every play.
"""

from __future__ import annotations

import random
from typing import Final

from corazones.core.actions import MOON_CHOICES, Action
from corazones.core.deal import BID, DECLARE, MOON, PASS, PLAY, Deal
from corazones.core.native import is_compiled_file, warn_if_stale
from corazones.core.rules import Rules

# In the compiled build ``int.bit_count()`` is a generic (slow) method call
# while indexing a table of 13-bit chunks is a few machine instructions; the
# interpreter is the other way round.
_COMPILED: Final = is_compiled_file(__file__)
_POP13: Final = tuple(i.bit_count() for i in range(1 << 13))


def popcount(mask: int) -> int:
    """Number of cards in a mask of the 52 cards."""
    if _COMPILED:
        return _POP13[mask & 8191] + _POP13[mask >> 13 & 8191] + _POP13[mask >> 26 & 8191] + _POP13[mask >> 39]
    return mask.bit_count()


def nth_card(mask: int, index: int) -> int:
    """The ``index``-th card (0-based, lowest first) of a non-empty ``mask``."""
    while index:
        mask &= mask - 1
        index -= 1
    return (mask & -mask).bit_length() - 1


def random_card(mask: int, rng: random.Random) -> int:
    """A card drawn uniformly from a non-empty ``mask``."""
    return nth_card(mask, int(rng.random() * popcount(mask)))


def random_pass(deal: Deal, seat: int, rng: random.Random) -> tuple[int, ...]:
    """``pass_count`` cards drawn uniformly from ``seat``'s hand (each copy counts once).

    Drawing one card at a time without replacement makes every set of cards
    equally likely, as ``random.sample`` over the hand would.
    """
    rand = rng.random
    h1 = deal.h1[seat]
    h2 = deal.h2[seat]
    cards: list[int] = []
    for _ in range(deal.rules.pass_count):
        c1 = popcount(h1)
        i = int(rand() * (c1 + popcount(h2)))
        c = nth_card(h1, i) if i < c1 else nth_card(h2, i - c1)
        bit = 1 << c
        if h2 & bit:
            h2 ^= bit
        else:
            h1 ^= bit
        cards.append(c)
    cards.sort()
    return tuple(cards)


def deal_random(rules: Rules, rng: random.Random, dealer: int = 0, hand_index: int = 0) -> Deal:
    """A freshly shuffled hand; the pass direction is the one of hand number ``hand_index``."""
    rand = rng.random
    deck = list(rules.deck)
    # Fisher-Yates with one random() per card: the same uniform shuffle as
    # ``rng.shuffle`` at a third of its cost (it draws random bits in Python).
    for i in range(len(deck) - 1, 0, -1):
        j = int(rand() * (i + 1))
        deck[i], deck[j] = deck[j], deck[i]
    n = rules.players
    size = rules.hand_size
    hands = [deck[s * size : (s + 1) * size] for s in range(n)]
    return Deal(rules, hands, deck[n * size :], dealer, rules.pass_direction(hand_index))


def play_out(deal: Deal, rng: random.Random) -> int:
    """Finish ``deal`` from any phase with uniformly random legal choices; return the cards played.

    Passes and plays use the fast path; the rare decisions (bids, the
    declaration, the moon choice) go through the validating :meth:`Deal.apply`.
    Read the result from ``deal.hand_scores()``.
    """
    rand = rng.random
    plays = 0
    while True:
        phase = deal.phase
        if phase == PLAY:
            # random_card inlined: this line runs for every card played
            mask = deal.legal_mask(deal.turn)
            i = int(rand() * (popcount(mask) if _COMPILED else mask.bit_count()))
            while i:
                mask &= mask - 1
                i -= 1
            deal.play_card((mask & -mask).bit_length() - 1)
            plays += 1
        elif phase == PASS:
            for seat in range(deal.n):
                if deal.passes[seat] is None:
                    deal._pass(seat, random_pass(deal, seat, rng))
        elif phase == BID:
            seat = deal.turn
            deal.apply(Action.bid(seat, rng.choice(deal.bid_range(seat))))
        elif phase == DECLARE:
            deal.apply(Action.declare(deal.turn, int(rng.random() * 4)))
        elif phase == MOON:
            deal.apply(Action.moon(deal.turn, MOON_CHOICES[int(rng.random() * len(MOON_CHOICES))]))
        else:
            return plays


class Simulation:
    """Totals of a run of random hands (see :func:`simulate`)."""

    __slots__ = ("deals", "moons", "plays", "points")

    def __init__(self, players: int) -> None:
        self.deals = 0
        self.plays = 0
        self.points = [0] * players
        self.moons = 0

    def __repr__(self) -> str:
        return f"Simulation(deals={self.deals}, plays={self.plays}, points={self.points}, moons={self.moons})"


def simulate(rules: Rules, deals: int, seed: int | str = 0) -> Simulation:
    """Play ``deals`` independent random hands; hand ``i`` has dealer ``i % players`` and pass ``i``.

    The per-seat points summed over all hands (after the moon rule) make a
    cheap check that two builds of the engine play identically.
    """
    rng = random.Random(seed)
    n = rules.players
    out = Simulation(n)
    points = out.points
    for i in range(deals):
        deal = deal_random(rules, rng, i % n, i)
        out.plays += play_out(deal, rng)
        scores = deal.hand_scores()
        for s in range(n):
            points[s] += scores[s]
        if deal.shooter is not None:
            out.moons += 1
        out.deals += 1
    return out


if _COMPILED:  # compiled build (setup.py): warn if this source changed since
    warn_if_stale(__name__)
