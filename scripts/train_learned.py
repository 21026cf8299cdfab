"""Train the ``learned`` level: imitate the ``standard`` player, then measure it as it trains.

1. Play ``--deals`` deals of standard Hearts with four ``standard`` players and
   record, at every pass and every card played, the features of each
   candidate card (:func:`corazones.players.learned.card_features`) and which
   card(s) the player chose.
2. Fit the network of :class:`corazones.players.learned.Network` (one hidden
   layer) to those choices: softmax over the candidate cards, the loss is
   minus the log-probability of the chosen card (of any card still to pick,
   for a pass), full-batch Adam in numpy.
3. Before training and at checkpoints, play ``--eval-deals`` deals with the network in seat 0
   against three ``random``, three ``beginner`` and three ``standard``
   players (the same deals at every checkpoint) and record its points per
   deal; write the curve to ``--plot`` (matplotlib) and the final weights to
   ``--out`` (by default the ones the package ships).

Needs numpy (``pip install -e '.[env]'``) and, for the plot, matplotlib
(``.[arena]``).  A few minutes on one core:

    python3 scripts/train_learned.py
    python3 scripts/train_learned.py --deals 300 --steps 100 --out /tmp/learned.json --plot /tmp/curve.png
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

from corazones.core import Game, Kind, Rules
from corazones.players.learned import FEATURES, LearnedBot, Network, card_features
from corazones.players.registry import make_player

SHIPPED = Path(__file__).resolve().parent.parent / "src" / "corazones" / "players" / "data" / "learned.json"
ONE_DEAL = {"hands": 1, "target": None, "tie_break": "shared"}


def collect(deals: int, seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Features of every candidate card, the decision each belongs to, and whether it was chosen."""
    rules = Rules.preset("standard", **ONE_DEAL)
    rows: list[list[float]] = []
    groups: list[int] = []
    chosen: list[float] = []
    decision = 0
    for d in range(deals):
        game = Game(rules, seed=f"learn/{seed}/{d}")
        bots = [make_player("standard", seed=f"{seed}/{d}/{s}") for s in range(rules.players)]
        while not game.over:
            seat = game.to_act()[0]
            obs = game.observation(seat)
            action = bots[seat].act(obs)
            if obs.decision in (Kind.PLAY, Kind.PASS):
                picked = set(action.cards)
                for card, f in card_features(obs):
                    rows.append(f)
                    groups.append(decision)
                    chosen.append(float(card in picked))
                decision += 1
            game.apply(action)
    return np.array(rows, dtype=np.float64), np.array(groups), np.array(chosen)


class Trainer:
    """Full-batch Adam on the softmax-over-candidates loss."""

    def __init__(self, features: int, hidden: int, seed: int) -> None:
        rng = np.random.default_rng(seed)
        self.params = {
            "w1": rng.normal(0, 1 / np.sqrt(features), (hidden, features)),
            "b1": np.zeros(hidden),
            "w2": rng.normal(0, 1 / np.sqrt(hidden), hidden),
            "b2": np.zeros(1),
        }
        self.m = {k: np.zeros_like(v) for k, v in self.params.items()}
        self.v = {k: np.zeros_like(v) for k, v in self.params.items()}
        self.t = 0

    def step(self, x: np.ndarray, groups: np.ndarray, chosen: np.ndarray, lr: float) -> float:
        p = self.params
        pre = x @ p["w1"].T + p["b1"]
        h = np.maximum(pre, 0.0)
        s = h @ p["w2"] + p["b2"][0]
        n_groups = groups[-1] + 1
        top = np.full(n_groups, -np.inf)
        np.maximum.at(top, groups, s)
        e = np.exp(s - top[groups])
        total = np.bincount(groups, e, n_groups)
        good = np.bincount(groups, e * chosen, n_groups)
        loss = float(np.mean(np.log(total) - np.log(good)))
        # d loss / d s: softmax over all candidates minus softmax over the chosen ones, per decision
        ds = (e / total[groups] - e * chosen / good[groups]) / n_groups
        grads = {
            "w2": h.T @ ds,
            "b2": np.array([ds.sum()]),
        }
        dh = np.outer(ds, p["w2"]) * (pre > 0)
        grads["w1"] = dh.T @ x
        grads["b1"] = dh.sum(axis=0)
        self.t += 1
        for k in p:
            self.m[k] = 0.9 * self.m[k] + 0.1 * grads[k]
            self.v[k] = 0.999 * self.v[k] + 0.001 * grads[k] ** 2
            mh = self.m[k] / (1 - 0.9**self.t)
            vh = self.v[k] / (1 - 0.999**self.t)
            p[k] -= lr * mh / (np.sqrt(vh) + 1e-8)
        return loss

    def to_json(self) -> dict[str, object]:
        p = self.params
        return {
            "features": list(FEATURES),
            "trained": "imitation of the standard player (scripts/train_learned.py)",
            "w1": [[round(float(x), 5) for x in row] for row in p["w1"]],
            "b1": [round(float(x), 5) for x in p["b1"]],
            "w2": [round(float(x), 5) for x in p["w2"]],
            "b2": round(float(p["b2"][0]), 5),
        }


def seat0_points(network: Network | None, level: str, deals: int, seed: int) -> np.ndarray:
    """Points of seat 0 in each of ``deals`` deals against three ``level`` players.

    Seat 0 is the network, or (``network=None``) a ``standard`` player: the same
    deals and the same opponents' seeds, so the two can be compared deal by deal.
    """
    rules = Rules.preset("standard", **ONE_DEAL)
    points = []
    for d in range(deals):
        game = Game(rules, seed=f"eval/{seed}/{d}")
        first = LearnedBot(seed=d, network=network) if network is not None else make_player("standard", seed=d)
        players = [first, *(make_player(level, seed=f"{d}/{s}") for s in range(1, rules.players))]
        while not game.over:
            seat = game.to_act()[0]
            game.apply(players[seat].act(game.observation(seat)))
        points.append(game.history[-1].scores[0])
    return np.array(points, dtype=float)


def evaluate(network: Network, level: str, deals: int, seed: int) -> tuple[float, float]:
    """Mean points per deal of the network in seat 0 against three ``level`` players, and its standard error."""
    arr = seat0_points(network, level, deals, seed)
    return float(arr.mean()), float(arr.std(ddof=1) / np.sqrt(len(arr)))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--deals", type=int, default=1500, help="deals of standard play to imitate (default 1500)")
    parser.add_argument("--steps", type=int, default=400, help="Adam steps on the whole data (default 400)")
    parser.add_argument("--hidden", type=int, default=24)
    parser.add_argument("--lr", type=float, default=0.02)
    parser.add_argument("--eval-deals", type=int, default=200, help="deals per level at each checkpoint")
    parser.add_argument("--checkpoints", type=int, default=5)
    parser.add_argument("--final-deals", type=int, default=1000, help="paired deals for the gap to standard")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=SHIPPED)
    parser.add_argument("--plot", type=Path, default=Path("learned_training.png"))
    args = parser.parse_args(argv)

    start = time.process_time()
    x, groups, chosen = collect(args.deals, args.seed)
    print(f"{groups[-1] + 1} decisions, {len(x)} candidate cards ({time.process_time() - start:.0f} s)", flush=True)
    trainer = Trainer(x.shape[1], args.hidden, args.seed)
    marks = sorted({0} | {round(args.steps * (i + 1) / args.checkpoints) for i in range(args.checkpoints)})
    curve: dict[str, list[tuple[int, float, float]]] = {"random": [], "beginner": [], "standard": []}
    loss = float("nan")
    for step in range(args.steps + 1):
        if step:
            loss = trainer.step(x, groups, chosen, args.lr)
        if step in marks:  # step 0: the untrained network
            network = Network.from_json(trainer.to_json())
            line = [f"step {step:4d} loss {loss:.3f}"]
            for level in curve:
                mean, err = evaluate(network, level, args.eval_deals, args.seed)
                curve[level].append((step, mean, err))
                line.append(f"vs {level} {mean:5.2f}±{1.96 * err:.2f}")
            print("  ".join(line), f"({time.process_time() - start:.0f} s)", flush=True)
    args.out.write_text(json.dumps(trainer.to_json(), separators=(",", ":")) + "\n", encoding="utf-8")
    print(f"weights: {args.out}")
    if args.final_deals:
        # the gap to standard: the same deals with standard in seat 0 instead, against three standard players
        final = Network.from_json(trainer.to_json())
        mine = seat0_points(final, "standard", args.final_deals, args.seed + 1)
        theirs = seat0_points(None, "standard", args.final_deals, args.seed + 1)
        diff = mine - theirs
        half = 1.96 * diff.std(ddof=1) / np.sqrt(len(diff))
        print(
            f"gap to standard over {len(diff)} paired deals (seat 0 against three standard players): "
            f"learned {mine.mean():.2f}, standard {theirs.mean():.2f} points per deal, "
            f"difference {diff.mean():+.2f} (95% CI {diff.mean() - half:+.2f} to {diff.mean() + half:+.2f})"
        )
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib is not installed: no plot (pip install -e '.[arena]')")
        return 0
    fig, ax = plt.subplots(figsize=(6, 4))
    for level, points in curve.items():
        steps = [p[0] for p in points]
        means = np.array([p[1] for p in points])
        errs = np.array([1.96 * p[2] for p in points])
        ax.errorbar(steps, means, yerr=errs, marker="o", capsize=3, label=f"against 3 × {level}")
    ax.set_xlabel("training steps (full-batch Adam)")
    ax.set_ylabel("points per deal, seat 0 (lower is better)")
    ax.set_title("learned: imitation of standard")
    ax.legend()
    fig.tight_layout()
    fig.savefig(args.plot, dpi=100)
    print(f"plot: {args.plot}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
