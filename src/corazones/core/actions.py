"""Decisions and actions: every choice a seat can make goes through one type.

A game asks seats for five kinds of decision (:class:`Kind`): pass cards, bid
(Auction Hearts), declare the penalty suit (the auction winner), play a card,
and the moon choice (the shooter).  An :class:`Action` is one seat's answer.
Actions serialise to small JSON objects such as ``{"seat": 1, "play": "QS"}``.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from corazones.core.cards import SUIT_LETTERS, card_str, parse_card
from corazones.core.errors import CardError, RecordError


class Kind(StrEnum):
    """Kind of decision a seat is asked to make."""

    PASS = "pass"
    BID = "bid"
    DECLARE = "declare"
    PLAY = "play"
    MOON = "moon"


#: The shooter's two answers to the moon choice.
MOON_CHOICES = ("subtract_from_self", "add_to_others")


@dataclass(frozen=True, slots=True)
class Action:
    """One seat's answer to a decision.

    ``cards`` holds the passed cards (``PASS``) or the one card played
    (``PLAY``); ``value`` holds the bid (0 = no bid), the declared suit index,
    or the moon choice string.
    """

    kind: Kind
    seat: int
    cards: tuple[int, ...] = ()
    value: int | str | None = None

    # ------------------------------------------------------------ builders
    @staticmethod
    def play(seat: int, card: int | str) -> Action:
        return Action(Kind.PLAY, seat, (_card(card),))

    @staticmethod
    def pass_cards(seat: int, cards: Any) -> Action:
        if isinstance(cards, str):
            cards = cards.replace(",", " ").split()
        return Action(Kind.PASS, seat, tuple(sorted(_card(c) for c in cards)))

    @staticmethod
    def bid(seat: int, amount: int) -> Action:
        """A bid of ``amount`` chips; 0 means pass (no bid)."""
        return Action(Kind.BID, seat, (), int(amount))

    @staticmethod
    def declare(seat: int, suit: int | str) -> Action:
        if isinstance(suit, str):
            s = suit.strip().upper()[:1]
            if len(s) != 1 or s not in SUIT_LETTERS:
                raise RecordError(f"not a suit: {suit!r}; use one of C D S H")
            suit = SUIT_LETTERS.index(s)
        return Action(Kind.DECLARE, seat, (), int(suit))

    @staticmethod
    def moon(seat: int, choice: str) -> Action:
        if choice not in MOON_CHOICES:
            raise RecordError(f"moon choice {choice!r} is not one of {', '.join(MOON_CHOICES)}")
        return Action(Kind.MOON, seat, (), choice)

    @property
    def card(self) -> int:
        """The card of a PLAY action."""
        return self.cards[0]

    # ---------------------------------------------------------- serialise
    def to_json(self) -> dict[str, Any]:
        k = self.kind
        if k is Kind.PLAY:
            return {"seat": self.seat, "play": card_str(self.cards[0])}
        if k is Kind.PASS:
            return {"seat": self.seat, "pass": [card_str(c) for c in self.cards]}
        if k is Kind.BID:
            return {"seat": self.seat, "bid": self.value}
        if k is Kind.DECLARE:
            assert isinstance(self.value, int)
            return {"seat": self.seat, "declare": SUIT_LETTERS[self.value]}
        return {"seat": self.seat, "moon": self.value}

    @staticmethod
    def from_json(data: Any) -> Action:
        """Parse ``{"seat": 0, "play": "2C"}`` and friends; :class:`RecordError` on bad input."""
        if not isinstance(data, dict):
            raise RecordError(f"an action is an object like {{'seat': 0, 'play': '2C'}}, not {data!r}")
        seat = data.get("seat")
        if not isinstance(seat, int) or isinstance(seat, bool):
            raise RecordError(f"action {data!r} needs an integer 'seat'")
        keys = [k for k in ("play", "pass", "bid", "declare", "moon") if k in data]
        if len(keys) != 1:
            raise RecordError(f"action {data!r} must have exactly one of play, pass, bid, declare, moon")
        key = keys[0]
        val = data[key]
        try:
            if key == "play":
                return Action.play(seat, val)
            if key == "pass":
                if not isinstance(val, list):
                    raise RecordError(f"'pass' must be a list of cards, not {val!r}")
                return Action.pass_cards(seat, val)
            if key == "bid":
                if not isinstance(val, int) or isinstance(val, bool):
                    raise RecordError(f"'bid' must be a whole number of chips (0 = no bid), not {val!r}")
                return Action.bid(seat, val)
            if key == "declare":
                return Action.declare(seat, val)
            return Action.moon(seat, val)
        except CardError as e:
            raise RecordError(f"action {data!r}: {e}") from None

    def __str__(self) -> str:
        k = self.kind
        if k is Kind.PLAY:
            return f"seat {self.seat} plays {card_str(self.cards[0])}"
        if k is Kind.PASS:
            return f"seat {self.seat} passes {' '.join(card_str(c) for c in self.cards)}"
        if k is Kind.BID:
            return f"seat {self.seat} {'bids ' + str(self.value) if self.value else 'passes the bid'}"
        if k is Kind.DECLARE:
            assert isinstance(self.value, int)
            return f"seat {self.seat} names {SUIT_LETTERS[self.value]} as penalty suit"
        return f"seat {self.seat} chooses {self.value}"


def _card(c: int | str) -> int:
    if isinstance(c, str):
        return parse_card(c)
    if isinstance(c, int) and 0 <= c < 52:
        return int(c)
    raise CardError(f"not a card: {c!r}")
