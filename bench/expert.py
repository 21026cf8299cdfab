"""Expert player figures: think time per move and, with ``--deals``, strength in duplicate play.

Think time: the expert (default settings, one worker) plays whole hands of
``--preset`` against ``--opponent`` bots; every decision is timed and the
mean, p50, p95 and max are printed.

Strength (``--deals N``): duplicate play on the same deals.  For each deal the
hand is played twice with the same cards: once with the opponent level in all
seats (the reference) and once with the expert in one seat, rotating the
expert's seat from deal to deal; the pass direction also rotates through
the preset's cycle.  The figure is the expert's points minus the reference
points of the same seat on the same deal: negative means the expert takes
fewer points.  Deals run in parallel on ``--jobs`` processes.

    python bench/expert.py --hands 20
    python bench/expert.py --deals 1000 --opponent standard --jobs 2
"""

from __future__ import annotations

import argparse
import math
import statistics
import time
from concurrent.futures import ProcessPoolExecutor

from corazones.core import Game, Rules
from corazones.core.observation import Observation
from corazones.players.base import Bot
from corazones.players.expert import ExpertBot
from corazones.players.heuristic_bot import HeuristicBot
from corazones.players.registry import LEVELS, make_player


class Timed:
    """Wraps a bot and records how long each decision takes."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.name = bot.name
        self.times: list[float] = []

    def act(self, obs: Observation):  # type: ignore[no-untyped-def]
        t = time.perf_counter()
        a = self.bot.act(obs)
        self.times.append(time.perf_counter() - t)
        return a


def opponent(level: str, seed: int) -> Bot:
    if level == "heuristic":
        return HeuristicBot(seed)
    return make_player(level, seed)


def expert(args: argparse.Namespace, seed: int) -> ExpertBot:
    tl = None if args.time_limit <= 0 else args.time_limit
    return ExpertBot(
        seed,
        worlds=args.worlds,
        time_limit=tl,
        workers=args.workers,
        pass_worlds=args.pass_worlds,
        infer=not args.no_infer,
        shoot=args.shoot,
        tree=args.tree,
    )


def one_deal(task: tuple[argparse.Namespace, int]) -> tuple[int, int, list[float]]:
    """(expert points, reference points, expert think times) for deal ``i``."""
    args, i = task
    base = Rules.preset(args.preset)
    n = base.players
    cycle = base.pass_cycle
    rules = base.replace(passes=(cycle[(i // n) % len(cycle)],)) if base.has_passing else base
    seat = i % n
    seed = 1_000_003 * args.seed + i
    ref = Game(rules, seed=seed)
    players = [opponent(args.opponent, seed * 10 + s) for s in range(n)]
    _play_hand(ref, players)
    test = Game(rules, seed=seed)
    t = Timed(expert(args, seed))
    players2: list[object] = [opponent(args.opponent, seed * 10 + s) for s in range(n)]
    players2[seat] = t
    _play_hand(test, players2)
    return test.history[0].scores[seat], ref.history[0].scores[seat], t.times


def _play_hand(game: Game, players: list[object]) -> None:
    while not game.history:
        for s in game.to_act():
            game.apply(players[s].act(game.observation(s)))  # type: ignore[attr-defined]


def summary(times: list[float]) -> str:
    ts = sorted(times)
    p = lambda q: ts[min(len(ts) - 1, int(q * len(ts)))]  # noqa: E731
    return (
        f"{len(ts)} decisions: mean {statistics.fmean(ts) * 1000:.0f} ms, p50 {p(0.5) * 1000:.0f} ms, "
        f"p95 {p(0.95) * 1000:.0f} ms, max {ts[-1] * 1000:.0f} ms"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--preset", default="standard")
    ap.add_argument("--opponent", default="standard" if "standard" in LEVELS else "heuristic")
    ap.add_argument("--hands", type=int, default=12, help="hands for the think-time figures")
    ap.add_argument("--deals", type=int, default=0, help="deals for the duplicate strength comparison")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--worlds", type=int, default=ExpertBot.__init__.__kwdefaults__["worlds"])
    ap.add_argument("--time-limit", type=float, default=ExpertBot.__init__.__kwdefaults__["time_limit"] or 0)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--no-infer", action="store_true", help="sample without inferences from discards")
    ap.add_argument("--shoot", action="store_true", help="also simulate trying to shoot the moon")
    ap.add_argument("--tree", action="store_true", help="choose the cards by the search tree (ExpertBot(tree=True))")
    ap.add_argument("--pass-worlds", type=int, default=ExpertBot.__init__.__kwdefaults__["pass_worlds"])
    args = ap.parse_args()
    for name in ("worlds", "workers", "jobs"):  # the expert needs a deal to sample and a process to think in
        if getattr(args, name) < 1:
            ap.error(f"--{name} must be at least 1, not {getattr(args, name)}")
    print(
        f"expert: worlds={args.worlds} time_limit={args.time_limit or None} workers={args.workers}"
        f"{' tree' if args.tree else ''}; "
        f"preset {args.preset}; opponent {args.opponent}"
    )
    if args.hands:
        times: list[float] = []
        for i in range(args.hands):
            times.extend(one_deal((args, 10_000 + i))[2])
        print("think time (one process): " + summary(times))
    if args.deals:
        t0 = time.time()
        diffs: list[int] = []
        ex_pts: list[int] = []
        all_times: list[float] = []
        tasks = [(args, i) for i in range(args.deals)]
        with ProcessPoolExecutor(args.jobs) as pool:
            for e, r, ts in pool.map(one_deal, tasks, chunksize=4):
                diffs.append(e - r)
                ex_pts.append(e)
                all_times.extend(ts)
        n = len(diffs)
        mean = statistics.fmean(diffs)
        sd = statistics.stdev(diffs) if n > 1 else 0.0
        half = 1.96 * sd / math.sqrt(n) if n > 1 else math.inf
        print(
            f"duplicate, {n} deals: expert {statistics.fmean(ex_pts):.2f} points/deal; "
            f"expert - {args.opponent} = {mean:+.2f} points/deal, 95% CI [{mean - half:+.2f}, {mean + half:+.2f}] "
            f"({time.time() - t0:.0f} s)"
        )
        print(f"think time ({args.jobs} processes busy): " + summary(all_times))


if __name__ == "__main__":
    main()
