"""Moon defence figures: how often a ``shooter`` or ``moonshot`` pair shoots the moon against each level (no timing).

Each pair ``A/B`` plays ``--deals`` boards of one deal in duplicate (A B A B,
then B A B A) under ``--rules``; the script prints, for A, the share of the
deals played (boards x rotations) in which a seat of B shot the moon, with
its 95% interval, and A's points per deal and advantage over B.

Targets (issue "Stop the moon, and be expert in every variant"), standard
rules, at least 1,000 deals:

* expert against a shooter pair: moons suffered <= 3% of deals;
* standard against a shooter pair: moons suffered <= 5% of deals;
* the same two targets against a ``moonshot`` pair (the shooter that searches).

The second side's moons shot against the first are how often it shoots and
succeeds (``standard/moonshot``: the moonshot pair's moons against ``standard``).

A pair's side may be any arena player, e.g. ``mypkg.bots:Old`` (``mypkg.bots:Old/shooter``) to compare an
older build on the same boards (the same ``--seed`` plays the same boards)::

    python3 bench/moon.py                                  # both targets, 1000 deals each
    python3 bench/moon.py --deals 300 --pairs standard/shooter --out /tmp/moon
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

from corazones.core import Rules
from corazones.services.arena import ArenaConfig, run_arena

DEFAULT_PAIRS = "expert/shooter,standard/shooter,expert/moonshot,standard/moonshot"

#: Highest share of deals in which the shooter pair may shoot the moon against A.
TARGETS: dict[tuple[str, str], float] = {
    ("expert", "shooter"): 0.03,
    ("standard", "shooter"): 0.05,
    ("expert", "moonshot"): 0.03,
    ("standard", "moonshot"): 0.05,
    ("unlimited:expert", "unlimited:moonshot"): 0.03,
    ("standard", "unlimited:moonshot"): 0.05,
}


def rate_interval(k: int, n: int) -> tuple[float, float, float]:
    """Share ``k / n`` with its 95% Wilson interval (good for small shares)."""
    if n <= 0:
        return 0.0, 0.0, 1.0
    p = k / n
    z = 1.96
    den = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return p, max(0.0, mid - half), min(1.0, mid + half)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=1000, help="boards per pair (each played in both rotations)")
    ap.add_argument("--pairs", default=DEFAULT_PAIRS, help=f"comma-separated A:B pairs (default {DEFAULT_PAIRS})")
    ap.add_argument("--rules", default="standard", help="rules preset (default standard)")
    ap.add_argument("--seed", default="moon", help="base seed (default 'moon')")
    ap.add_argument("--workers", type=int, default=None, help="processes (default: all CPUs)")
    ap.add_argument("--out", type=Path, default=None, help="write each pair's results into OUT/A-vs-B/")
    args = ap.parse_args(argv)
    if args.deals < 1:
        ap.error(f"--deals must be at least 1, not {args.deals}")
    rules = Rules.preset(args.rules)
    missed = 0
    for item in args.pairs.split(","):
        a, sep, b = item.strip().partition("/")
        if not sep or not a or not b:
            ap.error(f"--pairs: {item!r} must look like defender/shooter, e.g. expert/shooter")
        config = ArenaConfig((a, b), rules, boards=args.deals, seed=args.seed)
        result = run_arena(config, workers=args.workers)
        pa, pb = result.players
        adv = result.gap(b, a)
        p, lo, hi = rate_interval(pa.moons_suffered, pa.tables)
        need = TARGETS.get((a, b))
        verdict = ""
        if need is not None:
            met = p <= need
            missed += not met
            verdict = f"  target (<= {need:.0%}): {'met' if met else 'MISSED'}"
        print(
            f"{a} vs {b} ({args.rules}, {args.deals} boards x 2 rotations, {result.seconds:.0f} s): "
            f"{a} suffered {pa.moons_suffered} moons in {pa.tables} deals = {p:.1%} (95% CI {lo:.1%} to {hi:.1%})"
            f"{verdict}\n"
            f"    {a}: {pa.points_per_deal.format()} pts/deal, shot {pa.moons_shot}, "
            f"move p95 {pa.move_time_p95 * 1e3:.0f} ms | {b}: {pb.points_per_deal.format()} pts/deal, "
            f"shot {pb.moons_shot}; "
            f"{a} better by {adv.mean:+.2f} points/deal (95% CI {adv.low:+.2f} to {adv.high:+.2f})",
            flush=True,
        )
        if args.out is not None:
            result.write(args.out / f"{a}-vs-{b}".replace(":", "_"))
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
