"""Settlement of hand results: points, the moon, 1887 chips, Auction's pool, average stakes, the end.

These are pure functions of numbers and :class:`Rules` so the score pad
(hands played with real cards, :mod:`corazones.core.pad`) and the engine
(:class:`~corazones.core.game.Game`) settle hands and end games the same way.

``core/deal.py`` is compiled and keeps its own copy of the moon rule
(``Deal._find_shooter`` and ``Deal.hand_scores``); :func:`find_shooter` and
:func:`moon_scores` are the same rule for callers that hold only numbers, and
the score pad's property tests check both agree on random games of every preset.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from corazones.core.rules import Rules


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


def find_shooter(rules: Rules, pos: Sequence[int], pos_total: int) -> int | None:
    """The seat that shot the moon, given each seat's positive (penalty) points, or ``None``.

    A seat shoots by taking every penalty point in play; with ``moon_needs = team`` a
    side that took them all shoots too, its member with the most penalty points (the
    lower seat on a tie) being the shooter who chooses.
    """
    if rules.moon == "off" or pos_total <= 0:
        return None
    for s, p in enumerate(pos):
        if p == pos_total:
            return s
    if rules.moon_needs == "team":
        for team in rules.teams:
            if sum(pos[s] for s in team) == pos_total:
                return max(team, key=lambda s: (pos[s], -s))
    return None


def moon_scores(
    rules: Rules, pts: Sequence[int], pos: Sequence[int], shooter: int | None, choice: str | None, pos_total: int
) -> tuple[int, ...]:
    """Each seat's score for the hand after the moon rule.

    Without a shooter the score is the points taken.  A shooter's side loses its
    penalty points but keeps bonus cards (Omnibus J♦); ``subtract_from_self``
    takes ``pos_total`` off the shooter, ``add_to_others`` adds it to every
    opponent (a partner is not an opponent).
    """
    if shooter is None:
        return tuple(pts)
    mode = choice or rules.moon
    side = rules.team_of(shooter)
    out = []
    for s in range(len(pts)):
        base = pts[s] - pos[s]
        if rules.team_of(s) == side:
            out.append(base - pos_total if (mode == "subtract_from_self" and s == shooter) else base)
        else:
            out.append(base + pos_total if mode == "add_to_others" else base)
    return tuple(out)


def settle_hand(
    rules: Rules, points: Sequence[int], penalty_cards: Sequence[int], pool: int, bid: int, declarer: int | None
) -> ChipsOutcome:
    """The chips of one hand under the settlement in force (no chips move under points or average stakes).

    ``points`` are the points each seat took before the moon (the moon is off in
    both chip games), ``penalty_cards`` how many penalty cards each took, ``bid``
    what the declarer paid (0 when the pool carried the declarer over).
    """
    if rules.settlement == "chips_1887":
        return settle_chips_1887(points, pool)
    if rules.settlement == "chips_pool":
        return settle_chips_pool(penalty_cards, pool, bid, declarer)
    return ChipsOutcome((0,) * len(points), pool, ())


def game_end(rules: Rules, hands_played: int, scores: Sequence[int], chips: Sequence[int]) -> tuple[int, ...] | None:
    """The winning seats if the game is over after ``hands_played`` hands, else ``None``.

    Chip games end when a player has no chips left (or after ``hands``); the most
    chips win, ties share.  Point games end at the target (or after ``hands``)
    with the lowest side winning; a tie for lowest plays on as
    :meth:`Rules.tie_plays_on` says (at the target, not after the agreed hands).
    """
    limit = rules.hands is not None and hands_played >= rules.hands
    n = rules.players
    if rules.settlement in ("chips_1887", "chips_pool"):
        if limit or min(chips) <= 0:
            best = max(chips)
            return tuple(s for s in range(n) if chips[s] == best)
        return None
    totals = team_totals(scores, rules.teams)
    if not (limit or (rules.target is not None and max(totals) >= rules.target)):
        return None
    low = min(totals)
    sides = [i for i, t in enumerate(totals) if t == low]
    if len(sides) > 1 and rules.tie_plays_on(limit):
        return None
    return tuple(s for i in sides for s in rules.teams[i])
