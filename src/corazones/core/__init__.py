"""The core floor: cards, rules, the game state machine, scoring and records.

It imports nothing above it and does no I/O.
"""

from corazones.core.actions import Action, Kind
from corazones.core.applied import Applied
from corazones.core.cards import CARDS, Card, CardSet, card_str, parse_card, parse_cards
from corazones.core.deal import Deal, Trick
from corazones.core.errors import CardError, CorazonesError, IllegalActionError, RecordError, RulesError
from corazones.core.game import Game
from corazones.core.observation import HandResult, Observation
from corazones.core.rules import PRESETS, Rules

__all__ = [
    "CARDS",
    "PRESETS",
    "Action",
    "Applied",
    "Card",
    "CardError",
    "CardSet",
    "CorazonesError",
    "Deal",
    "Game",
    "HandResult",
    "IllegalActionError",
    "Kind",
    "Observation",
    "RecordError",
    "Rules",
    "RulesError",
    "Trick",
    "card_str",
    "parse_card",
    "parse_cards",
]
