"""Gymnasium environment: one learning seat against Corazones bots.

Registered as ``corazones/Hearts-v0`` when :mod:`corazones.env` is imported
(``gymnasium.make("corazones/Hearts-v0", opponents="expert")``).  The other
seats are played by bots of the chosen levels (``random``, ``beginner``,
``standard``, ``expert``, or any object with ``act(observation)``), each on its
own observation.  The learner's observation is the vector of
:class:`~corazones.env.encoding.Encoding`; the legal actions are in
``info["action_mask"]`` and from :meth:`HeartsEnv.action_masks` (the name
maskable-PPO implementations look for).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from corazones.core.position import Position
from corazones.core.rules import Rules
from corazones.core.validate import is_whole_in
from corazones.env.encoding import make_encoding
from corazones.env.hearts_v0 import check_positions, make_rules, pick_position
from corazones.env.render import check_lang, render_text
from corazones.env.table import Table
from corazones.players.registry import LEVELS, make_player

ENV_ID = "corazones/Hearts-v0"


def make_bots(opponents: str | Sequence[Any], rules: Rules, learners: Sequence[int], seed: int) -> dict[int, Any]:
    """Bots for every seat not in ``learners``: one level for all, or one level (or bot object) per seat."""
    seats = [s for s in range(rules.players) if s not in learners]
    if isinstance(opponents, str):
        choice: list[Any] = [opponents] * len(seats)
    else:
        choice = list(opponents)
        if len(choice) != len(seats):
            raise ValueError(f"opponents must name {len(seats)} bots (one per other seat), not {len(choice)}")
    bots: dict[int, Any] = {}
    for s, c in zip(seats, choice):
        if isinstance(c, str):
            if c not in LEVELS:
                raise ValueError(f"unknown bot level {c!r}; levels: {', '.join(LEVELS)}")
            bots[s] = make_player(c, seed=f"{seed}/{s}")
        elif callable(getattr(c, "act", None)):
            bots[s] = c
        else:
            raise ValueError(f"an opponent is a level name or an object with act(observation), not {c!r}")
    return bots


class HeartsEnv(gymnasium.Env[np.ndarray, np.int64]):
    """One seat of any preset against bots; rewards as in ``hearts_v0`` (``"deal"`` or ``"game"``).

    ``illegal="raise"`` (default) refuses an action the mask does not allow;
    ``illegal="random"`` plays a random legal action instead and says so in
    ``info["illegal"]`` (for code that samples the whole action space).
    ``positions``, ``pass_direction`` and ``observation`` are as in
    :mod:`corazones.env.hearts_v0` (a reset's position is drawn from the seed).
    """

    metadata: dict[str, Any] = {"render_modes": ["human", "ansi"], "render_fps": 1}  # noqa: RUF012 - Gymnasium's field

    def __init__(
        self,
        preset: str = "standard",
        players: int | None = None,
        *,
        rules: Rules | None = None,
        seat: int = 0,
        opponents: str | Sequence[Any] = "standard",
        reward: str = "deal",
        illegal: str = "raise",
        render_mode: str | None = None,
        positions: Sequence[Position] | None = None,
        pass_direction: str = "rules",
        observation: str = "compact",
        lang: str = "en",
        **options: Any,
    ) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode = {render_mode!r} is not allowed; one of: human, ansi (or None)")
        check_lang(lang)
        self.rules = make_rules(preset, players, rules, **options)
        n = self.rules.players
        if not is_whole_in(seat, 0, n - 1):
            raise ValueError(f"seat = {seat!r} does not exist; seats are 0 to {n - 1}")
        self.seat = seat
        self.opponents = opponents
        make_bots(opponents, self.rules, [seat], 0)  # check them now, not at the first reset
        self.render_mode = render_mode
        self.lang = lang
        self.positions = check_positions(positions, self.rules)
        self.encoding = make_encoding(self.rules, observation)
        self.reward_mode = reward
        self.table = Table(self.rules, self.encoding, reward, illegal=illegal, pass_direction=pass_direction)
        self.observation_space = spaces.Box(self.encoding.low, self.encoding.high, dtype=np.float32)
        self.action_space = spaces.Discrete(self.encoding.actions)
        self._mask = np.zeros(self.encoding.actions, dtype=np.int8)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        game_seed = int(self.np_random.integers(0, 2**62))
        position, single = pick_position(options, self.positions, self.np_random, self.rules)
        self.table.bots = make_bots(self.opponents, self.rules, [self.seat], game_seed)
        self.table.start(game_seed, position, single)
        obs, self._mask = self._observe()
        return obs, {"action_mask": self._mask}

    def _observe(self) -> tuple[np.ndarray, np.ndarray]:
        if self.table.over:
            obs, _ = self.table.observe(self.seat)
            return obs, np.zeros(self.encoding.actions, dtype=np.int8)
        return self.table.observe(self.seat)

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        if self.table.over:
            raise ValueError("the game is over; call reset() to start another")
        rewards, illegal = self.table.act(self.seat, action)
        obs, self._mask = self._observe()
        info: dict[str, Any] = {"action_mask": self._mask}
        if illegal:
            info["illegal"] = True
        if self.render_mode == "human":
            self.render()
        return obs, rewards[self.seat], self.table.over, False, info

    def action_masks(self) -> np.ndarray:
        """The legal actions now, as booleans (maskable-PPO convention)."""
        return self._mask.astype(bool)

    def render(self) -> Any:  # str | None; gymnasium's own annotation differs between its releases
        if self.render_mode is None or self.table.game is None:
            return None
        text = render_text(self.table.game.observation(self.seat), self.lang)
        if self.render_mode == "ansi":
            return text
        print(text)
        return None


def register() -> None:
    """Register ``corazones/Hearts-v0`` with Gymnasium (done on importing :mod:`corazones.env`)."""
    if ENV_ID not in gymnasium.registry:
        gymnasium.register(id=ENV_ID, entry_point="corazones.env.single:HeartsEnv")
