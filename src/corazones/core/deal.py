"""One hand (deal) of a Hearts-family game as a state machine.

Phases run ``bid -> declare -> pass -> play -> moon -> done``; a phase the
rules do not use is skipped.  Everything the rules decide is read from the
:class:`~corazones.core.rules.Rules` value; the engine has no variant names.

Hands are bit masks (``h1`` = cards held at least once, ``h2`` = cards held
twice, two-deck games only), so legal-move generation and trick resolution
are a few integer operations.  :meth:`Deal.clone` copies a handful of small
lists, cheap enough for tree search.

The low-level hot path is :meth:`legal_mask` / :meth:`play_card`; the public
:meth:`apply` validates an :class:`~corazones.core.actions.Action` first and
raises :class:`~corazones.core.errors.IllegalActionError` without touching the
state when it is not allowed.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import lru_cache
from itertools import combinations
from typing import TYPE_CHECKING, Any, Final

from corazones.core.actions import KIND_WORDS, MOON_CHOICES, PLAY_ACTIONS, PLAY_CODES, Action, Kind
from corazones.core.cards import (
    CLUBS,
    HEARTS,
    SPADES,
    SUIT_LETTERS,
    SUIT_MASK,
    card_str,
    format_cards,
    mask_cards,
    parse_card,
)
from corazones.core.errors import N_, IllegalActionError, Message, Plural, Seats
from corazones.core.native import is_compiled_file, warn_if_stale
from corazones.core.rules import Rules, discard_group_mask
from corazones.core.trick import Trick, trick_winner

if TYPE_CHECKING:
    from corazones.core.observation import Observation

# Phase names.  ``Final`` lets the compiled build inline them (and the tables
# below become C statics instead of dictionary look-ups).
BID: Final = "bid"
DECLARE: Final = "declare"
PASS: Final = "pass"
PLAY: Final = "play"
MOON: Final = "moon"
DONE: Final = "done"

_QS: Final = 2 * 13 + 10
_SUIT_OF: Final = tuple(c // 13 for c in range(52))
_SUIT_MASK: Final[tuple[int, ...]] = SUIT_MASK

# Card values, penalty mask and totals per (rules, penalty suit), found by the
# identity of the Rules object: computing them was most of the cost of
# starting a hand.  The entry holds the Rules object itself, so its id cannot
# be reused by another object while the entry exists.
_SUIT_TABLES: Final[dict[tuple[int, int], tuple[Rules, tuple[int, ...], int, int, int]]] = {}


class Deal:
    """State of one hand from the deal to the last trick (and moon choice)."""

    __slots__ = (
        "_trick_log",
        "_tricks",
        "bid_turn",
        "bids",
        "broken",
        "chips",
        "dealer",
        "declarer",
        "discard_masks",
        "eldest",
        "first_card",
        "forced_declarer",
        "h1",
        "h2",
        "hand_size",
        "high_bid",
        "kitty",
        "kitty_first_trick",
        "kitty_owner",
        "leader",
        "moon_choice",
        "n",
        "pass_direction",
        "pass_offset",
        "passes",
        "pen_count",
        "pen_mask",
        "pen_total",
        "penalty_suit",
        "pending",
        "phase",
        "pos",
        "pos_total",
        "pts",
        "received",
        "rules",
        "shooter",
        "trick_cards",
        "trick_no",
        "trick_seats",
        "turn",
        "two_decks",
        "values",
    )

    rules: Rules
    n: int
    hand_size: int
    values: tuple[int, ...]
    pen_mask: int
    pos_total: int
    pen_total: int
    dealer: int
    eldest: int
    phase: str
    h1: list[int]
    h2: list[int]
    kitty: tuple[int, ...]
    kitty_owner: int | None
    pass_direction: str
    pass_offset: int
    passes: list[tuple[int, ...] | None]
    received: list[tuple[int, ...]] | None
    bids: list[tuple[int, int]]
    bid_turn: int
    high_bid: int
    declarer: int | None
    penalty_suit: int
    chips: tuple[int, ...] | None
    forced_declarer: int | None
    leader: int
    turn: int
    trick_seats: list[int]
    trick_cards: list[int]
    trick_no: int
    broken: bool
    _trick_log: list[tuple[int, list[int], list[int], int | None]]
    _tricks: list[Trick]
    pts: list[int]
    pos: list[int]
    pen_count: list[int]
    pending: list[int]
    first_card: int
    shooter: int | None
    moon_choice: str | None
    kitty_first_trick: bool
    discard_masks: tuple[int, ...]
    two_decks: bool

    def __new__(cls, *args: Any, **kwargs: Any) -> Deal:
        # Defined so that ``Deal.__new__(Deal)`` in :meth:`clone` makes a bare
        # instance without running ``__init__`` in the compiled build too (a
        # compiled class without its own ``__new__`` always runs ``__init__``).
        return super().__new__(cls)

    def __init__(
        self,
        rules: Rules,
        hands: Sequence[Sequence[int]],
        kitty: Sequence[int] = (),
        dealer: int = 0,
        pass_direction: str = "hold",
        *,
        chips: Sequence[int] | None = None,
        forced_declarer: int | None = None,
    ) -> None:
        """Start a hand from dealt ``hands`` (seat order) and the face-down ``kitty``.

        ``chips`` limits each seat's bid in an auction; ``forced_declarer`` is the
        seat that names the suit without bidding after a failed auction hand.
        """
        n = rules.players
        if len(hands) != n:
            raise IllegalActionError(N_("a deal needs {n} hands, got {got}"), n=n, got=len(hands))
        self.rules = rules
        self.n = n
        self.two_decks = rules.decks == 2
        self.hand_size = len(hands[0])
        self.dealer = dealer % n
        self.eldest = (dealer + 1) % n
        h1 = [0] * n
        h2 = [0] * n
        for s, hand in enumerate(hands):
            one = two = 0
            for c in hand:
                bit = 1 << c
                if one & bit:
                    two |= bit
                else:
                    one |= bit
            h1[s] = one
            h2[s] = two
        self.h1 = h1
        self.h2 = h2
        self.kitty = tuple(kitty)
        self.kitty_owner = None
        self.kitty_first_trick = bool(self.kitty) and rules.kitty_to == "first_trick"
        self.pass_direction = pass_direction if rules.pass_count else "hold"
        self.pass_offset = rules.pass_offset(self.pass_direction)
        self.passes = [None] * n
        self.received = None
        self.bids = []
        self.bid_turn = self.eldest
        self.high_bid = 0
        self.declarer = None
        self.chips = tuple(chips) if chips is not None else None
        self.forced_declarer = forced_declarer
        self.discard_masks = tuple(discard_group_mask(t) for t in rules.discard_order) if rules.discard_order else ()
        self.trick_seats = []
        self.trick_cards = []
        self.trick_no = 0
        self.broken = False
        self._trick_log = []
        self._tricks = []
        self.pts = [0] * n
        self.pos = [0] * n
        self.pen_count = [0] * n
        self.pending = []
        self.shooter = None
        self.moon_choice = None
        self.first_card = -1
        self.leader = self.turn = self.eldest
        self._set_penalty_suit(HEARTS)
        if rules.auction:
            if forced_declarer is not None:
                self.declarer = forced_declarer
                self.phase = DECLARE
                self.turn = forced_declarer
            else:
                self.phase = BID
                self.turn = self.eldest
        elif self.pass_offset:
            self.phase = PASS
        else:
            self._start_play()

    @classmethod
    def at_play(
        cls,
        rules: Rules,
        hands: Sequence[Sequence[int]],
        kitty: Sequence[int] = (),
        dealer: int = 0,
        penalty_suit: int = HEARTS,
        declarer: int | None = None,
    ) -> Deal:
        """A hand ready for the first lead: ``hands`` are after any pass, the auction settled.

        Used to rebuild a position from an observation (tree search over
        sampled deals) and to check logs of hands played elsewhere.
        """
        d = cls(_play_only(rules), hands, kitty, dealer, "hold")
        d.rules = rules
        d.declarer = declarer
        d._set_penalty_suit(penalty_suit)
        d.first_card = -1  # the play-only start above may have set the lowest club; the real rules decide
        d._start_play()
        return d

    @classmethod
    def from_observation(cls, obs: Observation, hands: Sequence[Sequence[int]], kitty: Sequence[int] = ()) -> Deal:
        """The play-phase position ``obs`` describes, with ``hands`` as everyone's current cards.

        ``hands[obs.seat]`` must be the observer's own hand; the others are a
        guess (a sampled deal).  The tricks seen so far are replayed, so the
        rebuilt state agrees with the rules in every detail.
        """
        start = [list(h) for h in hands]
        for t in obs.tricks:
            for s, c in t.plays:
                start[s].append(c)
        for s, c in obs.trick:
            start[s].append(c)
        d = cls.at_play(obs.rules, start, kitty, obs.dealer, obs.penalty_suit, obs.declarer)
        for t in obs.tricks:
            for _, c in t.plays:
                d.play_card(c)
        for _, c in obs.trick:
            d.play_card(c)
        return d

    # ------------------------------------------------------------ helpers
    def _set_penalty_suit(self, suit: int) -> None:
        self.penalty_suit = suit
        rules = self.rules
        key = (id(rules), suit)
        got = _SUIT_TABLES.get(key)
        if got is None or got[0] is not rules:
            vals = rules.card_values(suit)
            got = (
                rules,
                vals,
                sum(1 << c for c in range(52) if vals[c] > 0),
                sum(vals[c] for c in rules.deck if vals[c] > 0),
                sum(vals[c] for c in rules.deck),
            )
            if len(_SUIT_TABLES) >= 256:
                _SUIT_TABLES.clear()
            _SUIT_TABLES[key] = got
        _, self.values, self.pen_mask, self.pos_total, self.pen_total = got

    def clone(self) -> Deal:
        """An independent copy, cheap enough for tree search."""
        d = Deal.__new__(Deal)
        d.rules = self.rules
        d.n = self.n
        d.hand_size = self.hand_size
        d.values = self.values
        d.pen_mask = self.pen_mask
        d.pos_total = self.pos_total
        d.pen_total = self.pen_total
        d.dealer = self.dealer
        d.eldest = self.eldest
        d.phase = self.phase
        d.h1 = self.h1[:]
        d.h2 = self.h2[:]
        d.kitty = self.kitty
        d.kitty_owner = self.kitty_owner
        d.pass_direction = self.pass_direction
        d.pass_offset = self.pass_offset
        d.passes = self.passes[:]
        d.received = self.received
        d.bids = self.bids[:]
        d.bid_turn = self.bid_turn
        d.high_bid = self.high_bid
        d.declarer = self.declarer
        d.penalty_suit = self.penalty_suit
        d.chips = self.chips
        d.forced_declarer = self.forced_declarer
        d.leader = self.leader
        d.turn = self.turn
        d.trick_seats = self.trick_seats[:]
        d.trick_cards = self.trick_cards[:]
        d.trick_no = self.trick_no
        d.broken = self.broken
        d._trick_log = self._trick_log[:]
        d._tricks = self._tricks[:]
        d.pts = self.pts[:]
        d.pos = self.pos[:]
        d.pen_count = self.pen_count[:]
        d.pending = self.pending[:]
        d.first_card = self.first_card
        d.shooter = self.shooter
        d.moon_choice = self.moon_choice
        d.kitty_first_trick = self.kitty_first_trick
        d.discard_masks = self.discard_masks
        d.two_decks = self.two_decks
        return d

    @property
    def tricks(self) -> list[Trick]:
        """The completed tricks in play order.

        :class:`Trick` records are made when this is read rather than at the
        end of every trick: random playouts finish millions of tricks that
        nobody looks at.  The same list is returned (and extended) each time.
        """
        made = self._tricks
        log = self._trick_log
        while len(made) < len(log):
            leader, seats, cards, winner = log[len(made)]
            made.append(Trick(leader, tuple(zip(seats, cards)), winner))
        return made

    def hand(self, seat: int) -> list[int]:
        """Cards ``seat`` holds (repeats for two decks), lowest index first."""
        out: list[int] = []
        h2 = self.h2[seat]
        mask = self.h1[seat]
        while mask:  # cards.mask_cards, written out: this module is compiled, cards.py is not
            low = mask & -mask
            c = low.bit_length() - 1
            out.append(c)
            if h2 & low:
                out.append(c)
            mask ^= low
        return out

    def hand_count(self, seat: int) -> int:
        return self.h1[seat].bit_count() + self.h2[seat].bit_count()

    # ------------------------------------------------------------- who acts
    def to_act(self) -> tuple[int, ...]:
        """Seats that must act now (several during a simultaneous pass)."""
        if self.phase == PASS:
            return tuple(s for s in range(self.n) if self.passes[s] is None)
        if self.phase == DONE:
            return ()
        return (self.turn,)

    def decision_kind(self) -> Kind | None:
        return _PHASE_KIND.get(self.phase)

    # ------------------------------------------------------------ legality
    def legal_mask(self, seat: int) -> int:
        """Mask of the cards ``seat`` may play now (0 if it is not their turn)."""
        if self.phase != PLAY or seat != self.turn:
            return 0
        h = self.h1[seat]
        if not self.trick_cards:
            if self.trick_no == 0:
                if self.first_card >= 0:
                    return 1 << self.first_card
                if self.declarer is not None and self.rules.auction:
                    other = h & ~_SUIT_MASK[self.penalty_suit]
                    if other:
                        h = other
            if self.rules.must_break_hearts and not self.broken:
                other = h & ~_SUIT_MASK[self.penalty_suit]
                if other:
                    return other
            return h
        follow = h & _SUIT_MASK[_SUIT_OF[self.trick_cards[0]]]
        if follow:
            return follow
        for g in self.discard_masks:
            if h & g:
                h &= g
                break
        if self.trick_no == 0 and self.rules.no_points_first_trick:
            safe = h & ~self.pen_mask
            if safe:
                return safe
        return h

    def legal_actions(self, seat: int | None = None) -> list[Action]:
        """Every legal action of ``seat`` (default: the seat to act).

        During the pass this enumerates every combination of cards, which can
        be hundreds; use :meth:`is_legal` to check a single choice.
        """
        if seat is None:
            acting = self.to_act()
            if not acting:
                return []
            seat = acting[0]
        ph = self.phase
        if ph == PLAY:
            # the shared action objects, in card order (no object made per call)
            row = PLAY_ACTIONS[seat]
            out_plays: list[Action] = []
            mask = self.legal_mask(seat)
            while mask:
                low = mask & -mask
                out_plays.append(row[low.bit_length() - 1])
                mask ^= low
            return out_plays
        if ph == PASS:
            if self.passes[seat] is not None:
                return []
            cards = self.hand(seat)
            seen: set[tuple[int, ...]] = set()
            out = []
            for combo in combinations(cards, self.rules.pass_count):
                if combo not in seen:
                    seen.add(combo)
                    out.append(Action(Kind.PASS, seat, combo))
            return out
        if ph == BID:
            if seat != self.turn:
                return []
            return [Action(Kind.BID, seat, (), b) for b in self.bid_range(seat)]
        if ph == DECLARE:
            if seat != self.turn:
                return []
            return [Action(Kind.DECLARE, seat, (), s) for s in range(4)]
        if ph == MOON:
            if seat != self.turn:
                return []
            return [Action(Kind.MOON, seat, (), c) for c in MOON_CHOICES]
        return []

    def bid_range(self, seat: int) -> list[int]:
        """Legal bids of ``seat``: 0 (no bid) and every amount above the high bid it can pay."""
        return [0, *list(range(self.high_bid + 1, self._bid_cap(seat) + 1))]

    def _bid_cap(self, seat: int) -> int:
        """The highest bid ``seat`` may make: its chips (26 above the high bid when chips are not kept)."""
        cap = self.chips[seat] if self.chips is not None else self.high_bid + 26
        return max(cap, 0)

    def check(self, action: Action) -> None:
        """Raise :class:`IllegalActionError` saying why ``action`` is not allowed now."""
        ph = self.phase
        # Fields are read untyped: an action made from outside input may hold
        # anything (True, 1.5, "x"), and the compiled build would convert or
        # reject such values on typed reads before these checks could explain.
        raw: Any = action
        seat = raw.seat
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.n:
            raise IllegalActionError(
                N_("seat {seat} does not exist; seats are 0 to {last}"), seat=repr(seat), last=self.n - 1
            )
        for c in raw.cards:
            if isinstance(c, bool) or not isinstance(c, int) or not 0 <= c < 52:
                raise IllegalActionError(
                    N_("not a card: {card}; a card is an index 0 to 51 (2C = 0 ... AH = 51)"), card=repr(c)
                )
        want = _PHASE_KIND.get(ph)
        if want is None:
            raise IllegalActionError(N_("the hand is over; no action is expected"))
        if action.kind is not want:
            raise IllegalActionError(
                N_("{kind} is not possible now: the game waits for {want} from seat(s) {seats}"),
                kind=KIND_WORDS[action.kind],
                want=KIND_WORDS[want],
                seats=Seats(*self.to_act()),
            )
        if seat not in self.to_act():
            raise IllegalActionError(
                N_("it is not seat {seat}'s turn to {kind}; waiting for seat(s) {seats}"),
                seat=Seats(seat),
                kind=KIND_WORDS[want],
                seats=Seats(*self.to_act()),
            )
        if ph == PLAY:
            c = action.cards[0] if len(action.cards) == 1 else -1
            if not 0 <= c < 52:
                raise IllegalActionError(N_("a play names exactly one card"))
            if not self.h1[seat] >> c & 1:
                raise IllegalActionError(N_("seat {seat} does not hold {card}"), seat=Seats(seat), card=card_str(c))
            legal = self.legal_mask(seat)
            if not legal >> c & 1:
                raise IllegalActionError(
                    N_("{card} may not be played now ({why}); legal: {legal}"),
                    card=card_str(c),
                    why=self._why_not(seat, c),
                    legal=format_cards(mask_cards(legal)),
                )
        elif ph == PASS:
            k = self.rules.pass_count
            if len(action.cards) != k:
                raise IllegalActionError(
                    N_("pass exactly {cards}, not {got}"),
                    cards=Plural("{n} card", "{n} cards", k),
                    got=len(action.cards),
                )
            left1, left2 = self.h1[seat], self.h2[seat]
            for c in action.cards:
                bit = 1 << c
                if left2 & bit:
                    left2 ^= bit
                elif left1 & bit:
                    left1 ^= bit
                else:
                    raise IllegalActionError(
                        N_("seat {seat} cannot pass {card}: not in hand (or passed twice)"),
                        seat=Seats(seat),
                        card=card_str(c),
                    )
        elif ph == BID:
            v = raw.value
            # bounds, not bid_range(): a bid read from outside may be huge, and listing them all would be too
            low = self.high_bid + 1
            cap = self._bid_cap(seat)
            if isinstance(v, bool) or not isinstance(v, int) or not (v == 0 or low <= v <= cap):
                if cap >= low:
                    raise IllegalActionError(
                        N_("bid {bid} is not allowed; allowed: 0 (no bid) or {low} to {high}"),
                        bid=repr(v),
                        low=low,
                        high=cap,
                    )
                raise IllegalActionError(N_("bid {bid} is not allowed; allowed: 0 (no bid)"), bid=repr(v))
        elif ph == DECLARE:
            v = raw.value
            if isinstance(v, bool) or not isinstance(v, int) or v not in (0, 1, 2, 3):
                raise IllegalActionError(
                    N_("declare a suit index 0-3 ({suits}), not {value}"), suits=SUIT_LETTERS, value=repr(v)
                )
        elif ph == MOON and raw.value not in MOON_CHOICES:
            raise IllegalActionError(N_("moon choice must be one of {choices}"), choices=", ".join(MOON_CHOICES))

    def _why_not(self, seat: int, c: int) -> Message:
        if not self.trick_cards:
            if self.trick_no == 0 and self.first_card >= 0:
                return Message(N_("the first trick must be led with {card}"), card=card_str(self.first_card))
            if self.trick_no == 0 and self.rules.auction and self.declarer is not None:
                return Message(N_("the declarer may not lead the penalty suit to the first trick"))
            if _SUIT_OF[c] == self.penalty_suit:
                return Message(N_("{suit} not broken yet"), suit=SUIT_LETTERS[self.penalty_suit])
            return Message(N_("lead restriction"))
        led = _SUIT_OF[self.trick_cards[0]]
        if self.h1[seat] & SUIT_MASK[led]:
            return Message(N_("must follow {suit}"), suit=SUIT_LETTERS[led])
        if self.discard_masks:
            return Message(N_("must discard by the discard order {order}"), order=" ".join(self.rules.discard_order))
        return Message(N_("no penalty cards on the first trick"))

    def is_legal(self, action: Action) -> bool:
        try:
            self.check(action)
        except IllegalActionError:
            return False
        return True

    # --------------------------------------------------------------- apply
    def play_known(self, action: object) -> bool:
        """Play ``action`` if it is one of the shared play objects (``actions.PLAY_ACTIONS``) and legal now.

        Those objects were made by the engine, so their fields need no checking:
        only whether the play is legal, which :meth:`legal_mask` says as for any
        action.  Returns ``False`` without changing anything otherwise, and the
        caller validates ``action`` the full way (with its explanation).
        """
        if self.phase != PLAY:
            return False
        code = PLAY_CODES.get(id(action), -1)
        if code < 0:
            return False
        seat = code >> 6
        card = code & 63
        if seat != self.turn or not self.legal_mask(seat) >> card & 1:
            return False
        self.play_card(card)
        return True

    def apply(self, action: Action) -> None:
        """Validate and apply ``action``; an illegal one raises and changes nothing."""
        if self.play_known(action):
            return
        self.check(action)
        k = action.kind
        if k is Kind.PLAY:
            self.play_card(action.cards[0])
        elif k is Kind.PASS:
            self._pass(action.seat, action.cards)
        elif k is Kind.BID:
            assert isinstance(action.value, int)
            self._bid(action.seat, action.value)
        elif k is Kind.DECLARE:
            assert isinstance(action.value, int)
            self._declare(action.value)
        else:
            assert isinstance(action.value, str)
            self.moon_choice = action.value
            self.phase = DONE

    def _bid(self, seat: int, amount: int) -> None:
        self.bids.append((seat, amount))
        if amount:
            self.high_bid = amount
            self.declarer = seat
        if seat == self.dealer:
            if self.declarer is None:
                self._start_after_auction()
            else:
                self.phase = DECLARE
                self.turn = self.declarer
        else:
            self.turn = (seat + 1) % self.n

    def _declare(self, suit: int) -> None:
        self._set_penalty_suit(suit)
        self._start_after_auction()

    def _start_after_auction(self) -> None:
        if self.pass_offset:
            self.phase = PASS
        else:
            self._start_play()

    def _pass(self, seat: int, cards: tuple[int, ...]) -> None:
        # Masks are read into locals and written back once: list items
        # updated in place (``h1[s] ^= bit``) are slow in the compiled build.
        h1 = self.h1
        h2 = self.h2
        one = h1[seat]
        two = h2[seat]
        for c in cards:
            bit = 1 << c
            if two & bit:
                two ^= bit
            else:
                one ^= bit
        h1[seat] = one
        h2[seat] = two
        passes = self.passes
        passes[seat] = cards
        if None in passes:
            # put them back until everyone has passed: received cards are
            # added all at once, so nobody sees them before choosing
            return
        n = self.n
        off = self.pass_offset
        received: list[tuple[int, ...]] = [()] * n
        for s in range(n):
            got = passes[s]
            assert got is not None
            to = (s + off) % n
            received[to] = got
            one = h1[to]
            two = h2[to]
            for c in got:
                bit = 1 << c
                if one & bit:
                    two |= bit
                else:
                    one |= bit
            h1[to] = one
            h2[to] = two
        self.received = received
        self._start_play()

    def _start_play(self) -> None:
        self.phase = PLAY
        n = self.n
        if self.rules.auction:
            leader = self.declarer if self.declarer is not None else self.eldest
        elif self.rules.first_lead == "lowest_club":
            leader = self.eldest
            best = 99
            for i in range(n):
                s = (self.eldest + i) % n
                clubs = self.h1[s] & _SUIT_MASK[CLUBS]
                if clubs:
                    low = (clubs & -clubs).bit_length() - 1
                    if low < best:
                        best, leader = low, s
            self.first_card = best if best != 99 else -1
        else:
            leader = self.eldest
        self.leader = self.turn = leader

    def play_card(self, card: int) -> None:
        """Play ``card`` for the seat to move.  No validation: callers use :meth:`legal_mask`."""
        seat = self.turn
        bit = 1 << card
        h2 = self.h2
        two = h2[seat]
        if two & bit:
            h2[seat] = two ^ bit
        else:
            h1 = self.h1
            h1[seat] = h1[seat] ^ bit
        cards = self.trick_cards
        self.trick_seats.append(seat)
        cards.append(card)
        if not self.broken and (
            _SUIT_OF[card] == self.penalty_suit or (card == _QS and self.rules.queen_breaks_hearts)
        ):
            self.broken = True
        n = self.n
        if len(cards) < n:
            self.turn = (seat + 1) % n
            return
        self._finish_trick()

    def _finish_trick(self) -> None:
        cards = self.trick_cards
        seats = self.trick_seats
        led = _SUIT_OF[cards[0]]
        winner: int | None
        if not self.two_decks:
            # trick.trick_winner for one deck, written out: every playout's trick ends here, in compiled code
            best = cards[0]
            wi = 0
            for i in range(1, len(cards)):
                c = cards[i]
                if c > best and _SUIT_OF[c] == led:
                    best = c
                    wi = i
            winner = seats[wi]
        else:  # two decks: identical cards cancel
            found = trick_winner(cards, True, self.rules.cancel_whole_trick)
            winner = None if found is None else seats[found]
        last = self.trick_no == self.hand_size - 1
        # the finished trick's lists are never changed again (new ones are made below)
        self._trick_log.append((self.leader, seats, cards, winner))
        pile = cards if not self.pending else self.pending + cards
        if winner is None:
            if last:
                winner = self.leader
            else:
                self.pending = list(pile)
                self.trick_seats = []
                self.trick_cards = []
                self.trick_no += 1
                self.turn = self.leader
                return
        if self.pending:
            self.pending = []
        vals = self.values
        p = 0
        q = 0
        k = 0
        for c in pile:
            v = vals[c]
            if v:
                p += v
                if v > 0:
                    q += v
                    k += 1
        if p or q:
            pts = self.pts
            pts[winner] = pts[winner] + p
            pos = self.pos
            pos[winner] = pos[winner] + q
            count = self.pen_count
            count[winner] = count[winner] + k
        if self.kitty_owner is None and self.kitty and (self.kitty_first_trick or k):
            self.kitty_owner = winner
        self.trick_seats = []
        self.trick_cards = []
        self.trick_no += 1
        self.leader = self.turn = winner
        if last:
            self._end_of_play()

    def _end_of_play(self) -> None:
        if self.kitty and self.kitty_owner is None:
            # no penalty card was taken in a trick (they all lay in the kitty):
            # the kitty goes to the winner of the last trick
            self.kitty_owner = self.leader
        if self.kitty and self.kitty_owner is not None:
            vals = self.values
            o = self.kitty_owner
            for c in self.kitty:
                v = vals[c]
                self.pts[o] += v
                if v > 0:
                    self.pos[o] += v
                    self.pen_count[o] += 1
        self.shooter = self._find_shooter()
        if self.shooter is not None and self.rules.moon == "choice":
            self.phase = MOON
            self.turn = self.shooter
        else:
            self.phase = DONE

    def _find_shooter(self) -> int | None:
        r = self.rules
        if r.moon == "off" or self.pos_total <= 0:
            return None
        for s in range(self.n):
            if self.pos[s] == self.pos_total:
                return s
        if r.moon_needs == "team":
            for team in r.teams:
                if sum(self.pos[s] for s in team) == self.pos_total:
                    return max(team, key=lambda s: (self.pos[s], -s))
        return None

    # ------------------------------------------------------------- results
    @property
    def done(self) -> bool:
        return self.phase == DONE

    def hand_scores(self) -> list[int]:
        """Points each seat scores for this hand, after the moon rule."""
        if self.shooter is None:
            return self.pts[:]
        r = self.rules
        choice = self.moon_choice or r.moon
        shooter_team = r.team_of(self.shooter)
        total = self.pos_total
        out = []
        for s in range(self.n):
            base = self.pts[s] - self.pos[s]  # keep bonus cards (Omnibus J♦)
            if r.team_of(s) == shooter_team:
                out.append(base - total if (choice == "subtract_from_self" and s == self.shooter) else base)
            else:
                out.append(base + total if choice == "add_to_others" else base)
        return out

    def __repr__(self) -> str:
        return f"<Deal phase={self.phase} trick={self.trick_no} turn={self.turn}>"


def shuffle(rng: random.Random, items: list[int]) -> None:
    """Shuffle ``items`` in place exactly as ``rng.shuffle(items)`` does, in compiled code.

    The same draws in the same order (``getrandbits`` with rejection, as
    ``random.Random.shuffle`` and ``_randbelow`` do), so a game's seed gives the
    same hands as ever; only the interpreted loop around them is gone
    (``Game`` shuffles twice to start a game and once per hand).  A test
    compares it with ``random.Random.shuffle``.
    """
    getrandbits = rng.getrandbits
    for i in range(len(items) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        items[i], items[j] = items[j], items[i]


def deal_hands(rules: Rules, rng: random.Random, eldest: int) -> tuple[list[list[int]], list[int]]:
    """Shuffle ``rules.deck`` with ``rng`` and deal it one card at a time from ``eldest``: (hands, kitty).

    How ``Game`` deals every hand from its seed, here so that it runs compiled.
    """
    deck = list(rules.deck)
    shuffle(rng, deck)
    n = rules.players
    size = rules.hand_size
    hands: list[list[int]] = [[] for _ in range(n)]
    for i in range(size * n):
        hands[(eldest + i) % n].append(deck[i])
    return hands, deck[size * n :]


@lru_cache(maxsize=64)
def _play_only(rules: Rules) -> Rules:
    """``rules`` without the auction and the pass, to start a hand at the first lead."""
    return rules.replace(auction=False, pass_count=0, passes=("hold",))


_PHASE_KIND = {PASS: Kind.PASS, BID: Kind.BID, DECLARE: Kind.DECLARE, PLAY: Kind.PLAY, MOON: Kind.MOON}

# keep names importable for users of the module
__all__ = ["BID", "DECLARE", "DONE", "MOON", "PASS", "PLAY", "SPADES", "Deal", "Trick", "parse_card"]

if is_compiled_file(__file__):  # compiled build (setup.py): warn if this source changed since
    warn_if_stale(__name__)
