"""Many games at once: step a batch and get stacked numpy arrays back.

:class:`HeartsVector` keeps ``num_games`` games and steps them together with
one action each, returning ``(num_games, ...)`` arrays, so a policy network
evaluates one batch per step instead of one observation.  Two ways to use it:

* self-play (``opponents=None``): in every game the seat to act is a learner;
  :attr:`seats` says which seat each row is, and rewards come per seat,
  shape ``(num_games, players)``;
* against bots (``opponents="standard"`` or a list of levels): one learning
  ``seat`` in each game, the bots play the others; rewards have shape
  ``(num_games,)``.

A finished game is replaced by a new one at once (its seed follows from the
batch seed): the row's ``done`` is true on the step that ended it, and the
observation returned is the new game's first.

With ``illegal="raise"`` (default) every action is checked against the masks
last returned before any game moves: a batch with one action not allowed
raises ``ValueError`` naming the game, and no game has stepped.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from corazones.core.rules import Rules
from corazones.core.validate import is_whole_in
from corazones.env.encoding import make_encoding
from corazones.env.hearts_v0 import make_rules
from corazones.env.single import make_bots
from corazones.env.table import Table, action_number


class HeartsVector:
    """A batch of games stepped together (see the module docstring)."""

    def __init__(
        self,
        num_games: int,
        preset: str = "standard",
        players: int | None = None,
        *,
        rules: Rules | None = None,
        opponents: str | Sequence[str] | None = None,
        seat: int = 0,
        reward: str = "deal",
        illegal: str = "raise",
        pass_direction: str = "rules",
        observation: str = "compact",
        **options: Any,
    ) -> None:
        if not is_whole_in(num_games, 1):
            raise ValueError(f"num_games = {num_games!r} must be a whole number from 1")
        self.rules = make_rules(preset, players, rules, **options)
        n = self.rules.players
        if not is_whole_in(seat, 0, n - 1):
            raise ValueError(f"seat = {seat!r} does not exist; seats are 0 to {n - 1}")
        self.num_games = num_games
        self.opponents = opponents
        self.seat = seat
        self.encoding = make_encoding(self.rules, observation)
        self.tables = [
            Table(self.rules, self.encoding, reward, illegal=illegal, pass_direction=pass_direction)
            for _ in range(num_games)
        ]
        if opponents is not None:
            make_bots(opponents, self.rules, [seat], 0)
        self.illegal = illegal
        self.seats = np.zeros(num_games, dtype=np.int64)
        self._masks: np.ndarray | None = None  # the masks last returned: what step checks the actions against
        self._seed = 0
        self._games_started = 0

    @property
    def observation_size(self) -> int:
        return self.encoding.size

    @property
    def action_size(self) -> int:
        return self.encoding.actions

    def _start(self, i: int) -> list[float]:
        seed = hash((self._seed, self._games_started)) & (2**62 - 1)
        self._games_started += 1
        table = self.tables[i]
        if self.opponents is not None:
            table.bots = make_bots(self.opponents, self.rules, [self.seat], seed)
        return table.start(seed)

    def _row(self, i: int, obs: np.ndarray, mask: np.ndarray) -> None:
        table = self.tables[i]
        s = self.seat if self.opponents is not None else table.seat()
        self.seats[i] = s
        obs[i], mask[i] = table.observe(s)

    def reset(self, seed: int | None = None) -> tuple[np.ndarray, np.ndarray]:
        """New games in every row: observations ``(num_games, size)`` float32, masks ``(num_games, actions)`` int8."""
        self._seed = int(np.random.SeedSequence(seed).generate_state(1)[0]) if seed is None else seed
        self._games_started = 0
        obs = np.zeros((self.num_games, self.encoding.size), dtype=np.float32)
        mask = np.zeros((self.num_games, self.encoding.actions), dtype=np.int8)
        for i in range(self.num_games):
            self._start(i)
            self._row(i, obs, mask)
        self._masks = mask.copy()
        return obs, mask

    def _check(self, actions: Sequence[Any] | np.ndarray) -> None:
        """Refuse the batch before any game moves if one action is not allowed by the masks last returned.

        Stepping game by game and raising at the first bad action would leave
        the games before it moved, their observations lost, and a retried
        batch would move them twice.
        """
        assert self._masks is not None
        for i, action in enumerate(actions):
            try:
                number = action_number(action)
            except ValueError as e:
                raise ValueError(f"game {i}: {e}; no game was stepped") from None
            if not (0 <= number < self.encoding.actions and self._masks[i, number]):
                raise ValueError(
                    f"game {i}: player_{self.seats[i]} may not take action {self.encoding.describe(number)} now "
                    "(its mask does not allow it); no game was stepped"
                )

    def step(self, actions: Sequence[int] | np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """One action per game: ``(observations, masks, rewards, dones)`` as stacked arrays."""
        if self._masks is None:
            raise ValueError("call reset() before step()")
        if len(actions) != self.num_games:
            raise ValueError(f"step needs {self.num_games} actions (one per game), not {len(actions)}")
        if self.illegal == "raise":
            self._check(actions)
        n = self.rules.players
        selfplay = self.opponents is None
        obs = np.zeros((self.num_games, self.encoding.size), dtype=np.float32)
        mask = np.zeros((self.num_games, self.encoding.actions), dtype=np.int8)
        rewards = np.zeros((self.num_games, n) if selfplay else self.num_games, dtype=np.float32)
        dones = np.zeros(self.num_games, dtype=bool)
        for i, table in enumerate(self.tables):
            got, _ = table.act(int(self.seats[i]), actions[i])
            if selfplay:
                rewards[i] = got
            else:
                rewards[i] = got[self.seat]
            if table.over:
                dones[i] = True
                self._start(i)
            self._row(i, obs, mask)
        self._masks = mask.copy()
        return obs, mask, rewards, dones
