"""The one player interface: a player sees an observation and answers it.

A player never receives the game state, only
:class:`~corazones.core.observation.Observation`, so bots cannot cheat by
construction.  :class:`Bot` dispatches each kind of decision to one method;
a subclass overrides the decisions it has an opinion about.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from typing import Protocol

from corazones.core.actions import Action, Kind
from corazones.core.observation import Observation
from corazones.core.scoring import game_end, team_totals


class Player(Protocol):
    """Anything that answers observations with actions (a bot, a human face, a remote seat)."""

    name: str

    def act(self, obs: Observation) -> Action: ...


class Bot(ABC):
    """Base class for computer players; ``seed`` makes its choices reproducible."""

    name = "bot"

    def __init__(self, seed: int | str | None = None) -> None:
        self.seed = seed
        self.rng = random.Random(seed)

    def act(self, obs: Observation) -> Action:
        k = obs.decision
        seat = obs.seat
        if k is Kind.PLAY:
            return Action.play(seat, self.choose_play(obs))
        if k is Kind.PASS:
            return Action.pass_cards(seat, self.choose_pass(obs))
        if k is Kind.BID:
            return Action.bid(seat, self.choose_bid(obs))
        if k is Kind.DECLARE:
            return Action.declare(seat, self.choose_declare(obs))
        if k is Kind.MOON:
            return Action.moon(seat, self.choose_moon(obs))
        raise ValueError(f"seat {seat} has no decision to make now")

    @abstractmethod
    def choose_play(self, obs: Observation) -> int:
        """The card to play."""

    def choose_pass(self, obs: Observation) -> list[int]:
        return self.rng.sample(list(obs.hand), obs.rules.pass_count)

    def choose_bid(self, obs: Observation) -> int:
        return 0

    def choose_declare(self, obs: Observation) -> int:
        return self.rng.randrange(4)

    def choose_moon(self, obs: Observation) -> str:
        """Default: the choice that leaves this seat best placed against the leader."""
        return best_moon_choice(obs)


def legal_cards(obs: Observation) -> list[int]:
    """Cards the observing seat may play now."""
    return [a.cards[0] for a in obs.legal if a.kind is Kind.PLAY]


def best_moon_choice(obs: Observation) -> str:
    """Pick the moon choice that maximises this side's lead over the best other side.

    Adding to the others can end the game; that is only good if we then win.
    Each choice is settled as the game will settle it: the hand's other points
    count too (an Omnibus J♦ taken by us or by another seat moves who is
    lowest), and :func:`~corazones.core.scoring.game_end` says whether the game
    ends and who wins (the target, the agreed hands, a tie that plays on).
    """
    r = obs.rules
    total = sum(_positive_total(obs))
    me = r.team_of(obs.seat)
    # Our side took every positive point and keeps only its bonus cards; the
    # others keep what they took (bonus cards only, as they took no penalty).
    # A partner's own share is not known under moon_needs = team, so the side's
    # positive points come off the shooter: only side totals decide the game.
    base = [obs.scores[s] + obs.points_taken[s] for s in range(r.players)]
    base[obs.seat] -= total
    outcomes = {}
    for choice in ("subtract_from_self", "add_to_others"):
        after = base[:]
        for s in range(r.players):
            if choice == "subtract_from_self" and s == obs.seat:
                after[s] -= total
            elif choice == "add_to_others" and r.team_of(s) != me:
                after[s] += total
        teams = team_totals(after, r.teams)
        margin = min(t for i, t in enumerate(teams) if i != me) - teams[me]
        winners = game_end(r, obs.hand_index + 1, after, obs.chips)
        # ending the game as a winner is a win outright; as anyone else, a loss
        if winners is None:
            value = margin
        elif obs.seat in winners:
            value = margin + 1000
        else:
            value = margin - 1000
        outcomes[choice] = value
    return max(outcomes, key=lambda c: (outcomes[c], c == "subtract_from_self"))


def _positive_total(obs: Observation) -> list[int]:
    vals = obs.card_values
    return [vals[c] for c in obs.rules.deck if vals[c] > 0]
