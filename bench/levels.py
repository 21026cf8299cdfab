"""Duplicate comparison of two player levels: mean points per deal, difference, 95% interval.

Each seeded game is played twice with the two levels in alternate seats
(A B A B, then B A B A), so both levels hold exactly the same cards in the
same seats over the pair; luck of the deal cancels and the per-deal
difference of the two levels' mean points has a small spread.  A game is
``--hands`` deals (four by default: pass left, right, across, hold).

    python3 bench/levels.py                           # standard vs beginner vs random, 1000 deals each
    python3 bench/levels.py --pair standard:beginner --deals 4000 --preset standard
    python3 bench/levels.py --pair standard:random --preset omnibus --players 5
    python3 bench/levels.py --timing                  # mean time per decision of each level

Lower points are better; a negative difference means the first level of
the pair takes fewer points.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing as mp
import time
from collections.abc import Callable

from corazones.core import Game, Rules
from corazones.players.base import Bot
from corazones.players.registry import make_player
from corazones.players.table import play_game


def seats_for(rotation: int, players: int) -> list[int]:
    """0 where level A sits, 1 for level B (alternating, shifted by ``rotation``)."""
    return [(s + rotation) % 2 for s in range(players)]


def run_game(args: tuple[str, str, str, int, int, int]) -> list[tuple[float, float]]:
    """Per deal of one seeded game pair: (mean points of A, mean points of B) over both seatings."""
    a, b, preset, players, seed, hands = args
    rules = Rules.preset(preset, players=players)
    per_deal: dict[int, list[tuple[float, float]]] = {}
    for rotation in (0, 1):
        side = seats_for(rotation, players)
        bots: list[Bot] = [make_player(a if side[s] == 0 else b, seed * 100 + s) for s in range(players)]
        game = play_game(Game(rules, seed=seed), bots, max_hands=hands)
        for h in game.history:
            pa = [h.scores[s] for s in range(players) if side[s] == 0]
            pb = [h.scores[s] for s in range(players) if side[s] == 1]
            per_deal.setdefault(h.index, []).append((sum(pa) / len(pa), sum(pb) / len(pb)))
    return [((x[0][0] + x[1][0]) / 2, (x[0][1] + x[1][1]) / 2) for x in per_deal.values() if len(x) == 2]


def compare(a: str, b: str, preset: str, players: int, deals: int, hands: int, jobs: int) -> None:
    games = max(1, math.ceil(deals / hands))
    tasks = [(a, b, preset, players, seed, hands) for seed in range(games)]
    t0 = time.perf_counter()
    run: Callable[[tuple[str, str, str, int, int, int]], list[tuple[float, float]]] = run_game
    if jobs > 1:
        with mp.Pool(jobs) as pool:
            chunks = pool.map(run, tasks, chunksize=4)
    else:
        chunks = [run(t) for t in tasks]
    pairs = [d for chunk in chunks for d in chunk]
    diffs = [x - y for x, y in pairs]
    k = len(diffs)
    mean = sum(diffs) / k
    var = sum((d - mean) ** 2 for d in diffs) / max(1, k - 1)
    half = 1.96 * math.sqrt(var / k)
    mean_a = sum(x for x, _ in pairs) / k
    mean_b = sum(y for _, y in pairs) / k
    secs = time.perf_counter() - t0
    print(
        f"{preset}/{players}p  {a} {mean_a:.2f}, {b} {mean_b:.2f} points per deal; "
        f"difference {mean:+.3f} (95% CI {mean - half:+.3f} .. {mean + half:+.3f}; {k} deals, {secs:.0f} s)"
    )


def timing(levels: list[str], preset: str, players: int, deals: int) -> None:
    """Mean wall time per decision of each level, all seats that level, one deal per seed."""
    rules = Rules.preset(preset, players=players)
    for level in levels:
        spent = 0.0
        count = 0
        worst = 0.0
        for seed in range(deals):
            game = Game(rules, seed=seed)
            bots = [make_player(level, s) for s in range(players)]
            hand = game.hand_index
            while not game.over and game.hand_index == hand:
                for seat in game.to_act():
                    obs = game.observation(seat)
                    t = time.perf_counter()
                    action = bots[seat].act(obs)
                    dt = time.perf_counter() - t
                    spent += dt
                    worst = max(worst, dt)
                    count += 1
                    game.apply(action)
        print(
            f"{preset}/{players}p  {level}: {1000 * spent / count:.3f} ms per decision "
            f"(worst {1000 * worst:.2f} ms, {count} decisions)"
        )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pair", action="append", help="LEVEL_A:LEVEL_B (repeatable)")
    ap.add_argument("--preset", default="standard")
    ap.add_argument("--players", type=int, default=None)
    ap.add_argument("--deals", type=int, default=1000)
    ap.add_argument("--hands", type=int, default=4, help="deals per seeded game")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timing", action="store_true", help="time decisions instead of comparing levels")
    ns = ap.parse_args()
    for name in ("deals", "hands", "jobs"):  # a game of no deals gives no figure (and divides by zero)
        if getattr(ns, name) < 1:
            ap.error(f"--{name} must be at least 1, not {getattr(ns, name)}")
    if ns.timing:
        for preset, players in (
            (ns.preset, ns.players or Rules.preset(ns.preset).players),
            ("cancellation_hearts", 11),
        ):
            timing(["random", "beginner", "standard"], preset, players, 50)
        return
    pairs = ns.pair or ["standard:beginner", "beginner:random", "standard:random"]
    players = ns.players or Rules.preset(ns.preset).players
    for p in pairs:
        a, b = p.split(":")
        compare(a, b, ns.preset, players, ns.deals, ns.hands, ns.jobs)


if __name__ == "__main__":
    main()
