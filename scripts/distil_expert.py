"""Distil the ``expert`` into the ``learned`` level: record the expert's decisions, then fit the network to them.

Two steps, each reproducible from its seed:

1. ``collect``: play ``--deals`` one-deal games of standard Hearts with the
   ``expert`` (no time limit, so its searches are deterministic) in seats 0
   and 2 and ``standard`` players in seats 1 and 3, and record every pass and
   card play of the expert seats: the seat's observation, the cards chosen
   and, for plays, the mean value the search gave each candidate.  Records
   are appended deal by deal to ``--out`` (a pickle stream), so a run can be
   stopped and resumed with ``--start``.
2. ``train``: fit :class:`corazones.players.learned.Network` to the recorded
   choices (softmax over the candidates, minus the log-probability of the
   expert's card), then measure it in seat 0 against three ``standard``
   players paired deal by deal with ``standard`` in its place, and write the
   weights.

``collect --policy WEIGHTS`` lets the network play the recorded seats while
the expert only labels their decisions (DAgger): the positions recorded are
the ones the network reaches.  The expert spends about 1.6 s of CPU a deal on
the compiled build (five times that in pure Python).  Run one step at a time,
alone, at low priority; the shipped weights come from (docs/env.md)::

    nice -n 19 python3 scripts/distil_expert.py collect --deals 360 --out results/expert.pkl
    nice -n 19 python3 scripts/distil_expert.py train results/expert.pkl --temperature 10 --steps 300 \
        --out results/round1.json
    nice -n 19 python3 scripts/distil_expert.py collect --seed 2 --deals 520 --policy results/round1.json \
        --out results/dagger.pkl
    nice -n 19 python3 scripts/distil_expert.py train results/expert.pkl results/dagger.pkl --temperature 10 \
        --steps 400 --out src/corazones/players/data/learned.json
"""

from __future__ import annotations

import argparse
import json
import pickle
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
from learned_fit import Trainer

from corazones.core import Game, Kind, Rules
from corazones.players.expert import ExpertBot, equivalent_classes
from corazones.players.learned import LearnedBot, Network, card_features
from corazones.players.registry import make_player

ONE_DEAL = {"hands": 1, "target": None, "tie_break": "shared"}
EXPERT_SEATS = (0, 2)


def collect(
    deals: int, start: int, seed: int, out: Path, policy: Path | None = None, worlds: int = 400, pass_worlds: int = 800
) -> None:
    """Append one record per deal: a list of ``(observation, chosen cards, values)`` of the expert seats.

    With ``policy`` (a weights file) the network plays seats 0 and 2 and the
    expert only labels their decisions (DAgger): the recorded positions are
    then the ones the network reaches, where its mistakes lead.
    """
    rules = Rules.preset("standard", **ONE_DEAL)
    network = Network.from_json(json.loads(policy.read_text(encoding="utf-8"))) if policy is not None else None
    t0 = time.process_time()
    with out.open("ab") as f:
        for d in range(start, start + deals):
            name = f"distil/{seed}/{d}"
            game = Game(rules, seed=name)
            bots = {
                s: ExpertBot(seed=f"{name}/{s}", time_limit=None, worlds=worlds, pass_worlds=pass_worlds)
                for s in EXPERT_SEATS
            }
            players = [bots.get(s) or make_player("standard", seed=f"{name}/{s}") for s in range(rules.players)]
            record = []
            while not game.over:
                seat = game.to_act()[0]
                obs = game.observation(seat)
                action = players[seat].act(obs)
                if seat in bots and obs.decision in (Kind.PLAY, Kind.PASS):
                    last = bots[seat].last if obs.decision is Kind.PLAY else None
                    values = dict(last.values) if last is not None else {}
                    record.append((obs, tuple(action.cards), values))
                    if network is not None:
                        action = LearnedBot(seed=f"{name}/{seat}", network=network).act(obs)
                game.apply(action)
            pickle.dump({"deal": d, "seed": name, "decisions": record}, f)
            f.flush()
            print(f"deal {d}: {len(record)} decisions ({time.process_time() - t0:.0f} s)", flush=True)


def load(path: Path) -> list[tuple[Any, tuple[int, ...], dict[int, float]]]:
    """Every recorded decision of a ``collect`` run, deal after deal (a run cut short keeps its whole deals)."""
    out = []
    with path.open("rb") as f:
        while True:
            try:
                record = pickle.load(f)
            except (EOFError, pickle.UnpicklingError):
                break
            out.extend(record["decisions"])
    return out


def targets(obs: Any, chosen: tuple[int, ...], values: dict[int, float], temperature: float) -> list[float]:
    """The target distribution over ``card_features(obs)``'s candidates.

    The expert's card (or, for a pass, its cards in equal shares); with a
    ``temperature``, plays spread half of it over the candidates by the
    softmax of the search's values (a card shares the value of the cards
    equivalent to it), so the network also learns which cards were close.
    """
    cards = [c for c, _ in card_features(obs)]
    hard = np.array([float(c in chosen) for c in cards])
    hard /= hard.sum()
    if temperature <= 0 or not values or obs.decision is not Kind.PLAY:
        return hard.tolist()
    value_of = {}
    for group in equivalent_classes(obs, cards):
        v = next((values[c] for c in group if c in values), None)
        for c in group:
            value_of[c] = v
    v = np.array([value_of.get(c) if value_of.get(c) is not None else -np.inf for c in cards], dtype=float)
    if not np.isfinite(v).any():
        return hard.tolist()
    e = np.exp((v - v[np.isfinite(v)].max()) / temperature)
    soft = e / e.sum()
    return (0.5 * hard + 0.5 * soft).tolist()


def dataset(decisions: list[Any], temperature: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Rows of candidate features, the decision each row belongs to, and the target probability of each row."""
    rows: list[list[float]] = []
    groups: list[int] = []
    target: list[float] = []
    g = 0
    for obs, chosen, values in decisions:
        candidates = card_features(obs)
        if len(candidates) < 2:
            continue
        rows.extend(f for _, f in candidates)
        groups.extend([g] * len(candidates))
        target.extend(targets(obs, chosen, values, temperature))
        g += 1
    return np.array(rows), np.array(groups), np.array(target)


def seat0_points(network: Network | None, deals: int, seed: int) -> np.ndarray:
    """Points of seat 0 in each deal against three ``standard`` players; ``None``: ``standard`` in seat 0."""
    rules = Rules.preset("standard", **ONE_DEAL)
    points = []
    for d in range(deals):
        game = Game(rules, seed=f"distil-eval/{seed}/{d}")
        first = LearnedBot(seed=d, network=network) if network is not None else make_player("standard", seed=d)
        players = [first, *(make_player("standard", seed=f"{d}/{s}") for s in range(1, rules.players))]
        while not game.over:
            seat = game.to_act()[0]
            game.apply(players[seat].act(game.observation(seat)))
        points.append(game.history[-1].scores[0])
    return np.array(points, dtype=float)


def train(args: argparse.Namespace) -> None:
    decisions = [d for path in args.data for d in load(path)]
    split = int(len(decisions) * 0.9)
    t0 = time.process_time()
    x, g, q = dataset(decisions[:split], args.temperature)
    vx, vg, vq = dataset(decisions[split:], args.temperature)
    print(f"{g[-1] + 1} decisions to fit, {vg[-1] + 1} held out ({time.process_time() - t0:.0f} s)", flush=True)
    start = json.loads(args.start.read_text(encoding="utf-8")) if args.start is not None else None
    fit = Trainer(args.hidden, args.seed, start)
    for step in range(args.steps + 1):
        loss = fit.step(x, g, q, args.lr) if step else fit.loss(x, g, q)
        if step % max(1, args.steps // 10) == 0:
            print(
                f"step {step:4d}  loss {loss:.3f}  held-out loss {fit.loss(vx, vg, vq):.3f}  "
                f"agreement {fit.agreement(x, g, q):.3f} / {fit.agreement(vx, vg, vq):.3f}",
                flush=True,
            )
    trained = (
        f"distilled from the expert: {g[-1] + 1} of its decisions (scripts/distil_expert.py collect), fitted by "
        f"scripts/distil_expert.py train --temperature {args.temperature:g} --steps {args.steps} "
        f"--hidden {args.hidden} --lr {args.lr:g} --seed {args.seed}"
    )
    args.out.write_text(json.dumps(fit.to_json(trained), separators=(",", ":")) + "\n", encoding="utf-8")
    print(f"weights: {args.out}", flush=True)
    if args.eval_deals:
        mine = seat0_points(fit.network(), args.eval_deals, args.seed)
        theirs = seat0_points(None, args.eval_deals, args.seed)
        diff = theirs - mine
        half = 1.96 * diff.std(ddof=1) / np.sqrt(len(diff))
        print(
            f"seat 0 against three standard, {len(diff)} paired deals: learned {mine.mean():.2f}, standard "
            f"{theirs.mean():.2f} points per deal; learned ahead by {diff.mean():+.2f} "
            f"(95% CI {diff.mean() - half:+.2f} to {diff.mean() + half:+.2f})",
            flush=True,
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    sub = parser.add_subparsers(dest="command", required=True)
    c = sub.add_parser("collect", help="record the expert's decisions")
    c.add_argument("--deals", type=int, default=1000)
    c.add_argument("--start", type=int, default=0, help="first deal number (to resume a stopped run)")
    c.add_argument("--seed", type=int, default=1)
    c.add_argument("--out", type=Path, required=True)
    c.add_argument("--worlds", type=int, default=400, help="the expert's deals sampled per play (default 400)")
    c.add_argument("--pass-worlds", type=int, default=800, help="and per pass (default 800)")
    c.add_argument("--policy", type=Path, default=None, help="weights that play the labelled seats (DAgger)")
    t = sub.add_parser("train", help="fit the network to recorded decisions")
    t.add_argument("data", type=Path, nargs="+", help="collect outputs (one or more)")
    t.add_argument("--out", type=Path, required=True)
    t.add_argument("--steps", type=int, default=400)
    t.add_argument("--lr", type=float, default=0.01)
    t.add_argument("--hidden", type=int, default=48)
    t.add_argument("--temperature", type=float, default=0.0, help="soft targets from the search's values (0: off)")
    t.add_argument("--start", type=Path, default=None, help="weights to start from (default: fresh ones)")
    t.add_argument("--eval-deals", type=int, default=200)
    t.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    if args.command == "collect":
        collect(args.deals, args.start, args.seed, args.out, args.policy, args.worlds, args.pass_worlds)
    else:
        train(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
