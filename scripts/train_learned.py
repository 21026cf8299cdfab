"""Train the ``learned`` level: imitate the ``standard`` player, improve on it by REINFORCE, measure it as it trains.

1. Play ``--deals`` deals of standard Hearts with four ``standard`` players and
   record, at every pass and every card played, the features of each
   candidate card (:func:`corazones.players.learned.card_features`) and which
   card(s) the player chose.
2. Fit the network of :class:`corazones.players.learned.Network` (one hidden
   layer) to those choices: softmax over the candidate cards, the loss is
   minus the log-probability of the chosen card (of any card still to pick,
   for a pass), full-batch Adam in numpy (scripts/learned_fit.py, shared with distil_expert.py).
3. Then ``--rl-iterations`` steps of REINFORCE: each plays ``--rl-deals`` new
   deals in seat 0 against three ``--rl-opponents`` players, every deal
   ``--rl-rollouts`` times with cards sampled from the network's softmax; a
   choice's advantage is the other rollouts' mean points on that deal minus
   its own rollout's, and one Adam step follows the policy gradient.
4. Before training and at checkpoints, play ``--eval-deals`` deals with the network in seat 0
   against three ``random``, three ``beginner`` and three ``standard``
   players (the same deals at every checkpoint) and record its points per
   deal; write the curve to ``--plot`` (matplotlib) and the final weights to
   ``--out`` (by default ``learned_reinforce.json``; the shipped weights come from ``scripts/distil_expert.py``).

Needs numpy (``pip install -e '.[env]'``) and, for the plot, matplotlib
(``.[arena]``).  About 17 minutes on one core with the defaults:

    python3 scripts/train_learned.py
    python3 scripts/train_learned.py --deals 300 --steps 100 --rl-iterations 10 --out /tmp/l.json --plot /tmp/c.png
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np
from learned_fit import Trainer

from corazones.core import Game, Kind, Rules
from corazones.core.observation import Observation
from corazones.players.learned import FEATURES, LearnedBot, Network, card_features
from corazones.players.registry import make_player

ONE_DEAL = {"hands": 1, "target": None, "tie_break": "shared"}
IMITATION = "imitation of the standard player (scripts/train_learned.py)"


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


def scores(params: dict[str, np.ndarray], x: np.ndarray) -> np.ndarray:
    """The network's score of each row of features (numpy, from the trainer's unrounded weights)."""
    h = np.maximum(x @ params["w1"].T + params["b1"], 0.0)
    out: np.ndarray = h @ params["w2"] + params["b2"][0]
    return out


class Sampler(LearnedBot):
    """Samples its plays and passes from the softmax of the scores, and records each choice with its candidates.

    The policy REINFORCE improves is this stochastic one; the level plays its
    most likely card.  A pass is sampled card by card without replacement
    (each pick a softmax over the cards left); forced plays are not recorded
    (no choice, no gradient).
    """

    def __init__(self, params: dict[str, np.ndarray], network: Network, seed: int | str, rng: np.random.Generator):
        super().__init__(seed, network=network)
        self.params = params
        self.np_rng = rng
        self.decisions: list[tuple[np.ndarray, int]] = []

    def pick(self, candidates: list[tuple[int, list[float]]]) -> int:
        x = np.array([f for _, f in candidates], dtype=np.float64)
        s = scores(self.params, x)
        p = np.exp(s - s.max())
        i = int(self.np_rng.choice(len(p), p=p / p.sum()))
        self.decisions.append((x, i))
        return i

    def choose_play(self, obs: Observation) -> int:
        candidates = card_features(obs)
        if len(candidates) == 1:
            return candidates[0][0]
        return candidates[self.pick(candidates)][0]

    def choose_pass(self, obs: Observation) -> list[int]:
        left = card_features(obs)
        chosen: list[int] = []
        while len(chosen) < obs.rules.pass_count:
            chosen.append(left.pop(self.pick(left))[0])
        return chosen


def reinforce_batch(
    params: dict[str, np.ndarray], network: Network, deals: int, rollouts: int, opponents: str, seed: tuple[int, int]
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, float]:
    """Decisions of ``rollouts`` sampled plays of each of ``deals`` deals, with their advantages.

    Every rollout of a deal has the same cards and the same opponents' seeds;
    its advantage is the other rollouts' mean points minus its own (divided
    by 13), which takes the luck of the deal out of the gradient.  Returns
    the candidates' features, decision numbers, chosen flags, one weight per
    decision, and the mean points per deal of the sampled policy.  ``seed``
    is (the run's seed, the iteration): each iteration plays new deals.
    """
    rules = Rules.preset("standard", **ONE_DEAL)
    rows: list[np.ndarray] = []
    groups: list[np.ndarray] = []
    chosen: list[np.ndarray] = []
    weights: list[float] = []
    total = 0.0
    for d in range(deals):
        played: list[tuple[list[tuple[np.ndarray, int]], float]] = []
        for r in range(rollouts):
            name = f"rl/{seed[0]}/{seed[1]}/{d}"
            game = Game(rules, seed=name)
            learner = Sampler(params, network, d, np.random.default_rng([*seed, d, r]))
            players = [learner, *(make_player(opponents, seed=f"{name}/{s}") for s in range(1, rules.players))]
            while not game.over:
                seat = game.to_act()[0]
                game.apply(players[seat].act(game.observation(seat)))
            played.append((learner.decisions, float(game.history[-1].scores[0])))
        points = np.array([p for _, p in played])
        total += points.sum()
        for decisions, p in played:
            advantage = ((points.sum() - p) / (rollouts - 1) - p) / 13.0
            if advantage == 0.0:
                continue
            for x, i in decisions:
                g = len(weights)
                rows.append(x)
                groups.append(np.full(len(x), g))
                flags = np.zeros(len(x))
                flags[i] = 1.0
                chosen.append(flags)
                weights.append(advantage)
    if not weights:
        empty = np.zeros(0)
        return np.zeros((0, len(FEATURES))), empty.astype(int), empty, empty, total / (deals * rollouts)
    return (
        np.concatenate(rows),
        np.concatenate(groups),
        np.concatenate(chosen),
        np.array(weights),
        total / (deals * rollouts),
    )


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
    parser.add_argument("--rl-iterations", type=int, default=120, help="REINFORCE steps after imitation (default 120)")
    parser.add_argument("--rl-deals", type=int, default=100, help="deals per REINFORCE step (default 100)")
    parser.add_argument("--rl-rollouts", type=int, default=4, help="sampled plays of each deal (default 4)")
    parser.add_argument("--rl-lr", type=float, default=0.003, help="Adam step size of REINFORCE (default 0.003)")
    parser.add_argument("--rl-opponents", default="standard", help="the three other seats in REINFORCE")
    parser.add_argument("--rl-checkpoints", type=int, default=6)
    parser.add_argument("--eval-deals", type=int, default=200, help="deals per level at each checkpoint")
    parser.add_argument("--checkpoints", type=int, default=5)
    parser.add_argument("--final-deals", type=int, default=1000, help="paired deals for the gap to standard")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=Path("learned_reinforce.json"))
    parser.add_argument("--plot", type=Path, default=Path("learned_training.png"))
    args = parser.parse_args(argv)
    if args.rl_iterations and args.rl_rollouts < 2:
        # the baseline of a rollout is the mean of the deal's other rollouts: with one there is none, and the
        # advantage would be 0/0, turning every weight into NaN (written over the shipped ones by default)
        parser.error(f"--rl-rollouts must be 2 or more (the other plays are the baseline), not {args.rl_rollouts}")

    start = time.process_time()
    x, groups, chosen = collect(args.deals, args.seed)
    print(f"{groups[-1] + 1} decisions, {len(x)} candidate cards ({time.process_time() - start:.0f} s)", flush=True)
    trainer = Trainer(args.hidden, args.seed)
    # points per deal at each checkpoint: (phase, step, mean, standard error) per level
    curve: dict[str, list[tuple[str, int, float, float]]] = {"random": [], "beginner": [], "standard": []}

    def checkpoint(phase: str, step: int, text: str) -> None:
        network = trainer.network()
        line = [f"{phase} {step:4d} {text}"]
        for level in curve:
            mean, err = evaluate(network, level, args.eval_deals, args.seed)
            curve[level].append((phase, step, mean, err))
            line.append(f"vs {level} {mean:5.2f}±{1.96 * err:.2f}")
        print("  ".join(line), f"({time.process_time() - start:.0f} s)", flush=True)

    marks = sorted({0} | {round(args.steps * (i + 1) / args.checkpoints) for i in range(args.checkpoints)})
    loss = float("nan")
    for step in range(args.steps + 1):
        if step:
            loss = trainer.step(x, groups, chosen, args.lr, any_of=True)
        if step in marks:  # step 0: the untrained network
            checkpoint("imitation", step, f"loss {loss:.3f}")
    trained = IMITATION
    if args.rl_iterations:
        trained = (
            f"imitation of the standard player, then {args.rl_iterations} REINFORCE steps against three "
            f"{args.rl_opponents} players (scripts/train_learned.py)"
        )
        rl_marks = {round(args.rl_iterations * (i + 1) / args.rl_checkpoints) for i in range(args.rl_checkpoints)}
        for points in curve.values():  # where REINFORCE starts: the imitation's last checkpoint
            points.append(("reinforce", 0, *points[-1][2:]))
        sampled: list[float] = []
        for it in range(1, args.rl_iterations + 1):
            network = trainer.network()
            batch = reinforce_batch(
                trainer.params, network, args.rl_deals, args.rl_rollouts, args.rl_opponents, (args.seed, it)
            )
            sampled.append(batch[4])
            if len(batch[3]):
                trainer.step(batch[0], batch[1], batch[2], args.rl_lr, weights=batch[3], any_of=True)
            if it in rl_marks:
                checkpoint("reinforce", it, f"sampled policy {np.mean(sampled):5.2f} points per deal")
                sampled = []
    args.out.write_text(json.dumps(trainer.to_json(trained), separators=(",", ":")) + "\n", encoding="utf-8")
    print(f"weights: {args.out}")
    if args.final_deals:
        # the gap to standard: the same deals with standard in seat 0 instead, against three standard players
        final = trainer.network()
        mine = seat0_points(final, "standard", args.final_deals, args.seed + 1)
        theirs = seat0_points(None, "standard", args.final_deals, args.seed + 1)
        diff = mine - theirs
        half = 1.96 * diff.std(ddof=1) / np.sqrt(len(diff))
        print(
            f"gap to standard over {len(diff)} paired deals (seat 0 against three standard players): "
            f"learned {mine.mean():.2f}, standard {theirs.mean():.2f} points per deal, "
            f"difference {diff.mean():+.2f} (95% CI {diff.mean() - half:+.2f} to {diff.mean() + half:+.2f})"
        )
    if plot(curve, args.plot, f"then REINFORCE against {args.rl_opponents}: steps of {args.rl_deals} deals"):
        print(f"plot: {args.plot}")
    return 0


def plot(curve: dict[str, list[tuple[str, int, float, float]]], path: Path, rl_label: str) -> bool:
    """Points per deal at each checkpoint, one panel per phase; False when matplotlib is missing."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib is not installed: no plot (pip install -e '.[arena]')")
        return False
    phases = [p for p in ("imitation", "reinforce") if any(c[0] == p for c in curve["standard"])]
    fig, axes = plt.subplots(1, len(phases), figsize=(6 * len(phases), 4), sharey=True, squeeze=False)
    for ax, phase in zip(axes[0], phases):
        for level, points in curve.items():
            here = [p for p in points if p[0] == phase]
            steps = [p[1] for p in here]
            means = np.array([p[2] for p in here])
            errs = np.array([1.96 * p[3] for p in here])
            ax.errorbar(steps, means, yerr=errs, marker="o", capsize=3, label=f"against 3 × {level}")
        if phase == "imitation":
            ax.set_xlabel("imitation of standard: training steps (full-batch Adam)")
            ax.set_ylabel("points per deal, seat 0 (lower is better)")
        else:
            ax.set_xlabel(rl_label)
    axes[0][0].legend()
    fig.suptitle("learned: points per deal as it trains (the same deals at each checkpoint)")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return True


if __name__ == "__main__":
    sys.exit(main())
