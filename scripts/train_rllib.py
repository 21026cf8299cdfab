"""Train PPO on ``hearts_v0`` with RLlib: one shared, action-masked policy plays every seat.

The PettingZoo AEC environment goes to RLlib through RLlib's own
``PettingZooEnv`` wrapper; a small PettingZoo wrapper (:class:`RLlibKeys`)
renames the observation's keys to the ones RLlib's action-masking module reads
(``"observations"``, and ``"action_mask"`` as float32).  Each episode is one
deal (``hands=1, tie_break="shared"``) unless ``--whole-games``; the reward is
minus the points each seat takes in the deal.

Self-play returns say little (the seats share the deal's points whatever
the policy does), so the script also measures the policy as a player: before
training, every ``--eval-every`` iterations and at the end, its greedy choice
(the most likely legal action) plays seat 0 of the Gymnasium environment
``corazones/Hearts-v0`` against ``random`` bots (``--opponents``), on the same
``--eval-deals`` deals every time, and the points per deal are printed.

Needs the ``env`` and ``rllib`` extras; install a CPU build of torch first
(a plain ``torch`` from PyPI is the CUDA build, gigabytes)::

    pip install torch --index-url https://download.pytorch.org/whl/cpu
    pip install -e '.[rllib]'
    python3 scripts/train_rllib.py --iterations 100

The default (20 iterations) is a short run: about two minutes of CPU.
docs/env.md gives a measured run.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

import gymnasium
import numpy as np
from pettingzoo.utils import BaseWrapper  # type: ignore[import-untyped]

from corazones.env import hearts_v0

ENV_NAME = "corazones_hearts_v0"
ONE_DEAL: dict[str, Any] = {"hands": 1, "tie_break": "shared"}


class RLlibKeys(BaseWrapper):  # type: ignore[misc]
    """Renames ``observation`` to ``observations`` and gives the mask as float32, as RLlib's module reads them."""

    def observation_space(self, agent: str) -> gymnasium.spaces.Dict:
        space = self.env.observation_space(agent)
        mask = gymnasium.spaces.Box(0.0, 1.0, space["action_mask"].shape, np.float32)
        return gymnasium.spaces.Dict({"observations": space["observation"], "action_mask": mask})

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        got = self.env.observe(agent)
        return {"observations": got["observation"], "action_mask": got["action_mask"].astype(np.float32)}


def make_env(env_config: dict[str, Any]) -> Any:
    """The RLlib environment: ``hearts_v0`` with renamed keys in RLlib's PettingZoo wrapper."""
    from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv

    return PettingZooEnv(RLlibKeys(hearts_v0.env(**env_config)))  # type: ignore[no-untyped-call]


def build_config(
    env_config: dict[str, Any],
    *,
    batch: int = 4000,
    minibatch: int = 500,
    epochs: int = 4,
    hidden: tuple[int, ...] = (128, 128),
    lr: float = 3e-4,
    runners: int = 0,
    envs: int = 1,
    seed: int = 0,
) -> Any:
    """The PPO configuration: one policy ``"shared"`` with RLlib's action-masking torch module, for every agent."""
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    from ray.rllib.examples.rl_modules.classes.action_masking_rlm import ActionMaskingTorchRLModule
    from ray.tune.registry import register_env

    register_env(ENV_NAME, make_env)
    return (
        PPOConfig()  # type: ignore[no-untyped-call]
        .environment(ENV_NAME, env_config=env_config, disable_env_checking=True)  # the check plays unmasked actions
        .multi_agent(policies={"shared"}, policy_mapping_fn=lambda agent_id, *args, **kwargs: "shared")
        .rl_module(
            rl_module_spec=MultiRLModuleSpec(
                rl_module_specs={
                    "shared": RLModuleSpec(
                        module_class=ActionMaskingTorchRLModule,
                        model_config={"fcnet_hiddens": list(hidden), "vf_share_layers": False},
                    )
                }
            )
        )
        .env_runners(num_env_runners=runners, num_envs_per_env_runner=envs)
        .learners(num_learners=0)
        .training(
            train_batch_size_per_learner=batch,
            minibatch_size=minibatch,
            num_epochs=epochs,
            lr=lr,
            vf_clip_param=100.0,  # rewards are points (0 to 26 a deal), not scaled to 1
        )
        .debugging(seed=seed)
    )


def seat0_points(choose: Any, deals: int, preset: str, players: int | None, opponents: str, seed: int) -> np.ndarray:
    """Points per deal of ``choose(observation, mask) -> action`` in seat 0 against ``opponents`` bots.

    Deal ``d`` is ``reset(seed=seed + d)`` of ``corazones/Hearts-v0``: the same
    deals (and the same bots' seeds) at every call, so two policies can be
    compared deal by deal.
    """
    import corazones.env  # noqa: F401 - registers corazones/Hearts-v0

    env = gymnasium.make("corazones/Hearts-v0", preset=preset, players=players, opponents=opponents, seat=0, **ONE_DEAL)
    points = np.zeros(deals)
    for d in range(deals):
        obs, info = env.reset(seed=seed + d)
        done = False
        while not done:
            obs, reward, done, _, info = env.step(choose(obs, info["action_mask"]))
            points[d] -= reward
    env.close()  # type: ignore[no-untyped-call]
    return points


def greedy(module: Any) -> Any:
    """The module's most likely legal action, as ``choose(observation, mask)`` for :func:`seat0_points`."""
    import torch

    def choose(obs: np.ndarray, mask: np.ndarray) -> int:
        batch = {
            "obs": {
                "observations": torch.from_numpy(obs[None, :]),
                "action_mask": torch.from_numpy(mask[None, :].astype(np.float32)),
            }
        }
        with torch.no_grad():
            logits = module.forward_inference(batch)["action_dist_inputs"][0].numpy()
        return int(np.argmax(np.where(mask > 0, logits, -np.inf)))

    return choose


def uniform(seed: int) -> Any:
    """A uniformly random legal action, the baseline."""
    rng = np.random.default_rng(seed)

    def choose(obs: np.ndarray, mask: np.ndarray) -> int:
        return int(rng.choice(np.flatnonzero(mask)))

    return choose


def interval(values: np.ndarray) -> str:
    """``mean ± half-width`` of the 95% confidence interval."""
    half = 1.96 * values.std(ddof=1) / np.sqrt(len(values)) if len(values) > 1 else float("nan")
    return f"{values.mean():.2f} ± {half:.2f}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--iterations", type=int, default=20, help="PPO training iterations (default 20)")
    parser.add_argument("--preset", default="standard", help="rules preset (default standard)")
    parser.add_argument("--players", type=int, default=None, help="player count (default: the preset's)")
    parser.add_argument("--batch", type=int, default=4000, help="agent steps sampled per iteration (default 4000)")
    parser.add_argument("--minibatch", type=int, default=500, help="SGD minibatch (default 500)")
    parser.add_argument("--epochs", type=int, default=4, help="passes over each batch (default 4)")
    parser.add_argument("--lr", type=float, default=3e-4, help="Adam learning rate (default 3e-4)")
    parser.add_argument("--envs", type=int, default=32, help="games each sampler steps together (default 32)")
    parser.add_argument("--threads", type=int, default=1, help="torch threads (default 1)")
    parser.add_argument("--whole-games", action="store_true", help="episodes are whole matches, not one deal")
    parser.add_argument("--eval-deals", type=int, default=200, help="deals per evaluation (default 200)")
    parser.add_argument("--eval-every", type=int, default=5, help="evaluate every N iterations (0: only at the ends)")
    parser.add_argument("--opponents", default="random", help="the evaluation's other seats (default random)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--ray-address", default="local", help="Ray cluster to join (default: start a local Ray)")
    args = parser.parse_args(argv)

    import ray
    import torch

    torch.set_num_threads(args.threads)

    env_config: dict[str, Any] = {"preset": args.preset}
    if args.players is not None:
        env_config["players"] = args.players
    if not args.whole_games:
        env_config.update(ONE_DEAL)
    if args.ray_address == "local":
        ray.init(address="local", num_cpus=1, include_dashboard=False, log_to_driver=False)
    else:
        ray.init(address=args.ray_address, log_to_driver=False)
    start_wall, start_cpu = time.monotonic(), time.process_time()
    try:
        algo = build_config(
            env_config,
            batch=args.batch,
            minibatch=args.minibatch,
            epochs=args.epochs,
            lr=args.lr,
            envs=args.envs,
            seed=args.seed,
        ).build_algo()
        module = algo.get_module("shared")
        game = (args.preset, args.players, args.opponents, 10_000)

        def evaluate(label: str) -> np.ndarray:
            pts = seat0_points(greedy(module), args.eval_deals, *game)
            print(f"{label}: {interval(pts)} points per deal against {args.opponents} bots", flush=True)
            return pts

        if args.eval_deals:
            base = seat0_points(uniform(args.seed), args.eval_deals, *game)
            print(f"random legal actions: {interval(base)} points per deal against {args.opponents} bots")
            before = evaluate("before training")
        for i in range(1, args.iterations + 1):
            result = algo.train()
            runners = result.get("env_runners", {})
            learner = result.get("learners", {}).get("shared", {})
            returns = runners.get("agent_episode_returns_mean", {})
            mean_return = float(np.mean(list(returns.values()))) if returns else float("nan")
            print(
                f"iteration {i:3d}  agent steps {int(runners.get('num_env_steps_sampled_lifetime', 0)):7d}  "
                f"episodes {int(runners.get('num_episodes', 0)):4d}  return per seat {mean_return:6.2f}  "
                f"policy loss {learner.get('policy_loss', float('nan')):7.3f}  "
                f"value loss {learner.get('vf_loss', float('nan')):6.2f}  "
                f"entropy {learner.get('entropy', float('nan')):5.2f}  "
                f"({time.monotonic() - start_wall:.0f} s wall, {time.process_time() - start_cpu:.0f} s CPU)",
                flush=True,
            )
            if args.eval_deals and args.eval_every and i % args.eval_every == 0 and i != args.iterations:
                evaluate(f"after {i} iterations")
        if args.eval_deals:
            after = evaluate(f"after {args.iterations} iterations")
            print(f"trained minus untrained, deal by deal: {interval(after - before)} points per deal")
            print(f"trained minus random legal actions, deal by deal: {interval(after - base)} points per deal")
        print(
            f"{args.iterations} iterations: {time.monotonic() - start_wall:.0f} s wall, "
            f"{time.process_time() - start_cpu:.0f} s CPU in this process"
        )
        algo.stop()
    finally:
        ray.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
