"""Settlement of hand results: points, 1887 chips, Auction's pool, average stakes.

These are pure functions of numbers so the score pad (hands played with real
cards) and the engine settle hands the same way.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction


@dataclass(frozen=True, slots=True)
class ChipsOutcome:
    """Chip movement of one hand: ``delta[i]`` for each seat and the pool after it."""

    delta: tuple[int, ...]
    pool: int
    winners: tuple[int, ...]


def settle_chips_1887(points: Sequence[int], pool: int) -> ChipsOutcome:
    """1887 settlement (RULES.md §4 ``chips_1887``).

    The player(s) with the fewest penalty points collect from every other
    player one chip per point that player took; several such players share
    what is paid plus the pool, and the odd chips stay in the pool.  A player
    who takes all the hearts is simply the only payer, so "13 chips shared by
    the others, remainder to the pool" falls out of the same rule.
    """
    low = min(points)
    winners = tuple(i for i, p in enumerate(points) if p == low)
    delta = [0] * len(points)
    if len(winners) == len(points):
        return ChipsOutcome(tuple(delta), pool, ())
    paid = 0
    for i, p in enumerate(points):
        if p != low:
            delta[i] -= p
            paid += p
    total = paid + pool
    share, rest = divmod(total, len(winners))
    for w in winners:
        delta[w] += share
    return ChipsOutcome(tuple(delta), rest, winners)


def settle_chips_pool(penalty_cards: Sequence[int], pool: int, bid: int, declarer: int | None) -> ChipsOutcome:
    """Auction Hearts settlement (RULES.md §4 ``chips_pool``).

    The declarer pays the bid into the pool; every player pays one chip per
    penalty card taken.  One clean player takes the pool, two split it (odd
    chip stays); otherwise (more than two clean, one took all, everyone
    took some) the pool carries over (``winners`` is empty).
    """
    delta = [-k for k in penalty_cards]
    pool += sum(penalty_cards)
    if declarer is not None and bid:
        delta[declarer] -= bid
        pool += bid
    clean = tuple(i for i, k in enumerate(penalty_cards) if k == 0)
    # "one took all" carries over even when it leaves exactly two clean (three players)
    took_all = len(penalty_cards) - len(clean) == 1
    if len(clean) in (1, 2) and not took_all:
        share, rest = divmod(pool, len(clean))
        for w in clean:
            delta[w] += share
        return ChipsOutcome(tuple(delta), rest, clean)
    return ChipsOutcome(tuple(delta), pool, ())


def average_stakes(scores: Sequence[int]) -> tuple[Fraction, ...]:
    """What each player pays (positive) or draws (negative) under ``average_stakes``."""
    avg = Fraction(sum(scores), len(scores))
    return tuple(Fraction(s) - avg for s in scores)


def team_totals(scores: Sequence[int], teams: Sequence[Sequence[int]]) -> list[int]:
    """Sum of each side's scores (one seat per side without partnerships)."""
    return [sum(scores[s] for s in team) for team in teams]
