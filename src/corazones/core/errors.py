"""Errors raised by the core.  Every message names what was wrong and what is allowed."""

from __future__ import annotations


class CorazonesError(Exception):
    """Base class of every error the core raises on bad input."""


class CardError(CorazonesError, ValueError):
    """A card string or card set that cannot be parsed or is inconsistent."""


class RulesError(CorazonesError, ValueError):
    """An unknown preset or option, or an impossible combination of options."""


class IllegalActionError(CorazonesError, ValueError):
    """An action that the rules do not allow now; the state is left untouched."""


class RecordError(CorazonesError, ValueError):
    """A game record or hand log that is malformed or does not replay."""


class SeedError(CorazonesError, ValueError):
    """A game seed that is neither a bounded whole number nor a short string of text."""
