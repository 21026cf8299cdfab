"""Calibrating the bots' fixed ratings from whole games between levels (not a timed test).

``play`` plays ``--games`` games of ``--hands`` hands (default 2; 0: the
preset's whole game) of ``--preset`` for a pair of levels ``A/B``, seats
alternating (A B A B, then B A B A on the same seed, so both sides get the
same cards), and appends one JSON line per game to ``--out``: the level of
each seat and its finishing rank.  Short games buy many more rankings for
the same time (an expert game to 100 points takes minutes in pure Python),
at a price: luck weighs more in two hands than in a whole game, so the gaps
fitted understate those of whole games.  ``fit`` reads such files and
rates every level with OpenSkill's Plackett-Luce model
(:mod:`corazones.services.ratings`), every game in order, each level one
player; the ratings are then shifted so that ``standard`` sits at the rating
a new player starts with (25), and printed as the table
``services.ratings.BOT_RATINGS`` holds::

    nice -n 19 python3 bench/ratings.py play random/beginner beginner/standard shooter/standard learned/standard \
        --games 200 --out games.jsonl
    nice -n 19 python3 bench/ratings.py play standard/expert --games 60 --out games.jsonl
    python3 bench/ratings.py fit games.jsonl
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
from pathlib import Path
from typing import Any

from corazones.core import Game, Rules
from corazones.players.registry import make_player
from corazones.players.table import play_game
from corazones.services.ratings import START_MU, ranks_of, rate


def play(pairs: list[str], games: int, preset: str, out: Path, seed: int, hands: int) -> None:
    rules = Rules.preset(preset) if hands <= 0 else Rules.preset(preset, hands=hands, target=None)
    n = rules.players
    with out.open("a", encoding="utf-8") as f:
        for pair in pairs:
            a, b = pair.split("/")
            for k in range(games):
                levels = [a if (s + k) % 2 == 0 else b for s in range(n)]
                game = Game(rules, seed=f"calibrate/{preset}/{pair}/{seed + k // 2}")
                play_game(game, [make_player(level, f"{k}/{s}") for s, level in enumerate(levels)])
                f.write(
                    json.dumps({"preset": preset, "hands": hands, "levels": levels, "ranks": ranks_of(game)}) + "\n"
                )
                f.flush()
                print(pair, k + 1, levels, ranks_of(game), flush=True)


def fit_once(games: list[dict[str, Any]]) -> dict[str, tuple[float, float]]:
    """Every level rated as one player over ``games`` in the order given (OpenSkill is online)."""
    ratings: dict[str, tuple[float, float]] = {}
    for game in games:
        levels = game["levels"]
        before = [ratings.get(level) for level in levels]
        after = rate(before, game["ranks"])
        # a level that sits in several seats of one game moves by the mean of its seats' moves
        moved: dict[str, list[tuple[float, float]]] = {}
        for level, (mu, sigma) in zip(levels, after, strict=True):
            moved.setdefault(level, []).append((mu, sigma))
        for level, rows in moved.items():
            ratings[level] = (sum(m for m, _ in rows) / len(rows), min(s for _, s in rows))
    return ratings


def fit(files: list[Path], orders: int = 20, seed: int = 1) -> dict[str, tuple[float, float]]:
    """The levels' ratings, shifted so that ``standard`` sits at :data:`START_MU`, averaged over ``orders`` orders.

    An online fit weighs a level's games by their place in the file (its sigma shrinks as it goes), so one
    order can put a level above another that beat it in the raw results.  The games are fitted in
    ``orders`` shuffled orders (seeded, so the table is reproducible) and each level's shifted mu is the
    mean over them; the spread of those mus is printed beside it, as how much the order alone moves it.
    """
    games = [json.loads(line) for path in files for line in path.read_text(encoding="utf-8").splitlines()]
    rng = random.Random(seed)
    runs: dict[str, list[tuple[float, float]]] = {}
    for k in range(orders):
        order = list(games)
        if k:
            rng.shuffle(order)
        ratings = fit_once(order)
        shift = START_MU - ratings["standard"][0] if "standard" in ratings else 0.0
        for level, (mu, sigma) in ratings.items():
            runs.setdefault(level, []).append((mu + shift, sigma))
    table = {
        level: (statistics.fmean(m for m, _ in rows), statistics.fmean(s for _, s in rows))
        for level, rows in runs.items()
    }
    print(f"{len(games)} games, {orders} orders")
    for level, (mu, sigma) in sorted(table.items(), key=lambda kv: -kv[1][0]):
        spread = statistics.pstdev(m for m, _ in runs[level])
        print(f'    "{level}": ({mu:.1f}, {sigma:.2f}),  # mu moves {spread:.2f} with the order')
    return table


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("play")
    p.add_argument("pairs", nargs="+", help="level pairs A/B")
    p.add_argument("--games", type=int, default=20)
    p.add_argument("--preset", default="standard")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--hands", type=int, default=2, help="hands per game (0: the preset's whole game)")
    p.add_argument("--out", type=Path, required=True)
    f = sub.add_parser("fit")
    f.add_argument("files", nargs="+", type=Path)
    f.add_argument("--orders", type=int, default=20, help="shuffled orders the online fit is averaged over")
    args = ap.parse_args()
    if args.cmd == "play":
        play(args.pairs, args.games, args.preset, args.out, args.seed, args.hands)
    else:
        fit(args.files, args.orders)


if __name__ == "__main__":
    main()
