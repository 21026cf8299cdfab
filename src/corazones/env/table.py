"""One game as the environments drive it: action numbers in, rewards out, bots in some seats.

The PettingZoo environment, the Gymnasium environment and the batch helper
all step games the same way, so the rules of that stepping live here once:
a pass is picked card by card, rewards are counted per hand or per game, and
seats given to bots are played by the bots (on their own observations) until
a learning seat must decide.
"""

from __future__ import annotations

import operator
from collections.abc import Mapping
from typing import Any

import numpy as np

from corazones.core.actions import Action, Kind
from corazones.core.errors import IllegalActionError
from corazones.core.game import Game
from corazones.core.observation import HandResult
from corazones.core.position import Position, start_game
from corazones.core.rules import Rules
from corazones.env.encoding import Encoding

REWARDS = ("deal", "game")
ILLEGAL = ("raise", "random")
#: ``pass_direction=``: the rules' cycle from its first hand, or the first hand's direction drawn from the seed.
PASS_DIRECTION = ("rules", "random")


def action_number(action: Any) -> int:
    """``action`` as an action number: an ``int``, a numpy integer or a 0-d integer array (tensor).

    Not ``int(action)``: that turns ``2.7`` into card 2, ``True`` into 1 and
    ``"5"`` into 5, so a policy handing over floats or a wrong type would play
    a card it never chose.  Anything that is not an integer (``__index__``)
    is refused, as ``Discrete.contains`` refuses it.
    """
    if not isinstance(action, (bool, np.bool_)):
        try:
            return operator.index(action)
        except TypeError:
            pass
    raise ValueError(f"an action is a whole number (an int or a numpy integer), not {action!r}")


def side_points(result: HandResult, rules: Rules, seat: int) -> int:
    """What ``seat``'s side won in a finished hand: minus its points, or its chips with chip settlements."""
    if rules.settlement in ("chips_1887", "chips_pool"):
        return result.chips_delta[seat]
    return -sum(result.scores[s] for s in rules.teams[rules.team_of(seat)])


class Table:
    """A game, the seats' unfinished pass picks, and the bots playing some seats."""

    def __init__(
        self,
        rules: Rules,
        encoding: Encoding,
        reward: str = "deal",
        bots: Mapping[int, Any] | None = None,
        illegal: str = "raise",
        pass_direction: str = "rules",
    ) -> None:
        if reward not in REWARDS:
            raise ValueError(f"reward = {reward!r} is not allowed; one of: {', '.join(REWARDS)}")
        if illegal not in ILLEGAL:
            raise ValueError(f"illegal = {illegal!r} is not allowed; one of: {', '.join(ILLEGAL)}")
        if pass_direction not in PASS_DIRECTION:
            raise ValueError(f"pass_direction = {pass_direction!r} is not allowed; one of: {', '.join(PASS_DIRECTION)}")
        self.pass_direction = pass_direction
        self.rules = rules
        self.encoding = encoding
        self.reward = reward
        self.bots = dict(bots or {})
        self.illegal = illegal
        self.game: Game | None = None
        self.picked: list[list[int]] = [[] for _ in range(rules.players)]
        self.rng = np.random.default_rng(0)

    def start(self, seed: int, position: Position | None = None, single_deal: bool = False) -> list[float]:
        """A new game from ``seed`` (or at ``position``); bots move until a learning seat must act.

        Returns the rewards the bots' moves already brought (per seat).
        """
        self.rng = np.random.default_rng(seed)
        if position is None and self.pass_direction == "random":
            position = self.random_pass(seed)
        if position is not None:
            self.game = start_game(position, seed, single_deal=single_deal)
        else:
            self.game = Game(self.rules, seed)
        self.picked = [[] for _ in range(self.rules.players)]
        rewards = [0.0] * self.rules.players
        self._bots_play(rewards)
        return rewards

    def random_pass(self, seed: int) -> Position:
        """The first hand of the game dealt from ``seed``, its pass direction drawn from the seed.

        The direction is uniform over the rules' pass cycle (left, right,
        across and hold with four players), as OpenSpiel's ``hearts`` draws it
        at its first chance node, so one-deal episodes meet every direction;
        later hands follow the cycle from its second entry.
        """
        game = Game(self.rules, seed)
        cycle = self.rules.pass_cycle
        direction = cycle[int(np.random.default_rng([seed, 1]).integers(len(cycle)))]
        deal = game.deal
        hands = tuple(tuple(deal.hand(s)) for s in range(self.rules.players))
        return Position(self.rules, hands, tuple(deal.kitty), game.dealer, direction)

    # --------------------------------------------------------------- query
    @property
    def over(self) -> bool:
        return self.game is None or self.game.over

    def seat(self) -> int:
        """The seat to act now (the lowest seat still to pass during a pass); -1 once the game is over."""
        assert self.game is not None
        acting = self.game.to_act()
        return acting[0] if acting else -1

    def observe(self, seat: int) -> tuple[np.ndarray, np.ndarray]:
        """Observation vector and action mask of ``seat``."""
        assert self.game is not None
        obs = self.game.observation(seat)
        picked = self.picked[seat]
        return self.encoding.encode(obs, picked), self.encoding.mask(obs, picked)

    # ---------------------------------------------------------------- act
    def act(self, seat: int, action: Any) -> tuple[list[float], bool]:
        """``seat`` takes ``action`` (a number); bots then play on.  Rewards per seat, and whether it was illegal.

        With ``illegal="random"`` anything not allowed, a number out of range or
        not a whole number at all, is replaced by a random legal action.
        """
        game = self.game
        assert game is not None
        rewards = [0.0] * self.rules.players
        before = len(game.history)
        illegal = False
        try:
            self._apply(game, seat, action_number(action))
        except ValueError:
            if self.illegal == "raise":
                raise
            illegal = True
            legal = np.flatnonzero(self.encoding.mask(game.observation(seat), self.picked[seat]))
            self._apply(game, seat, int(legal[self.rng.integers(len(legal))]))
        self._count(before, rewards)
        self._bots_play(rewards)
        return rewards, illegal

    def _apply(self, game: Game, seat: int, number: int) -> None:
        kind = game.decision_kind() if seat in game.to_act() else None
        if kind is Kind.PASS:
            obs = game.observation(seat)  # the hand the cards are picked from
            chosen = self.picked[seat]
            left = list(obs.hand)
            for c in chosen:
                left.remove(c)
            if not 0 <= number < 52 or number not in left:
                what = self.encoding.describe(number)
                raise ValueError(f"player_{seat} is passing: pick one of the cards left in hand, not {what}")
            chosen.append(number)
            if len(chosen) == self.rules.pass_count:
                try:
                    game.apply(Action.pass_cards(seat, chosen))
                finally:
                    self.picked[seat] = []
            return
        try:
            game.apply(self.encoding.action_for(number, kind, seat))  # the game checks it is legal
        except IllegalActionError as e:
            raise ValueError(f"player_{seat}: {e}") from None

    def _count(self, before: int, rewards: list[float]) -> None:
        game = self.game
        assert game is not None
        if self.reward == "deal":
            for result in game.history[before:]:
                for s in range(self.rules.players):
                    rewards[s] += float(side_points(result, self.rules, s))
        elif game.over:
            for s in game.winners:
                rewards[s] += 1.0

    def _bots_play(self, rewards: list[float]) -> None:
        game = self.game
        assert game is not None
        while not game.over:
            acting = game.to_act()
            bot_seats = [s for s in acting if s in self.bots]
            if not bot_seats or (game.decision_kind() is not Kind.PASS and acting[0] not in self.bots):
                return
            before = len(game.history)
            for s in bot_seats:
                game.apply(self.bots[s].act(game.observation(s)))
                if game.decision_kind() is not Kind.PASS:
                    break
            self._count(before, rewards)
