"""The analysis board: every legal card's expected points for the seat to act, from a position.

A position comes from :mod:`corazones.core.position` (the hands as dealt,
the standing, then the actions so far) or is any :class:`Game` or
:class:`Observation`.  :func:`analyse` values each card the seat to act may
play with the ``expert``'s search (as the game review does,
:mod:`corazones.players.review`): deals consistent with what that seat has
seen are sampled, every card is played out to the end of the hand on the
same deals, and each finished hand is valued for the whole game.  Only the
seat's observation is read, so the other hands given in a position do not
change the figures: a player who knows only their own hand may fill the
others with any cards that fit.

With ``open_hands=True`` the board is for study with every card face up:
each card is played out once on the real deal, every seat then playing the
fast policy of :mod:`corazones.players.rollout`.  Those figures use hidden
information and say what would have been best *had you known*; they are not
what a player at the table could know.

The figures are deterministic for a position, a budget and a seed.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from corazones.core.actions import Action, Kind
from corazones.core.cards import card_str
from corazones.core.game import Game
from corazones.core.observation import Observation
from corazones.core.position import Position, replay, start_game
from corazones.players.review import WORLDS, value_cards
from corazones.players.rollout import Context, play_out
from corazones.players.search import DEFEND_SHARE, Scorer

__all__ = ["Analysis", "CardValue", "analyse", "analyse_position"]


@dataclass(frozen=True, slots=True)
class CardValue:
    """One legal card: its expected value for the whole game (higher is better) and the hand points it costs.

    ``points`` is the expected points the seat's side takes in the hand
    (chips lost, under a chip settlement); ``loss`` is how much worse than
    the best card it is, in the same units as ``value`` (0 for the best).
    """

    card: int
    value: float
    points: float
    loss: float

    def to_json(self) -> dict[str, Any]:
        return {
            "card": card_str(self.card),
            "value": round(self.value, 2),
            "points": round(self.points, 2),
            "loss": round(self.loss, 2),
        }


@dataclass(frozen=True, slots=True)
class Analysis:
    """The cards of the seat to act, best first, and how they were valued."""

    seat: int
    cards: tuple[CardValue, ...]
    worlds: int
    open_hands: bool

    @property
    def best(self) -> int:
        return self.cards[0].card

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "open_hands": self.open_hands,
            "worlds": self.worlds,
            "cards": [c.to_json() for c in self.cards],
        }


def _base(obs: Observation, seed: int | str) -> int:
    key = repr((seed, obs.hand, obs.tricks, obs.trick, obs.scores, obs.hand_index))
    return int.from_bytes(hashlib.sha256(key.encode()).digest()[:8], "big") >> 1


def analyse(
    where: Game | Observation,
    *,
    worlds: int = WORLDS,
    seed: int | str = 0,
    open_hands: bool = False,
) -> Analysis:
    """Every legal card's expected value for the seat to act in ``where`` (a game, or that seat's observation).

    Raises ``ValueError`` when nobody is to play a card (the pass, the
    auction, the moon choice or the end of the game), when the observation
    is of a seat that is not to act, or when ``open_hands`` is asked of a
    bare observation (it holds no other hand).
    """
    if worlds < 1:
        raise ValueError(f"worlds must be at least 1, not {worlds}")
    game = where if isinstance(where, Game) else None
    if game is not None:
        if game.decision_kind() is not Kind.PLAY:
            raise ValueError(_no_play(game.decision_kind()))
        obs = game.observation(game.to_act()[0])
    else:
        assert isinstance(where, Observation)
        obs = where
    if obs.decision is None and not obs.game_over:
        # an observation of a seat that waits: another seat acts (saying "the game is over" would be false)
        raise ValueError(
            f"the analysis board values the cards of the seat to act, and seat {obs.seat} is not to act now "
            f"(to act: seat {', '.join(map(str, obs.to_act))}): analyse that seat's observation, or the game"
        )
    if obs.decision is not Kind.PLAY:
        raise ValueError(_no_play(obs.decision))
    if open_hands:
        if game is None:
            raise ValueError("open_hands needs the game (every hand), not one seat's observation")
        return _open(game, obs)
    groups, tallies = value_cards(obs, None, worlds, _base(obs, seed))
    rows: list[tuple[int, float, float]] = []
    for g, t in zip(groups, tallies, strict=True):
        rows.extend((c, t.mean(), t.mean_points()) for c in g)
    return _board(obs.seat, rows, worlds, False)


def _no_play(kind: Kind | None) -> str:
    now = "the game is over" if kind is None else f"the decision now is to {kind.value}"
    return f"the analysis board values cards to play, and {now}"


def _board(seat: int, rows: list[tuple[int, float, float]], worlds: int, open_hands: bool) -> Analysis:
    top = max(v for _, v, _ in rows)
    cards = tuple(
        CardValue(c, v, p, max(0.0, top - v)) for c, v, p in sorted(rows, key=lambda r: (-round(r[1], 9), r[0]))
    )
    return Analysis(seat, cards, worlds, open_hands)


def _open(game: Game, obs: Observation) -> Analysis:
    scorer = Scorer(obs)
    true = game.deal.clone()
    ctx = Context(true)
    rows = []
    for a in obs.legal:
        c = a.cards[0]
        d = true.clone()
        d.play_card(c)
        play_out(d, ctx, -1, DEFEND_SHARE)
        v, p = scorer.outcome(d, obs.seat)
        rows.append((c, v, p))
    return _board(obs.seat, rows, 1, True)


def analyse_position(
    position: Position,
    actions: Iterable[Action | Mapping[str, Any]] = (),
    *,
    worlds: int = WORLDS,
    seed: int | str = 0,
    open_hands: bool = False,
) -> Analysis:
    """:func:`analyse` at ``position`` after ``actions`` (as :func:`corazones.core.position.replay` takes them).

    The hand is analysed on its own (``start_game(..., single_deal=True)``
    is not used: the position's scores and target still count, so a card
    that loses the game is valued as such).
    """
    game = replay(start_game(position, seed=0), actions)
    return analyse(game, worlds=worlds, seed=seed, open_hands=open_hands)
