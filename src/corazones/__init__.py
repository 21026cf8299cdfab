"""Corazones: Hearts and its whole family — rules engine, computer players, faces."""

from corazones.core import Action, Card, Game, Kind, Observation, Rules

__all__ = ["Action", "Card", "Game", "Kind", "Observation", "Rules"]
__version__ = "0.1.0"
