"""Decisions and actions: every choice a seat can make goes through one type.

A game asks seats for five kinds of decision (:class:`Kind`): pass cards, bid
(Auction Hearts), declare the penalty suit (the auction winner), play a card,
and the moon choice (the shooter).  An :class:`Action` is one seat's answer.
Actions serialise to small JSON objects such as ``{"seat": 1, "play": "QS"}``.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from itertools import islice
from typing import Any, Final

from corazones.core import validate
from corazones.core.cards import SUIT_GLYPHS, SUIT_LETTERS, card_str, parse_card
from corazones.core.errors import N_, CardError, Count, IllegalActionError, Message, RecordError, Seats
from corazones.core.limits import MAX_BID, MAX_PLAYERS, index_below, key_of, show
from corazones.core.validate import is_whole, is_whole_in


class Kind(StrEnum):
    """Kind of decision a seat is asked to make."""

    PASS = "pass"
    BID = "bid"
    DECLARE = "declare"
    PLAY = "play"
    MOON = "moon"


#: Each kind as a word inside a message for people ("play is not possible now", "seat 2's turn to bid").
KIND_WORDS: Final = {
    Kind.PASS: Message(N_("pass")),
    Kind.BID: Message(N_("bid")),
    Kind.DECLARE: Message(N_("declare")),
    Kind.PLAY: Message(N_("play")),
    Kind.MOON: Message(N_("moon")),
}


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
        """Seat ``seat`` plays ``card``: the one shared :data:`PLAY_ACTIONS` object when the seat can exist."""
        c = _card(card)
        if type(seat) is int and 0 <= seat < MAX_PLAYERS:
            return PLAY_ACTIONS[seat][c]
        return PLAY_ACTIONS[_seat(seat)][c]

    @staticmethod
    def pass_cards(seat: int, cards: Any) -> Action:
        """Seat ``seat`` passes ``cards``: card strings (a list, or one string split at spaces, commas) or indexes."""
        seat = _seat(seat)
        if isinstance(cards, str):
            cards = cards.replace(",", " ").split()
        try:
            given = list(islice(cards, _MAX_PASS + 1))
        except TypeError:
            raise CardError(N_("a pass is a list of cards, not {value}"), value=show(cards)) from None
        if len(given) > _MAX_PASS:
            raise CardError(N_("a pass is a list of at most {most} cards"), most=_MAX_PASS)
        if all(type(c) is int and 0 <= c < 52 for c in given):  # card indexes (a hand from the engine): as they are
            return Action(Kind.PASS, seat, tuple(sorted(given)))
        return Action(Kind.PASS, seat, tuple(sorted(_card(c) for c in given)))

    @staticmethod
    def bid(seat: int, amount: int) -> Action:
        """A bid of ``amount`` chips; 0 means pass (no bid).  The game checks what the seat may bid.

        A negative bid, which no table allows, is refused here rather than built and
        refused only by ``apply``; a bid too high for a table is left to the game, which
        names that table's own range (a hand log's bid is then illegal, not malformed).
        """
        seat = _seat(seat)
        if not is_whole(amount):
            raise RecordError(N_("a bid is a whole number of chips (0 = no bid), not {value}"), value=show(amount))
        if amount < 0:
            raise RecordError(
                N_("'bid' must be a whole number of chips from 0 (no bid) to {most}, not {value}"),
                most=Count(MAX_BID),
                value=show(amount),
            )
        return Action(Kind.BID, seat, (), int(amount))

    @staticmethod
    def declare(seat: int, suit: int | str) -> Action:
        """Name the penalty suit: a suit letter (``"D"``, ``"d"``, ``"♦"``) or index 0-3."""
        seat = _seat(seat)
        if isinstance(suit, str):
            s = suit.strip().upper()
            if s in SUIT_GLYPHS and len(s) == 1:
                s = SUIT_LETTERS[SUIT_GLYPHS.index(s)]
            if len(s) != 1 or s not in SUIT_LETTERS:
                raise RecordError(N_("not a suit: {value}; use one of C D S H"), value=show(suit))
            suit = SUIT_LETTERS.index(s)
        if not is_whole_in(suit, 0, 3):
            raise RecordError(N_("not a suit: {value}; use one of C D S H"), value=show(suit))
        return Action(Kind.DECLARE, seat, (), int(suit))

    @staticmethod
    def moon(seat: int, choice: str) -> Action:
        """The shooter's moon choice, one of :data:`MOON_CHOICES`."""
        seat = _seat(seat)
        if not isinstance(choice, str) or choice not in MOON_CHOICES:
            raise RecordError(
                N_("moon choice {value} is not one of {choices}"), value=show(choice), choices=", ".join(MOON_CHOICES)
            )
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
        """Parse ``{"seat": 0, "play": "2C"}`` and friends; :class:`RecordError` on bad input.

        Strict on purpose, because actions arrive from files and from the
        network: exactly ``seat`` and one of the kinds, cards as strings
        (a JSON number would otherwise read as a card index), whole numbers
        that are not ``true``/``false``, and every value within its bounds.
        """
        if not isinstance(data, dict):
            raise RecordError(
                N_("an action is an object like {example}, not {value}"), example=_EXAMPLE, value=show(data)
            )
        kinds = [k for k in ACTION_KEYS if k in data]
        extra = [k for k in data if k != "seat" and k not in ACTION_KEYS]
        if extra:
            raise RecordError(
                N_("action {action}: unknown key(s) {keys}; an action has 'seat' and one of {kinds}"),
                action=show(data),
                keys=", ".join(map(key_of, extra)),
                kinds=", ".join(ACTION_KEYS),
            )
        if len(kinds) != 1:
            raise RecordError(
                N_("action {action} must have exactly one of {kinds}"), action=show(data), kinds=", ".join(ACTION_KEYS)
            )
        if "seat" not in data:
            raise RecordError(
                N_("action {action} has no 'seat'; a seat is a whole number 0 to {last}"),
                action=show(data),
                last=MAX_PLAYERS - 1,
            )
        key = kinds[0]
        val = data[key]
        try:
            # any seat of the largest table: the game checks it against its own
            seat = validate.seat(data["seat"], MAX_PLAYERS, "seat", RecordError, _SEAT)
            if key == "play":
                if not isinstance(val, str):
                    raise RecordError(
                        N_("'play' must be a card written as a string like \"QS\", not {value}"), value=show(val)
                    )
                return Action.play(seat, val)
            if key == "pass":
                if not isinstance(val, list) or not all(isinstance(c, str) for c in val):
                    raise RecordError(
                        N_('\'pass\' must be a list of cards like ["QS", "AH", "2D"], not {value}'), value=show(val)
                    )
                return Action.pass_cards(seat, val)
            if key == "bid":
                if not is_whole_in(val, 0, MAX_BID):
                    raise RecordError(
                        N_("'bid' must be a whole number of chips from 0 (no bid) to {most}, not {value}"),
                        most=Count(MAX_BID),
                        value=show(val),
                    )
                return Action.bid(seat, val)
            if key == "declare":
                if not isinstance(val, str):
                    raise RecordError(N_("'declare' must be a suit letter C, D, S or H, not {value}"), value=show(val))
                return Action.declare(seat, val)
            return Action.moon(seat, val)
        except CardError as e:
            raise RecordError(N_("action {action}: {error}"), action=show(data), error=e) from None

    def __str__(self) -> str:
        """The action in English words (``seat 1 plays QS``); a face shows :meth:`describe` translated."""
        return str(self.describe())

    def describe(self) -> Message:
        """The action as a text for people: a template with the seat, cards, bid or suit as parameters.

        Cards, suit letters and moon choices are the same in every language; the words around them
        ("plays", "passes the bid") go through the catalog where a face shows the text, so a record
        that stops at an illegal action reads well in Spanish too.  The seat is a
        :class:`~corazones.core.errors.Seats`: a face says it counted from 1, as it names seats, and
        ``str()`` says the index, as the API does; one that is no seat at all is shown as given.
        """
        k = self.kind
        raw: Any = self.seat
        seat: Seats | str = Seats(raw) if type(raw) is int and raw >= 0 else show(raw)
        if k is Kind.PLAY:
            return Message(N_("seat {seat} plays {cards}"), seat=seat, cards=self._cards())
        if k is Kind.PASS:
            return Message(N_("seat {seat} passes {cards}"), seat=seat, cards=self._cards())
        if k is Kind.BID:
            if self.value:
                return Message(N_("seat {seat} bids {bid}"), seat=seat, bid=show(self.value))
            return Message(N_("seat {seat} passes the bid"), seat=seat)
        if k is Kind.DECLARE:
            return Message(N_("seat {seat} names {suit} as penalty suit"), seat=seat, suit=self._value())
        return Message(N_("seat {seat} chooses {choice}"), seat=seat, choice=self._value())

    def __repr__(self) -> str:
        """``Action(pass, seat 0: QS AH KH)``: cards by name, as people read them."""
        k = self.kind
        what = self._cards() if k in (Kind.PLAY, Kind.PASS) else self._value()
        kind = k.value if isinstance(k, Kind) else show(k)
        return f"Action({kind}, seat {show(self.seat)}: {what})"

    def _cards(self) -> str:
        """The cards by name (an impossible entry, in an action built by hand, is shown as it is)."""
        if not isinstance(self.cards, tuple | list):
            return show(self.cards)
        return " ".join(card_str(c) if _is_card(c) else show(c) for c in self.cards) or "-"

    def _value(self) -> str:
        v = self.value
        if self.kind is Kind.DECLARE and _is_card(v) and isinstance(v, int) and v < 4:
            return SUIT_LETTERS[v]
        return v if isinstance(v, str) and v in MOON_CHOICES else show(v)


#: One PLAY action per (seat, card), made once at import.  ``Deal.legal_actions`` and
#: :meth:`Action.play` hand these out, so listing the legal plays creates no objects, and the
#: engine recognises one of them by its identity (:data:`PLAY_CODES`): its fields were made
#: here and need not be checked again, only whether the play is legal now.  Actions are frozen,
#: so sharing them is safe; they compare equal to any other action with the same fields.
PLAY_ACTIONS: Final = tuple(tuple(Action(Kind.PLAY, s, (c,)) for c in range(52)) for s in range(MAX_PLAYERS))
#: ``id(action) -> seat * 64 + card`` for the objects of :data:`PLAY_ACTIONS` (which live as long as the
#: module, so no other object can have their ids).
PLAY_CODES: Final[dict[int, int]] = {id(a): s * 64 + c for s, row in enumerate(PLAY_ACTIONS) for c, a in enumerate(row)}

#: What a seat that is no seat at all is told (the game tells a seat its table lacks).
_SEAT: Final = N_("a seat is a whole number 0 to {last}, not {value}")
#: The one-of keys of an action object (besides ``seat``).
ACTION_KEYS = ("play", "pass", "bid", "declare", "moon")
#: More cards than any pass could hold (a hand has at most 17).
_MAX_PASS = 52
#: An action as JSON, shown in the message that asks for one.
_EXAMPLE: Final = '{"seat": 0, "play": "2C"}'


def _is_card(c: object) -> bool:
    return is_whole_in(c, 0, 51)


def _seat(seat: object) -> int:
    """``seat`` as a seat of the largest table (NumPy integers welcome); :class:`IllegalActionError` otherwise.

    The builders check the seat so a wrong one is named where it was written,
    not only when ``apply`` refuses it; the game then checks it against its own table.
    """
    index = index_below(seat, MAX_PLAYERS)
    if index < 0:
        raise IllegalActionError(_SEAT, last=MAX_PLAYERS - 1, value=show(seat))
    return index


def _card(c: int | str) -> int:
    if isinstance(c, str):
        return parse_card(c)
    if _is_card(c):
        return int(c)
    raise CardError(N_("not a card: {value}"), value=show(c))
