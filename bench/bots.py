"""Strength targets of the computer players, measured in duplicate (not a timed test).

Each pair ``A:B`` plays ``--deals`` boards of one deal under ``--rules``
(standard by default), every board replayed with the seats swapped, and the
script prints A's advantage: B's points per deal minus A's (positive = A
better), with its 95% confidence interval over boards.

Targets (issue "Computer players ... and an arena that measures them"), on
standard rules over at least 1,000 deals:

* expert beats standard by >= 2.0 points/deal, CI excluding 0;
* standard clearly beats beginner (CI excluding 0);
* beginner beats random (CI excluding 0).

A level that is not registered is skipped with a message.  Usage::

    python3 bench/bots.py                       # the three targets, 1000 deals each
    python3 bench/bots.py --deals 200 --pairs standard:beginner --out /tmp/bench
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from corazones.core import Rules
from corazones.players.registry import LEVELS
from corazones.services.arena import ArenaConfig, run_arena

DEFAULT_PAIRS = "expert:standard,standard:beginner,beginner:random"

#: Minimum mean advantage (points/deal) of A over B; every target also needs the CI to exclude 0.
TARGETS: dict[tuple[str, str], float] = {
    ("expert", "standard"): 2.0,
    ("standard", "beginner"): 0.0,
    ("beginner", "random"): 0.0,
}


def parse_pairs(text: str) -> list[tuple[str, str]]:
    pairs = []
    for item in text.split(","):
        a, sep, b = item.strip().partition(":")
        if not sep or not a or not b:
            raise SystemExit(f"--pairs: {item!r} must look like better:worse, e.g. expert:standard")
        pairs.append((a, b))
    return pairs


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=1000, help="boards per pair (each played twice, seats swapped)")
    ap.add_argument("--pairs", default=DEFAULT_PAIRS, help=f"comma-separated A:B pairs (default {DEFAULT_PAIRS})")
    ap.add_argument("--rules", default="standard", help="rules preset (default standard)")
    ap.add_argument("--seed", default="bench", help="base seed (default 'bench')")
    ap.add_argument("--workers", type=int, default=None, help="processes (default: all CPUs)")
    ap.add_argument("--backend", default="local", choices=("local", "ray"))
    ap.add_argument("--out", type=Path, default=None, help="write each pair's results into OUT/A-vs-B/")
    ap.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
    args = ap.parse_args(argv)
    if args.deals < 1:
        ap.error(f"--deals must be at least 1, not {args.deals}")
    rules = Rules.preset(args.rules)
    err = Console(stderr=True)
    out = Console()
    missed = 0
    for a, b in parse_pairs(args.pairs):
        absent = [lvl for lvl in (a, b) if lvl not in LEVELS and ":" not in lvl]
        if absent:
            out.print(f"{a}:{b}: skipped, level {', '.join(absent)} not registered (levels: {', '.join(LEVELS)})")
            continue
        config = ArenaConfig((a, b), rules, boards=args.deals, seed=f"{args.seed}/{a}/{b}")
        with Progress(
            TextColumn(f"{a} vs {b}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            TextColumn("ETA"),
            TimeRemainingColumn(),
            console=err,
            disable=args.quiet,
        ) as bar:
            task = bar.add_task("", total=config.boards)

            def tick(done: int, total: int, bar: Progress = bar, task: TaskID = task) -> None:
                bar.update(task, completed=done)

            result = run_arena(
                config,
                workers=args.workers,
                backend=args.backend,
                progress=tick,
            )
        adv = result.gap(b, a)  # points(B) - points(A): positive = A better
        pa, pb = result.players
        need = TARGETS.get((a, b))
        verdict = ""
        if need is not None:
            met = adv.low > 0 and adv.mean >= need
            missed += not met
            verdict = f"  target (>= {need:.1f}, CI excluding 0): {'met' if met else 'MISSED'}"
        out.print(
            f"{a} vs {b} ({args.rules}, {adv.n} boards x 2 rotations, {result.seconds:.0f} s): "
            f"{a} better by {adv.mean:+.2f} points/deal, 95% CI {adv.low:+.2f} to {adv.high:+.2f}{verdict}",
            highlight=False,
            soft_wrap=True,
        )
        out.print(
            f"    {a}: {pa.points_per_deal.format()} pts/deal, moons {pa.moons_shot}/{pa.moons_suffered}, "
            f"move {pa.move_time_mean * 1e3:.2f} ms mean, {pa.move_time_p95 * 1e3:.2f} ms p95 | "
            f"{b}: {pb.points_per_deal.format()} pts/deal, moons {pb.moons_shot}/{pb.moons_suffered}, "
            f"move {pb.move_time_mean * 1e3:.2f} ms mean, {pb.move_time_p95 * 1e3:.2f} ms p95",
            highlight=False,
            soft_wrap=True,
        )
        if args.out is not None:
            result.write(args.out / f"{a}-vs-{b}".replace(":", "_"))
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
