"""Positions from outside: start a game or a single hand from given cards.

A :class:`Game` deals every hand from its own seed.  Analysing a real deal,
playing a tournament on fixed deals, setting a puzzle, resetting a learning
environment to a chosen deal or letting another engine drive Corazones bots
all need the opposite: *these* hands, this dealer, this pass, these scores.
:class:`Position` says all of that as data, :func:`start_game` builds the
:class:`Game` that is at that position (the rules code is the same one every
game runs; nothing is copied), and :func:`replay` applies an outside history
to it, including one that lists a pass card by card.

A bot's move at the position is then ``bot.act(game.observation(seat))`` for
any bot (``corazones.players``); this floor knows no bots.

Hands after the given one are dealt from the game's seed as usual, so a game
started from a position plays on to its end.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, MutableMapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from corazones.core.actions import Action, Kind
from corazones.core.cards import card_str, parse_card
from corazones.core.deal import Deal
from corazones.core.errors import (
    N_,
    CardError,
    CorazonesError,
    IllegalActionError,
    Message,
    RecordError,
    RulesError,
    Seats,
)
from corazones.core.game import Game
from corazones.core.limits import MAX_HANDS
from corazones.core.rules import PASS_DIRECTIONS, Rules
from corazones.core.validate import is_whole_in, refuse_unknown, seat, seat_or_none

_CHIPS = ("chips_1887", "chips_pool")
_FIELDS = ("rules", "hands", "kitty", "dealer", "pass_direction", "hand_index", "scores", "chips", "pool", "declarer")


class PositionError(CorazonesError, ValueError):
    """A position that cannot occur under its rules (wrong hand sizes, missing cards, bad seat...)."""


@dataclass(frozen=True, slots=True)
class Position:
    """One hand about to start: the cards as dealt and the standing before it.

    ``hands[s]`` are seat ``s``'s cards as dealt (before any pass); ``kitty``
    the face-down leftovers (kitty and two-deck presets).  ``pass_direction``
    ``None`` means the rules' direction for ``hand_index``.  ``scores``,
    ``chips`` and ``pool`` are the match standing so far (``None``: the start
    of a game).  ``declarer`` is the seat that names the penalty suit without
    bidding after a failed Auction Hearts hand.  Build one with
    :meth:`Position.of`, which accepts card names and checks everything.
    """

    rules: Rules
    hands: tuple[tuple[int, ...], ...]
    kitty: tuple[int, ...] = ()
    dealer: int = 0
    pass_direction: str | None = None
    hand_index: int = 0
    scores: tuple[int, ...] | None = None
    chips: tuple[int, ...] | None = None
    pool: int = 0
    declarer: int | None = None

    def __post_init__(self) -> None:
        check_position(self)

    @classmethod
    def of(
        cls,
        rules: Rules,
        hands: Sequence[Iterable[int | str] | str],
        kitty: Iterable[int | str] | str = (),
        *,
        dealer: int = 0,
        pass_direction: str | None = None,
        hand_index: int = 0,
        scores: Sequence[int] | None = None,
        chips: Sequence[int] | None = None,
        pool: int = 0,
        declarer: int | None = None,
    ) -> Position:
        """A checked position; cards may be indices or names (``"QS AH 10C"`` or ``["QS", 12]``)."""
        if isinstance(hands, str) or not isinstance(hands, Sequence):
            raise PositionError(
                N_("hands must be a list of {n} hands, one per seat, not {value}"), n=rules.players, value=repr(hands)
            )
        return cls(
            rules,
            tuple(_cards(h, Message(N_("hand of seat {seat}"), seat=Seats(s))) for s, h in enumerate(hands)),
            _cards(kitty, Message(N_("kitty"))),
            dealer,
            pass_direction,
            hand_index,
            None if scores is None else tuple(scores),
            None if chips is None else tuple(chips),
            pool,
            declarer,
        )

    @property
    def direction(self) -> str:
        """The pass direction of this hand (``hold`` when the rules do not pass)."""
        if not self.rules.pass_count:
            return "hold"
        return self.pass_direction if self.pass_direction is not None else self.rules.pass_direction(self.hand_index)

    # ---------------------------------------------------------- serialise
    def to_json(self) -> dict[str, Any]:
        """JSON-ready dictionary (cards as names); :meth:`from_json` reads it back."""
        return {
            "rules": self.rules.to_dict(),
            "hands": [[card_str(c) for c in h] for h in self.hands],
            "kitty": [card_str(c) for c in self.kitty],
            "dealer": self.dealer,
            "pass_direction": self.pass_direction,
            "hand_index": self.hand_index,
            "scores": None if self.scores is None else list(self.scores),
            "chips": None if self.chips is None else list(self.chips),
            "pool": self.pool,
            "declarer": self.declarer,
        }

    @classmethod
    def from_json(cls, data: Any, rules: Rules | None = None) -> Position:
        """Read :meth:`to_json` output; ``rules`` stands in when the document has none."""
        if not isinstance(data, Mapping):
            raise PositionError(
                N_("a position is an object with 'hands' (and 'rules', 'dealer'...), not {value}"), value=repr(data)
            )
        allowed = _FIELDS
        refuse_unknown(
            sorted(data, key=str),
            allowed,
            None,
            PositionError,
            N_("unknown position field(s) {unknown}; fields: {fields}"),
        )
        if "rules" in data:
            raw = data["rules"]
            try:
                rules = Rules.preset(raw) if isinstance(raw, str) else Rules.from_dict(raw)
            except RulesError as e:
                raise PositionError(N_("position rules: {error}"), error=e) from None
        if rules is None:
            raise PositionError(N_("a position needs 'rules' (a preset name or an options object)"))
        if "hands" not in data:
            raise PositionError(N_("a position needs 'hands': one list of cards per seat"))
        return cls.of(
            rules,
            data["hands"],
            data.get("kitty", ()),
            dealer=data.get("dealer", 0),
            pass_direction=data.get("pass_direction"),
            hand_index=data.get("hand_index", 0),
            scores=data.get("scores"),
            chips=data.get("chips"),
            pool=data.get("pool", 0),
            declarer=data.get("declarer"),
        )


def _cards(cards: Any, where: str | Message) -> tuple[int, ...]:
    if isinstance(cards, str):
        cards = cards.replace(",", " ").split()
    if not isinstance(cards, Iterable):
        raise PositionError(
            N_("{where}: a list of cards such as ['QS', 'AH'], not {value}"), where=where, value=repr(cards)
        )
    out = []
    for c in cards:
        if isinstance(c, str):
            try:
                out.append(parse_card(c))
            except CardError as e:
                raise PositionError(N_("{where}: {error}"), where=where, error=e) from None
        elif is_whole_in(c, 0, 51):
            out.append(int(c))
        else:
            raise PositionError(
                N_("{where}: not a card: {value}; a card is a name like 'QS' or an index 0 to 51"),
                where=where,
                value=repr(c),
            )
    return tuple(out)


#: A seat field of a position that holds no seat.
_SEAT: Final = N_("{where} = {value} is not a seat; seats are 0 to {last}")


def _numbers(value: object, name: str, n: int, low: int | None = None) -> None:
    if value is None:
        return
    if not isinstance(value, tuple) or len(value) != n:
        raise PositionError(
            N_("{name} must list {n} whole numbers, one per seat, not {value}"), name=name, n=n, value=repr(value)
        )
    for v in value:
        if not is_whole_in(v, low):
            if low is None:
                raise PositionError(N_("{name} must list whole numbers, not {value}"), name=name, value=repr(v))
            raise PositionError(
                N_("{name} must list whole numbers of at least {low}, not {value}"), name=name, low=low, value=repr(v)
            )


def check_position(p: Position) -> None:
    """Raise :class:`PositionError` naming the first thing that cannot be so under ``p.rules``."""
    r = p.rules
    if not isinstance(r, Rules):
        raise PositionError(N_("rules must be a Rules value (Rules.preset(...)), not {value}"), value=repr(r))
    n = r.players
    if len(p.hands) != n:
        raise PositionError(
            N_("{rules} with {n} players needs {n} hands, not {got}"), rules=r.name, n=n, got=len(p.hands)
        )
    for s, hand in enumerate(p.hands):
        if len(hand) != r.hand_size:
            raise PositionError(
                N_("seat {seat} holds {got} cards; {rules} with {n} players deals {size} to each"),
                seat=Seats(s),
                got=len(hand),
                rules=r.name,
                n=n,
                size=r.hand_size,
            )
    if len(p.kitty) != r.kitty_size:
        raise PositionError(
            N_("the kitty holds {got} cards; these rules leave {size}"), got=len(p.kitty), size=r.kitty_size
        )
    dealt = Counter(c for hand in p.hands for c in hand) + Counter(p.kitty)
    deck = Counter(r.deck)
    extra = sorted((dealt - deck).elements())
    if extra:
        cards = " ".join(card_str(c) for c in extra)
        if r.decks == 1:
            raise PositionError(N_("cards not in this deck (stripped, or dealt twice): {cards}"), cards=cards)
        raise PositionError(N_("cards not in this deck (stripped, or dealt three times): {cards}"), cards=cards)
    missing = sorted((deck - dealt).elements())
    if missing:  # cannot happen with the sizes right and nothing extra; kept for a clear message
        raise PositionError(N_("cards missing from the deal: {cards}"), cards=" ".join(card_str(c) for c in missing))
    seat(p.dealer, n, "dealer", PositionError, _SEAT, repr)
    if not is_whole_in(p.hand_index, 0):
        raise PositionError(N_("hand_index = {value} must be a whole number from 0"), value=repr(p.hand_index))
    if p.pass_direction is not None:
        if p.pass_direction not in PASS_DIRECTIONS:
            raise PositionError(
                N_("pass_direction = {value} is not allowed; one of: {allowed}"),
                value=repr(p.pass_direction),
                allowed=", ".join(PASS_DIRECTIONS),
            )
        if p.pass_direction == "across" and n % 2:
            raise PositionError(N_("passing 'across' needs an even number of players, not {players}"), players=n)
    _numbers(p.scores, "scores", n)
    _numbers(p.chips, "chips", n, low=0)
    if p.chips is not None and r.settlement not in _CHIPS:
        raise PositionError(
            N_("chips only count with chip settlements ({settlements}), not {settlement}"),
            settlements=", ".join(_CHIPS),
            settlement=r.settlement,
        )
    if not is_whole_in(p.pool, 0):
        raise PositionError(N_("pool = {value} must be a whole number of chips from 0"), value=repr(p.pool))
    if p.pool and r.settlement not in _CHIPS:  # a points game has no pool: one given would sit in every view for ever
        raise PositionError(
            N_("a pool of chips only exists with chip settlements ({settlements}), not {settlement}"),
            settlements=", ".join(_CHIPS),
            settlement=r.settlement,
        )
    seat_or_none(p.declarer, n, "declarer", PositionError, _SEAT, repr)
    if p.declarer is not None and not r.auction:
        raise PositionError(N_("declarer (who names the suit after a failed auction) needs auction rules"))


def start_game(position: Position, seed: int | str | None = None, *, single_deal: bool = False) -> Game:
    """The game at ``position``: its current hand is the position's, about to start.

    Later hands are dealt from ``seed`` (random when ``None``).  With
    ``single_deal`` the game ends when this hand ends (the rules get
    ``hands = hand_index + 1``, no target and shared ties), for analysing or
    playing one deal; the ``hands`` option stops at 500, so a single deal at
    ``hand_index`` 500 or later is refused (:class:`PositionError`).
    """
    rules = position.rules
    if single_deal:
        if position.hand_index >= MAX_HANDS:  # the deal ends the game by the rules' hands option, which stops there
            raise PositionError(
                N_("a single deal is played at hand_index 0 to {last}, not {value}"),
                last=MAX_HANDS - 1,
                value=position.hand_index,
            )
        rules = rules.replace(hands=position.hand_index + 1, target=None, tie_break="shared")
    game = Game(rules, seed)
    n = rules.players
    game.dealer = position.dealer
    game.hand_index = position.hand_index
    if position.scores is not None:
        game.scores = list(position.scores)
    if position.chips is not None:
        game.chips = list(position.chips)
    game.pool = position.pool
    game.carry_declarer = position.declarer
    game.from_position = True  # its cards are not the seed's: no seed-based record of it (records.make_record)
    game.deal = Deal(
        rules,
        [list(h) for h in position.hands],
        list(position.kitty),
        position.dealer,
        position.direction,
        chips=game.chips if rules.settlement == "chips_pool" else None,
        forced_declarer=position.declarer,
    )
    assert len(game.scores) == n
    return game


def start_deal(position: Position, seed: int | str | None = None) -> Game:
    """A game of just the position's hand (``start_game(..., single_deal=True)``)."""
    return start_game(position, seed, single_deal=True)


def replay(
    game: Game,
    actions: Iterable[Action | Mapping[str, Any]],
    picks: MutableMapping[int, tuple[int, ...]] | None = None,
) -> Game:
    """A copy of ``game`` with ``actions`` applied in order (``game`` itself is left as it was).

    Actions are :class:`Action` values or their JSON form (``{"seat": 0,
    "play": "QS"}``).  A pass may come whole or card by card, as successive
    pass actions of fewer cards: a seat's picks are collected until it has
    chosen ``rules.pass_count`` cards, then applied as one pass.  A history
    that stops in the middle of a pass needs ``picks``, a dictionary that
    receives each seat's unfinished choice (and may hold picks made before).
    An action that does not fit raises :class:`IllegalActionError` naming its
    number and why.
    """
    out = game.clone()
    pending: dict[int, list[int]] = {s: list(c) for s, c in (picks or {}).items()}
    k = game.rules.pass_count
    for i, raw in enumerate(actions):
        try:
            action = raw if isinstance(raw, Action) else Action.from_json(raw)
        except RecordError as e:
            raise IllegalActionError(N_("action {number}: {error}"), number=i, error=e) from None
        try:
            if action.kind is Kind.PASS and len(action.cards) < k:
                _pick(out, action, pending.setdefault(action.seat, []), k)
            else:
                if action.kind is Kind.PASS and pending.get(action.seat):
                    raise IllegalActionError(
                        N_("seat {seat} passes {count} cards after picking {picked} of its pass one by one"),
                        seat=Seats(action.seat),
                        count=len(action.cards),
                        picked=len(pending[action.seat]),
                    )
                out.apply(action)
        except IllegalActionError as e:
            raise IllegalActionError(
                N_("action {number} ({action}): {error}"), number=i, action=action.describe(), error=e
            ) from None
    left = {s: tuple(c) for s, c in pending.items() if c}
    if picks is not None:
        picks.clear()
        picks.update(left)
    elif left:
        seat, cards = next(iter(left.items()))
        raise IllegalActionError(
            N_(
                "the history stops in the middle of seat {seat}'s pass ({count} of {size} cards); "
                "give replay a picks dictionary to keep unfinished passes"
            ),
            seat=Seats(seat),
            count=len(cards),
            size=k,
        )
    return out


def _pick(game: Game, action: Action, chosen: list[int], k: int) -> None:
    """Add one card-by-card pick to ``chosen``; apply the whole pass once it has ``k`` cards."""
    seat = action.seat
    if not action.cards:
        raise IllegalActionError(N_("a pass pick names at least one card"))
    trial = [*chosen, *action.cards]
    if len(trial) > k:
        raise IllegalActionError(N_("seat {seat} picks more than the {size} cards of a pass"), seat=Seats(seat), size=k)
    if game.over:
        raise IllegalActionError(N_("the game is over; no action is expected"))
    if game.decision_kind() is not Kind.PASS or seat not in game.to_act():
        game.deal.check(Action.pass_cards(seat, trial))  # raises the engine's own reason (phase, turn)
    short = Counter(trial) - Counter(game.deal.hand(seat))
    if short:
        cards = " ".join(card_str(c) for c in sorted(short.elements()))
        raise IllegalActionError(
            N_("seat {seat} cannot pass {cards}: not in hand (or picked twice)"), seat=Seats(seat), cards=cards
        )
    if len(trial) == k:
        game.apply(Action.pass_cards(seat, trial))
        chosen.clear()
    else:
        chosen[:] = trial
