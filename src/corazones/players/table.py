"""Drive a game with one player per seat, each seeing only its observation."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from corazones.core.actions import Action
from corazones.core.game import Game
from corazones.players.base import Player


def step(game: Game, players: Sequence[Player]) -> list[Action]:
    """Ask every seat that must act now and apply the answers (one round of a pass)."""
    done = []
    for seat in game.to_act():
        action = players[seat].act(game.observation(seat))
        game.apply(action)
        done.append(action)
    return done


def play_game(
    game: Game,
    players: Sequence[Player],
    on_action: Callable[[Game, Action], None] | None = None,
    max_hands: int | None = None,
) -> Game:
    """Play ``game`` to its end (or ``max_hands`` more hands) and return it."""
    if len(players) != game.rules.players:
        raise ValueError(f"{game.rules.players} players needed, got {len(players)}")
    stop = None if max_hands is None else game.hand_index + max_hands
    while not game.over and (stop is None or game.hand_index < stop):
        for action in step(game, players):
            if on_action is not None:
                on_action(game, action)
    return game
