"""The playout policy's own duel: two sets of its weights, two seats each, in duplicate.

The expert plays every sampled deal to its end with the fast mask policy of
``corazones/players/rollout.py``; how well that policy plays decides how well
the search judges a card (``docs/bots.md``, "The playouts' policy"). Its
weights (:class:`~corazones.players.rollout.Policy`) are set here: each board
is one random deal of standard rules, passed by the policy's quick rule and
played by weights A in seats 0 and 2 and weights B in seats 1 and 3, then
again with the sides swapped. A deal takes about half a millisecond, so tens
of thousands of boards tell weights apart in seconds. The figure printed is
how many points a deal B takes fewer than A, with its 95% interval over
boards.

``--tune`` is the search that set :data:`~corazones.players.rollout.DUEL`:
one weight at a time, it tries the weight halved and times 1.6 (a chance:
0.15 either way) against A, keeping a change that gains more than
``--keep`` points a deal. Usage::

    python3 bench/duel.py                                  # the duel weights against the hand-set ones, 20,000 boards
    python3 bench/duel.py --a duel --b hand --boards 40000 --seed fresh
    python3 bench/duel.py --tune --boards 20000 --seed s1  # the weight search, from the hand-set weights
"""

from __future__ import annotations

import argparse
import math
import random
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

from corazones.core.actions import Action
from corazones.core.deal import MOON, PASS, Deal
from corazones.core.native import is_compiled_file
from corazones.core.rules import PRESETS, Rules
from corazones.core.simulate import deal_random
from corazones.players import rollout
from corazones.players.rollout import POLICIES, Context, Policy, pass_choice, play_out
from corazones.players.search import DEFEND_SHARE

#: The weights of :class:`Policy` the search tries, with whether each is a chance (kept within 0..1).
WEIGHTS = {
    "climb": True,
    "high_pow": True,
    "guard_share": False,
    "dump": False,
    "guard_discard": False,
    "guard_lead": False,
    "flush": False,
    "own_big": False,
    "pen_lead": False,
}


def weights(p: Policy) -> dict[str, Any]:
    """The constructor arguments that make ``p`` again."""
    return {k: getattr(p, k) for k in WEIGHTS}


def play(rules: Rules, seed: str, board: int, seats: Sequence[Policy]) -> list[int]:
    """Points each seat takes on board ``board`` with ``seats[s]``'s weights, played out as the search plays."""
    d: Deal = deal_random(rules, random.Random(f"{seed}/{board}"), dealer=board % rules.players, hand_index=board)
    if d.phase == PASS:
        for s in range(d.n):
            d.apply(Action.pass_cards(s, pass_choice(d.hand(s), rules.pass_count, d.values, d.penalty_suit)))
    # the search's playouts: a lone taker shoots from two thirds of the points, the others defend from half
    ctxs = [Context(d, policy=p) for p in seats]
    play_out(d, ctxs[0], defend_share=DEFEND_SHARE, seats=ctxs)
    if d.phase == MOON:
        d.moon_choice = "add_to_others"  # 26 points between the sides either way
    return d.hand_scores()


@dataclass(frozen=True)
class Result:
    """How many points a deal B takes fewer than A, with its 95% interval, and the boards B changed."""

    gain: float
    low: float
    high: float
    boards: int
    changed: int

    def __str__(self) -> str:
        return (
            f"B better by {self.gain:+.3f} points/deal ({self.low:+.3f} to {self.high:+.3f}), "
            f"{self.boards} boards, {self.changed} changed"
        )


def _boards(a: dict[str, Any], b: dict[str, Any], preset: str, seed: str, boards: range) -> list[float]:
    pa, pb = Policy(**a), Policy(**b)
    rules = Rules.preset(preset)
    n = rules.players
    out = []
    for board in boards:
        gain = 0.0
        for first in (pa, pb):
            seats = [first if s % 2 == 0 else (pb if first is pa else pa) for s in range(n)]
            sc = play(rules, seed, board, seats)
            mine = [sc[s] for s in range(n) if seats[s] is pa]
            theirs = [sc[s] for s in range(n) if seats[s] is pb]
            gain += sum(mine) / len(mine) - sum(theirs) / len(theirs)
        out.append(gain / 2)
    return out


def duel(a: Policy, b: Policy, boards: int, seed: str, jobs: int = 2, preset: str = "standard") -> Result:
    """Play ``boards`` boards of weights ``a`` against ``b`` (see the module text), on ``jobs`` processes."""
    step = -(-boards // jobs)
    parts = [range(i, min(boards, i + step)) for i in range(0, boards, step)]
    k = len(parts)
    with ProcessPoolExecutor(jobs) as ex:
        gains = [
            g
            for part in ex.map(_boards, [weights(a)] * k, [weights(b)] * k, [preset] * k, [seed] * k, parts)
            for g in part
        ]
    n = len(gains)
    mean = sum(gains) / n
    sd = math.sqrt(sum((g - mean) ** 2 for g in gains) / max(n - 1, 1))
    half = 1.96 * sd / math.sqrt(n)
    return Result(mean, mean - half, mean + half, n, sum(1 for g in gains if g != 0))


def tune(base: Policy, boards: int, seed: str, keep: float, jobs: int) -> Policy:
    """One pass of the weight search against ``base``, starting from ``base`` (see the module text)."""
    best = weights(base)
    score = 0.0
    for k, chance in WEIGHTS.items():
        cur = best[k]
        if chance:
            tries = [max(0.0, cur - 0.15), min(1.0, cur + 0.15)]
        else:
            tries = [cur * 0.5, cur * 1.6]
        res = [duel(base, Policy(**{**best, k: t}), boards, seed, jobs).gain for t in tries]
        i = max(range(len(tries)), key=lambda j: res[j])
        kept = res[i] > score + keep
        print(
            f"{k}: {cur:g} -> {', '.join(f'{t:g}: {r:+.3f}' for t, r in zip(tries, res))}{'  kept' if kept else ''}",
            flush=True,
        )
        if kept:
            best[k] = tries[i]
            score = res[i]
    print(f"weights: {best} (+{score:.3f} over the start)")
    return Policy(**best)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--a", default="hand", choices=sorted(POLICIES), help="weights of seats 0 and 2 (default hand)")
    ap.add_argument("--b", default="duel", choices=sorted(POLICIES), help="weights of seats 1 and 3 (default duel)")
    ap.add_argument("--boards", type=int, default=20000, help="boards, each played twice (default 20000)")
    ap.add_argument("--rules", default="standard", help="rules preset (default standard; not the auction)")
    ap.add_argument("--seed", default="duel", help="base seed of the deals (default 'duel')")
    ap.add_argument("--jobs", type=int, default=2, help="processes (default 2)")
    ap.add_argument("--tune", action="store_true", help="search the weights, starting from --a")
    ap.add_argument("--keep", type=float, default=0.012, help="least gain a tuned weight must bring (default 0.012)")
    ns = ap.parse_args()
    if ns.boards < 2:
        ap.error(f"--boards must be at least 2, not {ns.boards}")
    if ns.jobs < 1:
        ap.error(f"--jobs must be at least 1, not {ns.jobs}")
    if ns.rules not in PRESETS or Rules.preset(ns.rules).auction:
        allowed = ", ".join(p for p in PRESETS if not Rules.preset(p).auction)
        ap.error(f"--rules must be a preset without an auction ({allowed}), not {ns.rules!r}")
    build = "compiled" if is_compiled_file(rollout.__file__) else "pure Python"
    print(f"policy duel, {ns.rules}, {build}, seed {ns.seed!r}")
    if ns.tune:
        tune(POLICIES[ns.a], ns.boards, ns.seed, ns.keep, ns.jobs)
    else:
        res = duel(POLICIES[ns.a], POLICIES[ns.b], ns.boards, ns.seed, ns.jobs, ns.rules)
        print(f"{ns.rules}: A = {ns.a}, B = {ns.b}: {res}")


if __name__ == "__main__":
    main()
