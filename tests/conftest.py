"""Shared test helpers: random legal play through the public API."""

from __future__ import annotations

import random

from corazones.core import Action, Game, Kind


def random_action(game: Game, rng: random.Random) -> Action:
    """A uniformly random legal action for the first seat that must act."""
    seat = game.to_act()[0]
    if game.decision_kind() is Kind.PASS:
        hand = game.deal.hand(seat)
        return Action.pass_cards(seat, rng.sample(hand, game.rules.pass_count))
    return rng.choice(game.legal_actions(seat))


def play_random(game: Game, rng: random.Random, max_hands: int | None = None) -> Game:
    stop = None if max_hands is None else game.hand_index + max_hands
    while not game.over and (stop is None or game.hand_index < stop):
        game.apply(random_action(game, rng))
    return game
