"""PettingZoo AEC environment for every Corazones preset and player count.

``hearts_v0.env(preset="standard", players=None, **options)`` gives the
wrapped environment (PettingZoo's order-enforcing and assertion wrappers),
``hearts_v0.raw_env(...)`` the bare one, ``hearts_v0.parallel_env(...)`` the
same through PettingZoo's parallel API (its turn-based wrapper).  Agents are ``player_0`` ...
``player_{n-1}``, seat numbers.  ``observe(agent)`` returns
``{"observation": float32 vector, "action_mask": int8 vector}`` built by
:class:`~corazones.env.encoding.Encoding` from ``game.observation(seat)``
alone: the environment is a face and never looks behind that boundary.

A pass is made card by card: the seat to pass picks one card per step until
it has chosen ``pass_count``, and the next seat does the same (the received
cards arrive only when everyone has passed, as at the table).  Bids, the suit
named and the moon choice are actions too (see the encoding's numbering).

Options of the environment (everything else is a rule option of the preset):

``reward``
    ``"deal"`` (default): at the end of every hand each agent receives minus
    the points its side scored in that hand (the chips won or lost with chip
    settlements).  ``"game"``: at the end of the game 1 for each winner and 0
    for the others, nothing before.
``render_mode``
    ``"ansi"`` (``render()`` returns the table as text) or ``"human"``
    (prints it).
``positions``
    a list of :class:`~corazones.core.position.Position`: each ``reset``
    starts from one of them, drawn from the seed (the same seed, the same
    position), instead of dealing from the seed; the game then goes on with
    deals from the seed.  A position plays by its own rules, so they must be
    the environment's (others are refused).  ``reset(options={"position": p})`` picks one for a
    single reset; ``"single_deal": True`` ends the episode with it.
``pass_direction``
    ``"rules"`` (default): the first hand passes as the rules' cycle starts
    (left).  ``"random"``: the first hand's direction is drawn from the seed,
    uniform over the cycle (OpenSpiel's ``hearts`` does so), for one-deal
    episodes (``hands=1``) that should meet every direction.
``illegal``
    ``"raise"`` (default): an action the mask does not allow raises
    ``ValueError``.  ``"terminate"``: PettingZoo's ``TerminateIllegalWrapper``
    convention: the episode ends at once (every agent terminated and
    truncated), the offender receives ``illegal_reward`` (default -1) and the
    others 0.  ``"random"``: a random legal action is played instead and
    ``infos[agent]["illegal"]`` says so.
``observation``
    ``"compact"`` (default) or ``"info_state"``, the perfect-recall
    information-state tensor (:class:`~corazones.env.encoding.InfoStateEncoding`).
``privileged_state``
    ``False`` (default).  ``True`` enables :meth:`raw_env.state`, every
    seat's observation and the kitty in one vector, for centralised critics:
    privileged information, outside the one boundary agents see through.
``lang``
    language of the rendered text (``"en"``, ``"es"``).

``reset(seed=s)`` makes the game reproducible: the same seed and the same
actions give the same game.  Only the agent to act has a non-zero action
mask; the simultaneous pass is offered to one seat after another (the
lowest seat still to pass first), as PettingZoo's classic games do.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv  # type: ignore[import-untyped]
from pettingzoo.utils import wrappers  # type: ignore[import-untyped]
from pettingzoo.utils.conversions import turn_based_aec_to_parallel  # type: ignore[import-untyped]

from corazones.core.game import Game
from corazones.core.observation import Observation
from corazones.core.position import Position
from corazones.core.rules import OPTION_NAMES, Rules
from corazones.env.encoding import make_encoding
from corazones.env.render import check_lang, render_text
from corazones.env.table import Table, action_number


def env(preset: str = "standard", players: int | None = None, **options: Any) -> AECEnv:
    """The environment with PettingZoo's standard safety wrappers."""
    e: AECEnv = raw_env(preset, players, **options)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    e = wrappers.OrderEnforcingWrapper(e)
    return e


def parallel_env(preset: str = "standard", players: int | None = None, **options: Any) -> Any:
    """The environment through PettingZoo's parallel API (its turn-based wrapper: one agent acts per step)."""
    return turn_based_aec_to_parallel(env(preset, players, **options))


def make_rules(
    preset: str = "standard", players: int | None = None, rules: Rules | None = None, **options: Any
) -> Rules:
    """The rules of an environment: a ``Rules`` value, or a preset with ``players`` and rule options."""
    if rules is not None:
        if options or players is not None:
            return rules.replace(**options, **({} if players is None else {"players": players}))
        return rules
    if players is not None:
        options["players"] = players
    return Rules.preset(preset, **options)


class raw_env(AECEnv):  # type: ignore[misc]  # PettingZoo names the bare class raw_env
    """Hearts (any preset) as a PettingZoo AEC environment; see the module docstring."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["human", "ansi"],
        "name": "corazones_hearts_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        preset: str = "standard",
        players: int | None = None,
        *,
        rules: Rules | None = None,
        reward: str = "deal",
        render_mode: str | None = None,
        positions: Sequence[Position] | None = None,
        pass_direction: str = "rules",
        illegal: str = "raise",
        illegal_reward: float = -1.0,
        observation: str = "compact",
        privileged_state: bool = False,
        lang: str = "en",
        **options: Any,
    ) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode = {render_mode!r} is not allowed; one of: human, ansi (or None)")
        check_lang(lang)
        if illegal not in AEC_ILLEGAL:
            raise ValueError(f"illegal = {illegal!r} is not allowed; one of: {', '.join(AEC_ILLEGAL)}")
        self.rules = make_rules(preset, players, rules, **options)
        self.render_mode = render_mode
        self.lang = lang
        self.positions = check_positions(positions, self.rules)
        self.encoding = make_encoding(self.rules, observation)
        self.illegal = illegal
        self.illegal_reward = float(illegal_reward)
        self.table = Table(
            self.rules,
            self.encoding,
            reward,
            illegal="random" if illegal == "random" else "raise",
            pass_direction=pass_direction,
        )
        n = self.rules.players
        self.possible_agents = [f"player_{s}" for s in range(n)]
        self.agent_name_mapping = {a: s for s, a in enumerate(self.possible_agents)}
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(self.encoding.low, self.encoding.high, dtype=np.float32),
                "action_mask": spaces.Box(0, 1, (self.encoding.actions,), dtype=np.int8),
            }
        )
        act_space: spaces.Space[Any] = spaces.Discrete(self.encoding.actions)
        self._obs_spaces = {a: obs_space for a in self.possible_agents}
        self._act_spaces = {a: act_space for a in self.possible_agents}
        self._np_random: np.random.Generator | None = None
        self._no_mask = np.zeros(self.encoding.actions, dtype=np.int8)
        self.privileged = bool(privileged_state)
        if self.privileged:
            # every seat's vector, then the kitty's cards (counts)
            size = self.encoding.size * n + 52
            low = np.concatenate([*([self.encoding.low] * n), np.zeros(52, dtype=np.float32)])
            high = np.concatenate([*([self.encoding.high] * n), np.full(52, self.rules.decks, dtype=np.float32)])
            self.state_space = spaces.Box(low, high, (size,), dtype=np.float32)

    # ------------------------------------------------------------- spaces
    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._obs_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._act_spaces[agent]

    # -------------------------------------------------------------- reset
    def reset(self, seed: int | None = None, options: Mapping[str, Any] | None = None) -> None:
        """Start a new game; ``options`` may hold ``position`` (and ``single_deal``); other keys are ignored."""
        if seed is not None or self._np_random is None:
            self._np_random = np.random.default_rng(seed)
        game_seed = int(self._np_random.integers(0, 2**62))
        position, single = pick_position(options, self.positions, self._np_random, self.rules)
        self.table.start(game_seed, position, single)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.table.seat()]

    @property
    def game(self) -> Game | None:
        """The game being played (for inspection; agents learn from ``observe`` only)."""
        return self.table.game

    # ------------------------------------------------------------ observe
    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """The agent's vector, and its action mask: all zeros unless it is the agent to act."""
        assert self.table.game is not None, "call reset() before observe()"
        vector, mask = self.table.observe(self.agent_name_mapping[agent])
        if agent != self.agent_selection:
            mask = self._no_mask.copy()
        return {"observation": vector, "action_mask": mask}

    def state(self) -> np.ndarray:
        """Privileged: every seat's vector (seat 0 first) and the kitty's cards, for centralised critics.

        This looks behind :meth:`Game.observation`'s boundary (it holds every
        hand), so it exists only with ``privileged_state=True``; an agent
        that acts on it is not playing Hearts.  Critics that learn from it
        while the policy sees ``observe`` alone are the intended use.
        """
        if not self.privileged:
            raise ValueError(
                "state() is privileged information (every hand); create the env with privileged_state=True"
            )
        game = self.table.game
        assert game is not None, "call reset() before state()"
        parts = [self.table.observe(s)[0] for s in range(self.rules.players)]
        kitty = np.bincount(np.array(game.deal.kitty, dtype=np.int64), minlength=52).astype(np.float32)
        return np.concatenate([*parts, kitty])

    def observation_of(self, agent: str) -> Observation:
        """The engine's observation for ``agent`` (what bots receive)."""
        assert self.table.game is not None, "call reset() before observation_of()"
        return self.table.game.observation(self.agent_name_mapping[agent])

    # --------------------------------------------------------------- step
    def step(self, action: Any) -> None:
        if self.terminations[self.agent_selection] or self.truncations[self.agent_selection]:
            self._was_dead_step(action)
            return
        agent = self.agent_selection
        self._cumulative_rewards[agent] = 0.0
        if self.illegal == "terminate" and not self._allowed(agent, action):
            self._terminate_illegal(agent)
            return
        rewards, illegal = self.table.act(self.agent_name_mapping[agent], action)
        self.infos[agent].pop("illegal", None)
        if illegal:
            self.infos[agent]["illegal"] = True
        for a in self.agents:
            self.rewards[a] = rewards[self.agent_name_mapping[a]]
        if self.table.over:
            for a in self.agents:
                self.terminations[a] = True
        else:
            self.agent_selection = self.possible_agents[self.table.seat()]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _allowed(self, agent: str, action: Any) -> bool:
        mask = self.table.observe(self.agent_name_mapping[agent])[1]
        try:
            number = action_number(action)
        except ValueError:
            return False
        return 0 <= number < len(mask) and bool(mask[number])

    def _terminate_illegal(self, agent: str) -> None:
        """PettingZoo's ``TerminateIllegalWrapper``: the game ends, the offender gets ``illegal_reward``."""
        self.terminations = dict.fromkeys(self.agents, True)
        self.truncations = dict.fromkeys(self.agents, True)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self.rewards[agent] = self.illegal_reward
        self.infos[agent] = {"illegal": True}
        self._accumulate_rewards()
        self._deads_step_first()

    # ------------------------------------------------------------- render
    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        if self.game is None:
            text = ""
        else:
            seat = self.agent_name_mapping.get(self.agent_selection, 0)
            text = render_text(self.game.observation(seat), self.lang)
        if self.render_mode == "ansi":
            return text
        print(text)
        return None

    def close(self) -> None:
        self.table.game = None


#: ``illegal=`` of the AEC environment.
AEC_ILLEGAL = ("raise", "terminate", "random")


def check_positions(positions: Sequence[Position] | None, rules: Rules) -> list[Position]:
    """``positions`` as a list, each checked to be a :class:`Position` under the environment's rules."""
    out = list(positions or ())
    for p in out:
        if not isinstance(p, Position) or p.rules.players != rules.players:
            raise ValueError(f"positions must be Position values for {rules.players} players, not {p!r}")
        check_rules(p, rules)
    return out


def check_rules(position: Position, rules: Rules) -> None:
    """Refuse a position whose rules are not the environment's (its name aside).

    The game started from a position plays by the position's rules, while the
    spaces, the encoding and the masks are the environment's: other rules
    would silently play another game (a whole match in a ``hands=1``
    environment) or ask for actions the action space does not hold.
    """
    differ = sorted(f for f in OPTION_NAMES if getattr(position.rules, f) != getattr(rules, f))
    if differ:
        raise ValueError(
            f"the position's rules differ from the environment's in {', '.join(differ)}: build positions with the "
            "environment's rules (env.rules), or create the environment with rules=position.rules"
        )


def pick_position(
    options: Mapping[str, Any] | None, positions: Sequence[Position], rng: np.random.Generator, rules: Rules
) -> tuple[Position | None, bool]:
    """The position a reset starts from, and single_deal.

    ``options["position"]`` if given, else one of ``positions`` drawn with
    ``rng`` (the environment's seeded generator: the same seed, the same
    position, which PettingZoo's and Gymnasium's seed checks require).
    """
    opts = options or {}
    position = opts.get("position")
    if position is None and positions:
        position = positions[int(rng.integers(len(positions)))]
    if isinstance(position, Mapping):
        position = Position.from_json(position, rules)
    if position is not None:
        if not isinstance(position, Position):
            raise ValueError(f"options['position'] must be a Position or its JSON form, not {position!r}")
        if position.rules.players != rules.players:
            raise ValueError(
                f"the position is for {position.rules.players} players; the environment has {rules.players}"
            )
        check_rules(position, rules)
    return position, bool(opts.get("single_deal", False))
