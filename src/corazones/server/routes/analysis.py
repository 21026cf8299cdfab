"""The analysis board over HTTP: every legal card's expected points, from a replay position or a typed one.

``POST /api/games/{id}/analysis`` values the cards of the seat to act at a
point of a finished game: ``step=N`` (the position before the record's action
``N``, counted from 0, as a review decision's ``index``), or ``hand``,
``trick`` (both from 1) and ``played`` (the cards already in that trick, 0 by
default).  ``POST /api/analysis`` does the same for a position typed in: a
body ``{"position": ..., "actions": [...]}`` as
:func:`corazones.players.analysis.analyse_position` takes it (the position of
:mod:`corazones.core.position`, then the actions since, passes included).

``worlds`` (at most :data:`~corazones.players.review.WORLDS`, default
:data:`WORLDS`) is the number of sampled deals per card; ``open_hands=true``
plays every card out on the real deal instead (hindsight: every card face
up).  The replay is rebuilt in a thread and the search runs in the server's
expert worker pool (:meth:`~corazones.server.bots.BotPools.analyse`), never
on the event loop, queued with the hints: when too many already wait the
request is refused with ``rate_limited``.  A position where nobody is to play
a card (the pass, the auction, the moon choice, the end) is ``malformed``,
with the reason.

The answer is ``{"seat", "hand", "trick", "played", "step", "cards_held",
"trick_cards", "scores", "points_taken", "chosen", "players", "analysis"}``:
where the board stands (hand and trick from 1), what the seat to act holds,
the trick so far as ``[seat, card]`` pairs, the standing before the hand and
the points taken in it, the card the game went on with (``None`` for a typed
position or the end of the record), the players' names (a replay's) and
:meth:`~corazones.players.analysis.Analysis.to_json`.
"""

from __future__ import annotations

import asyncio
import json
from typing import Annotated, Any

from fastapi import APIRouter, Query
from pydantic import BaseModel, ConfigDict, Field

from corazones.core.actions import Action, Kind
from corazones.core.cards import card_str
from corazones.core.errors import CorazonesError
from corazones.core.game import Game
from corazones.core.position import Position, replay, start_game
from corazones.core.rules import Rules
from corazones.i18n import N_
from corazones.players.review import WORLDS as MAX_WORLDS
from corazones.server.bots import Busy
from corazones.server.deps import HubDep, refused
from corazones.server.hub import Hub, Refused
from corazones.server.routes.games import _finished

router = APIRouter(prefix="/api")

#: Sampled deals per card when the request does not say: half a second of one core at most.
WORLDS = 200
#: Actions a typed position may list after its deal (a whole hand of eleven players with passes fits).
MAX_ACTIONS = 200


class AnalysisBody(BaseModel):
    """A typed position: the deal and standing (``core.position``) and the actions since, as records write them."""

    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)

    position: dict[str, Any]
    actions: Annotated[list[dict[str, Any]], Field(max_length=MAX_ACTIONS)] = []
    worlds: Annotated[int, Field(ge=1, le=MAX_WORLDS)] = WORLDS
    open_hands: bool = False


def _malformed(template: str, **params: Any) -> Exception:
    return refused(Refused("malformed", template, **params))


def _at_point(
    rules: Rules, seed: Any, actions: list[Action], step: int | None, hand: int | None, trick: int | None, played: int
) -> tuple[Game, int, Action | None]:
    """The game before action ``step``, or at ``hand``/``trick``/``played``; and the action taken there."""
    game = Game(rules, seed)
    if step is not None:
        if step > len(actions):
            raise _malformed(N_("step must be a number from 0 to {last}, not {value}"), last=len(actions), value=step)
        for a in actions[:step]:
            game.apply(a)
        return game, step, actions[step] if step < len(actions) else None
    assert hand is not None and trick is not None
    for i, a in enumerate(actions):
        d = game.deal
        here = game.hand_index == hand - 1 and len(d.tricks) == trick - 1 and len(d.trick_cards) == played
        if here and game.decision_kind() is Kind.PLAY:
            return game, i, a
        if game.hand_index > hand - 1:
            break
        game.apply(a)
    raise _malformed(
        N_("this game has no card {played} of trick {trick} of hand {hand} to analyse"),
        played=played + 1,
        trick=trick,
        hand=hand,
    )


def _board(game: Game) -> dict[str, Any]:
    """Where the board stands, from the seat to act's observation (what it may know)."""
    kind = game.decision_kind()
    if kind is not Kind.PLAY:
        now = N_("the game is over") if kind is None else N_("the decision here is not a card to play")
        raise _malformed(N_("the analysis board values cards to play, and {reason}"), reason=now)
    seat = game.to_act()[0]
    obs = game.observation(seat)
    return {
        "seat": seat,
        "hand": obs.hand_index + 1,
        "trick": len(obs.tricks) + 1,
        "played": len(obs.trick),
        "cards_held": [card_str(c) for c in obs.hand],
        "trick_cards": [[s, card_str(c)] for s, c in obs.trick],
        "scores": list(obs.scores),
        "points_taken": list(obs.points_taken),
        "rules": obs.rules.to_dict(),
    }


async def _analyse(h: Hub, game: Game, worlds: int, open_hands: bool) -> dict[str, Any]:
    try:
        result: dict[str, Any] = await h.bots.analyse(game, worlds, open_hands)
    except Busy:
        raise refused(
            Refused("rate_limited", N_("The bots are busy: ask for the analysis again in a moment."))
        ) from None
    return result


@router.post("/games/{game_id}/analysis")
async def analyse_replay(
    game_id: str,
    h: HubDep,
    step: Annotated[int | None, Query(ge=0, le=100_000)] = None,
    hand: Annotated[int | None, Query(ge=1, le=10_000)] = None,
    trick: Annotated[int | None, Query(ge=1, le=200)] = None,
    played: Annotated[int, Query(ge=0, le=15)] = 0,
    worlds: Annotated[int, Query(ge=1, le=MAX_WORLDS)] = WORLDS,
    open_hands: bool = False,
) -> dict[str, Any]:
    if step is None and (hand is None or trick is None):
        raise _malformed(N_("say where to analyse: step=N, or hand=H and trick=T (and played=P)"))
    row, events = await _finished(h, game_id)

    def build() -> tuple[Game, int, Action | None, dict[str, Any]]:
        rules = Rules.from_dict(json.loads(row.rules))
        actions = [Action.from_json(ev.data["action"]) for ev in events]
        game, at, taken = _at_point(rules, row.seed, actions, step, hand, trick, played)
        return game, at, taken, _board(game)

    game, at, taken, board = await asyncio.to_thread(build)
    seats = json.loads(row.seats)
    players = [s.get("name") or (f"{s['level']} bot" if s.get("level") else f"seat {i}") for i, s in enumerate(seats)]
    chosen = card_str(taken.cards[0]) if taken is not None and taken.kind is Kind.PLAY else None
    analysis = await _analyse(h, game, worlds, open_hands)
    return {**board, "step": at, "game": game_id, "chosen": chosen, "players": players, "analysis": analysis}


@router.post("/analysis")
async def analyse_typed(body: AnalysisBody, h: HubDep) -> dict[str, Any]:
    def build() -> tuple[Game, dict[str, Any]]:
        try:
            game = replay(start_game(Position.from_json(body.position), seed=0), body.actions)
        except CorazonesError as e:
            raise refused(Refused("malformed", N_("this position cannot be analysed: {error}"), error=e)) from None
        return game, _board(game)

    game, board = await asyncio.to_thread(build)
    n = game.rules.players
    analysis = await _analyse(h, game, body.worlds, body.open_hands)
    return {
        **board,
        "step": None,
        "game": None,
        "chosen": None,
        "players": [f"seat {i}" for i in range(n)],
        "analysis": analysis,
    }
