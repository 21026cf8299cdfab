"""Environment steps per second: PettingZoo, Gymnasium, batches, and OpenSpiel's ``rl_environment`` beside them.

A step is one decision of one agent (a card played, one card of a pass
picked, a bid...), chosen uniformly among the legal actions from the action
mask, observation vector and mask built every step, as a learner would see
them.  Measured:

* ``aec``     -- ``hearts_v0.raw_env``: ``last()`` then ``step()`` for every agent;
* ``aec info_state`` -- the same with ``observation="info_state"`` (the
  perfect-recall tensor, the like of what OpenSpiel's case builds);
* ``gym``     -- ``HeartsEnv`` against ``random`` bots: the learner's steps only
  (the bots' moves happen inside them);
* ``vector``  -- ``HeartsVector`` self-play, ``--batch`` games stepped together:
  steps of all games counted;
* ``learned`` -- the CPU time of one decision of the ``learned`` level (standard
  rules only), the cost a server pays per move of that bot;
* ``openspiel`` -- OpenSpiel's ``rl_environment.Environment("hearts")`` with
  its information-state tensors, random legal actions (only when ``open_spiel``
  is installed: ``pip install open_spiel``).

Rates are per second of this process's CPU time (``time.process_time``).

    python3 bench/env.py                    # every case, 3 s each
    python3 bench/env.py --seconds 10 --batch 256 --preset cancellation_hearts --players 8
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
from typing import Any

import numpy as np

from corazones.env.hearts_v0 import raw_env
from corazones.env.single import HeartsEnv
from corazones.env.vector import HeartsVector


def bench_aec(options: dict[str, Any], seconds: float, seed: int) -> tuple[int, float]:
    rng = np.random.default_rng(seed)
    env = raw_env(**options)
    steps = 0
    game = 0
    start = time.process_time()
    elapsed = 0.0
    while elapsed < seconds:
        env.reset(seed=seed + game)
        game += 1
        for _agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.integers(len(legal))]))
            steps += 1
            if steps % 256 == 0:
                elapsed = time.process_time() - start
                if elapsed >= seconds:
                    break
        elapsed = time.process_time() - start
    return steps, elapsed


def bench_gym(options: dict[str, Any], seconds: float, seed: int) -> tuple[int, float]:
    rng = np.random.default_rng(seed)
    env = HeartsEnv(opponents="random", **options)
    steps = 0
    game = 0
    start = time.process_time()
    elapsed = 0.0
    while elapsed < seconds:
        _, info = env.reset(seed=seed + game)
        game += 1
        done = False
        while not done and elapsed < seconds:
            legal = np.flatnonzero(info["action_mask"])
            _, _, done, _, info = env.step(int(legal[rng.integers(len(legal))]))
            steps += 1
            if steps % 256 == 0:
                elapsed = time.process_time() - start
        elapsed = time.process_time() - start
    return steps, elapsed


def random_legal(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One uniformly random legal action per row of ``masks``, in a few vectorised operations."""
    scores = rng.random(masks.shape) * masks
    return np.asarray(scores.argmax(axis=1))


def bench_vector(options: dict[str, Any], seconds: float, seed: int, batch: int) -> tuple[int, float]:
    rng = np.random.default_rng(seed)
    vec = HeartsVector(batch, **options)
    _, masks = vec.reset(seed=seed)
    steps = 0
    start = time.process_time()
    elapsed = 0.0
    while elapsed < seconds:
        _, masks, _, _ = vec.step(random_legal(masks, rng))
        steps += batch
        elapsed = time.process_time() - start
    return steps, elapsed


def bench_openspiel(seconds: float, seed: int) -> tuple[int, float] | None:
    try:
        from open_spiel.python import rl_environment
    except ImportError:
        return None
    rng = np.random.default_rng(seed)
    env = rl_environment.Environment("hearts", chance_event_sampler=rl_environment.ChanceEventSampler(seed=seed))
    steps = 0
    start = time.process_time()
    elapsed = 0.0
    while elapsed < seconds:
        step = env.reset()
        while not step.last():
            player = step.observations["current_player"]
            legal = step.observations["legal_actions"][player]
            step = env.step([legal[rng.integers(len(legal))]])
            steps += 1
        elapsed = time.process_time() - start
    return steps, elapsed


def bench_learned(seconds: float, seed: int) -> tuple[int, float, float]:
    """The ``learned`` level's decisions in one-deal games among four of it: count, CPU seconds, p95 of one."""
    from corazones.core import Game, Rules
    from corazones.players.learned import LearnedBot

    rules = Rules.preset("standard", hands=1, target=None, tie_break="shared")
    bots = [LearnedBot(seed=s) for s in range(4)]
    times: list[float] = []
    deal = 0
    while sum(times) < seconds:
        game = Game(rules, seed=f"{seed}/{deal}")
        deal += 1
        while not game.over:
            seat = game.to_act()[0]
            obs = game.observation(seat)
            t = time.process_time()
            action = bots[seat].act(obs)
            times.append(time.process_time() - t)
            game.apply(action)
    times.sort()
    return len(times), sum(times), times[int(0.95 * len(times))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--seconds", type=float, default=3.0, help="time per case (default 3)")
    parser.add_argument("--preset", default="standard")
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--batch", type=int, default=64, help="games in the vectorised batch (default 64)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    if not args.seconds > 0:  # no time, no step: a rate would divide by zero
        parser.error(f"--seconds must be more than 0, not {args.seconds}")
    if args.batch < 1:
        parser.error(f"--batch must be at least 1, not {args.batch}")
    options: dict[str, Any] = {"preset": args.preset, "players": args.players}
    print(f"{platform.python_implementation()} {platform.python_version()}; preset {args.preset}")
    print(f"{'case':24s} {'steps':>9s} {'cpu s':>7s} {'steps/s':>10s}")

    def show(name: str, got: tuple[int, float] | None) -> None:
        if got is None:
            print(f"{name:24s} {'(open_spiel not installed: pip install open_spiel)':>28s}")
            return
        steps, elapsed = got
        print(f"{name:24s} {steps:9d} {elapsed:7.2f} {steps / elapsed:10,.0f}", flush=True)

    show("aec (PettingZoo)", bench_aec(options, args.seconds, args.seed))
    show("aec info_state", bench_aec({**options, "observation": "info_state"}, args.seconds, args.seed))
    show("gym vs random bots", bench_gym(options, args.seconds, args.seed))
    show(f"vector, {args.batch} games", bench_vector(options, args.seconds, args.seed, args.batch))
    if args.preset == "standard" and args.players in (None, 4):
        show("openspiel rl_environment", bench_openspiel(args.seconds, args.seed))
        moves, cpu, p95 = bench_learned(args.seconds, args.seed)
        print(f"learned level: {moves} decisions, {1000 * cpu / moves:.2f} ms of CPU each (p95 {1000 * p95:.2f} ms)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
