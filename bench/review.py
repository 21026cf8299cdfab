"""Game review figures: how long a whole game takes to review for one seat (not a timed test).

The script plays ``--games`` whole games of ``--preset`` (standard: to 100
points) with ``standard`` bots, each from its own seed, and reviews one seat
of each with :func:`corazones.players.review.review_record` at the default
budget (or ``--worlds``/``--pass-worlds``), printing the hands, the valued
decisions, the seconds (wall clock, and CPU time of this process: on a
shared machine the CPU time is the one-core figure) and the seat's mean loss.  Target (issue "Learn from
every game"): a whole 100-point game reviewed for one seat in at most a
minute on one core.  Run it alone on the machine, under ``nice``::

    nice -n 19 python3 bench/review.py
    python3 bench/review.py --games 3 --worlds 200
"""

from __future__ import annotations

import argparse
import statistics
import time

from corazones.core import Game, Rules
from corazones.core.records import make_record
from corazones.players.registry import make_player
from corazones.players.review import PASS_WORLDS, WORLDS, review_record
from corazones.players.table import play_game


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--preset", default="standard")
    ap.add_argument("--games", type=int, default=1)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--seat", type=int, default=0)
    ap.add_argument("--worlds", type=int, default=WORLDS)
    ap.add_argument("--pass-worlds", type=int, default=PASS_WORLDS)
    args = ap.parse_args()
    for name in ("games", "worlds", "pass_worlds"):  # no game, or no deal to value a decision by, gives no figure
        if getattr(args, name) < 1:
            ap.error(f"--{name.replace('_', '-')} must be at least 1, not {getattr(args, name)}")
    rules = Rules.preset(args.preset)
    times: list[float] = []
    cpus: list[float] = []
    for k in range(args.games):
        game = Game(rules, seed=args.seed + k)
        play_game(game, [make_player("standard", s) for s in range(rules.players)])
        record = make_record(game)
        t = time.perf_counter()
        c = time.process_time()
        review = review_record(record, [args.seat], worlds=args.worlds, pass_worlds=args.pass_worlds)
        took = time.perf_counter() - t
        cpu = time.process_time() - c
        times.append(took)
        cpus.append(cpu)
        summary = review.summary[0]
        print(
            f"game {k + 1}: {len(game.history)} hands, {summary.decisions} decisions valued, "
            f"{took:.1f} s ({cpu:.1f} s of CPU), mean loss {summary.mean_loss:.2f}",
            flush=True,
        )
    print(
        f"budget {args.worlds}/{args.pass_worlds}: mean {statistics.mean(times):.1f} s "
        f"({statistics.mean(cpus):.1f} s of CPU), max {max(times):.1f} s per game"
    )


if __name__ == "__main__":
    main()
