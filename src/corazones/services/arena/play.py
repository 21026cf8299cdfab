"""Playing one board: every rotation of its seating at a table, each decision timed around ``act`` only."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from corazones.core.cards import card_str
from corazones.core.errors import N_, CorazonesError, IllegalActionError
from corazones.core.game import Game
from corazones.core.limits import show
from corazones.players.base import Player
from corazones.services.arena.config import CHIP_SETTLEMENTS, ArenaConfig, ArenaError, resolve_player
from corazones.services.stats import TimeHistogram


@dataclass(frozen=True, slots=True)
class SeatRow:
    """One seat of one table: who sat there, which hand they held and how they fared.

    ``hand`` is the holding first dealt to the seat (before any pass), so the
    rows show that the rotations of a board really hand every contender every
    hand.  ``points`` is the seat's total over the hands played (one hand in
    deals mode); ``win_share`` is 1/len(winners) if the seat won the game
    (games mode only).
    """

    board: int
    rotation: int
    seat: int
    contender: int
    hand: str
    hands: int
    points: int
    moons_shot: int
    moons_suffered: int
    win_share: float | None
    moves: int
    move_seconds: float

    def outcome(self) -> tuple[Any, ...]:
        """Everything but the measured time: equal for equal seeds on any backend."""
        return (
            self.board,
            self.rotation,
            self.seat,
            self.contender,
            self.hand,
            self.hands,
            self.points,
            self.moons_shot,
            self.moons_suffered,
            self.win_share,
            self.moves,
        )


@dataclass(slots=True)
class BoardResult:
    """Every table of one board, plus per-contender moon counts and move-time histograms."""

    board: int
    rows: list[SeatRow]
    moons_shot: list[int]
    moons_suffered: list[int]
    times: list[TimeHistogram]


def _make_player(config: ArenaConfig, contender: int, seed: str) -> Player:
    """Contender ``contender``'s player for one seat, made from the seat's seed.

    A ``module:attribute`` contender is any callable: one that does not take
    a seed (``os:getcwd``) or does not give a player (``json:dumps``) is named
    in one line rather than failing somewhere inside the first move.
    """
    spec = config.contenders[contender]
    try:
        player = resolve_player(spec)(seed)
    except CorazonesError:
        raise
    except Exception as e:
        raise ArenaError(
            N_("player {spec}: calling it with a seat's seed failed ({error})"),
            spec=repr(spec),
            error=f"{type(e).__name__}: {e}",
        ) from None
    if not callable(getattr(player, "act", None)):
        raise ArenaError(
            N_("player {spec} gave {value}, which is not a player: a player has act(observation) -> Action"),
            spec=repr(spec),
            value=show(player),
        )
    return player


def play_table(
    config: ArenaConfig, board: int, rotation: int
) -> tuple[list[SeatRow], list[int], list[int], list[TimeHistogram]]:
    """Play one board in one rotation; every decision is timed around ``act`` only."""
    rules = config.board_rules(board)
    n = rules.players
    owners = config.owners(rotation)
    game_seed = config.board_seed(board)
    game = Game(rules, seed=game_seed)
    hands0 = [" ".join(card_str(c) for c in game.deal.hand(s)) for s in range(n)]
    players = [_make_player(config, owners[s], config.bot_seed(board, rotation, s)) for s in range(n)]
    times = [TimeHistogram() for _ in range(config.k)]
    moves = [0] * n
    seconds = [0.0] * n
    stop = 1 if config.mode == "deals" else config.max_game_hands
    labels = config.labels
    while not game.over and game.hand_index < stop:
        for seat in game.to_act():
            obs = game.observation(seat)
            t0 = time.perf_counter()
            action = players[seat].act(obs)
            dt = time.perf_counter() - t0
            try:
                game.apply(action)
            except IllegalActionError as e:
                raise ArenaError(
                    N_(
                        "{player} in seat {seat} made an illegal move on board {board}, rotation {rotation} "
                        "(game seed {seed}, bot seed {bot_seed}): {error}"
                    ),
                    player=labels[owners[seat]],
                    seat=seat,
                    board=board,
                    rotation=rotation,
                    seed=repr(game_seed),
                    bot_seed=repr(config.bot_seed(board, rotation, seat)),
                    error=e,
                ) from None
            moves[seat] += 1
            seconds[seat] += dt
            times[owners[seat]].add(dt)
    if config.mode == "games" and not game.over:
        raise ArenaError(
            N_(
                "board {board} (game seed {seed}) did not end within {hands} hands; "
                "raise max_game_hands or give the rules an end"
            ),
            board=board,
            seed=repr(game_seed),
            hands=config.max_game_hands,
        )
    chips = rules.settlement in CHIP_SETTLEMENTS
    points = [0] * n
    shot = [0] * n
    suffered = [0] * n
    c_shot = [0] * config.k
    c_suffered = [0] * config.k
    present = set(owners)
    for hr in game.history:
        for s in range(n):
            points[s] += -hr.chips_delta[s] if chips else hr.scores[s]
        if hr.shooter is not None:
            o = owners[hr.shooter]
            shot[hr.shooter] += 1
            c_shot[o] += 1
            for s in range(n):
                if owners[s] != o:
                    suffered[s] += 1
            for c in present - {o}:
                c_suffered[c] += 1
    winners = game.winners if config.mode == "games" else ()
    rows = [
        SeatRow(
            board=board,
            rotation=rotation,
            seat=s,
            contender=owners[s],
            hand=hands0[s],
            hands=len(game.history),
            points=points[s],
            moons_shot=shot[s],
            moons_suffered=suffered[s],
            win_share=(1 / len(winners) if s in winners else 0.0) if config.mode == "games" else None,
            moves=moves[s],
            move_seconds=seconds[s],
        )
        for s in range(n)
    ]
    return rows, c_shot, c_suffered, times


def play_board(config: ArenaConfig, board: int) -> BoardResult:
    """Play ``board`` in each of its rotations."""
    result = BoardResult(board, [], [0] * config.k, [0] * config.k, [TimeHistogram() for _ in range(config.k)])
    for rotation in config.rotations(board):
        rows, shot, suffered, times = play_table(config, board, rotation)
        result.rows.extend(rows)
        for c in range(config.k):
            result.moons_shot[c] += shot[c]
            result.moons_suffered[c] += suffered[c]
            result.times[c].merge(times[c])
    return result


def play_boards(config: ArenaConfig, boards: Sequence[int]) -> list[BoardResult]:
    """The unit of work sent to a process or a Ray task: a few boards in a row."""
    return [play_board(config, b) for b in boards]
