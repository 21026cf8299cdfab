"""RLlib trains on ``hearts_v0`` as ``scripts/train_rllib.py`` (and docs/env.md) set it up.

One tiny PPO iteration on a real local Ray: RLlib's PettingZoo wrapper steps
the environment, RLlib's action-masking module samples every seat's actions
(an unmasked choice would make the environment raise), the learner updates
the shared policy, and the trained module then plays seat 0 of the
Gymnasium environment.  One Ray start and one small network on purpose:
starting Ray and building the algorithm take most of the time.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

pytest.importorskip("pettingzoo", reason="the environments need the 'env' extra")
pytest.importorskip("torch", reason="RLlib's masked module needs torch, a CPU build (not PyPI's CUDA one): docs/env.md")
pytest.importorskip("ray.rllib", reason="needs the 'rllib' extra (pip install 'ray[rllib]')")

import numpy as np
import ray

pytestmark = pytest.mark.ray

SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "train_rllib.py"


def load_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("train_rllib", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["train_rllib"] = module
    spec.loader.exec_module(module)
    return module


def test_one_ppo_iteration_with_the_shared_masked_policy() -> None:
    script = load_script()
    env = script.make_env({"preset": "standard", **script.ONE_DEAL})
    obs, _ = env.reset(seed=1)
    (agent,) = obs
    assert set(obs[agent]) == {"observations", "action_mask"}
    assert obs[agent]["action_mask"].dtype == np.float32 and obs[agent]["action_mask"].sum() == 13  # a pass: any card
    env.close()

    ray.init(address="local", num_cpus=1, include_dashboard=False, log_to_driver=False)  # never a `ray start` cluster
    try:
        config = script.build_config(
            {"preset": "standard", **script.ONE_DEAL}, batch=128, minibatch=64, epochs=1, hidden=(16,), seed=3
        )
        algo = config.build_algo()
        module = algo.get_module("shared")
        before = [p.detach().clone() for p in module.parameters()]
        result = algo.train()
        runners, learner = result["env_runners"], result["learners"]["shared"]
        assert runners["num_env_steps_sampled_lifetime"] >= 128
        # every seat is an agent of the one policy
        assert set(runners["agent_episode_returns_mean"]) <= {f"player_{s}" for s in range(4)}
        assert np.isfinite(learner["policy_loss"]) and np.isfinite(learner["vf_loss"])
        after = list(module.parameters())
        assert any(not (a == b).all() for a, b in zip(after, before)), "the learner did not change the policy"

        # the trained module plays seat 0 against bots, legal actions only (the environment raises otherwise)
        points = script.seat0_points(script.greedy(module), 2, "standard", None, "random", 0)
        assert points.shape == (2,) and all(0 <= p <= 26 for p in points)
        algo.stop()
    finally:
        ray.shutdown()
