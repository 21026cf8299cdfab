"""A whole game: dealer draw, hand after hand, settlement and the end.

:class:`Game` is the public state machine.  It owns the current
:class:`~corazones.core.deal.Deal`, deals the next hand from the seed when one
ends, keeps scores, chips and the pool, and decides when the game is over
(with tie play-on).  Every decision of every kind goes through
:meth:`Game.apply`; what a seat may know comes from :meth:`Game.observation`.

Determinism: the dealer draw and each hand's shuffle come from
``random.Random`` seeded with a string built from the game seed, so the same
seed and the same actions give the same game on any platform.  Whoever knows
the seed therefore knows every hand: the default seed is 128 random bits, and
:attr:`Game.commitment` (a hash of it) is what may be shown before the end.

Speed: the install compiles this module with mypyc (``setup.py``), because
learners and bots drive the public API a few million times a game-hour.
Parameters that take outside input are typed ``object`` and checked here
(a compiled typed parameter would refuse a wrong value with a bare
``TypeError`` before the documented error), and the play objects that
:meth:`Game.legal_actions` hands out are played after a
:meth:`~corazones.core.deal.Deal.legal_mask` check alone
(:meth:`~corazones.core.deal.Deal.play_known`).
"""

from __future__ import annotations

import random
import secrets
from typing import Any, cast

from corazones.core.actions import Action, Kind
from corazones.core.applied import NOTHING, Applied
from corazones.core.commitment import check_seed, commit
from corazones.core.deal import DONE, PLAY, Deal, deal_hands, shuffle
from corazones.core.errors import N_, IllegalActionError, RulesError
from corazones.core.limits import MAX_INT_DIGITS, index_below, show
from corazones.core.native import is_compiled_file, warn_if_stale
from corazones.core.observation import HandResult, Observation
from corazones.core.rules import Rules
from corazones.core.scoring import average_stakes, game_end, settle_hand, team_totals

GAME_OVER = "game_over"

# Dealer draw: lowest card deals; equal ranks are ordered clubs, diamonds,
# hearts, spades (bridge order).
_DRAW_SUIT_ORDER = (0, 1, 3, 2)


def draw_key(card: int) -> tuple[int, int]:
    return (card % 13, _DRAW_SUIT_ORDER[card // 13])


class Game:
    """A game of any preset, from the dealer draw to the winner(s)."""

    __slots__ = (
        "actions",
        "carry_declarer",
        "chips",
        "deal",
        "dealer",
        "draw",
        "from_position",
        "hand_index",
        "history",
        "last_deal",
        "over",
        "pool",
        "rules",
        "scores",
        "seed",
        "winners",
    )

    def __new__(cls, *args: Any, **kwargs: Any) -> Game:
        # Defined so that ``Game.__new__(Game)`` in :meth:`clone` makes a bare
        # instance without running ``__init__`` in the compiled build too.
        return super().__new__(cls)

    def __init__(self, rules: object = None, seed: object = None) -> None:
        """A new game; ``seed`` is a whole number or a string (:class:`SeedError` otherwise), random when ``None``.

        ``rules`` is a :class:`Rules` (standard when ``None``); anything else, a preset's name
        included, raises :class:`RulesError` saying how to make one (typed ``object`` so the
        compiled build explains it too).
        """
        if rules is None:
            rules = Rules.preset("standard")
        elif not isinstance(rules, Rules):
            raise RulesError(
                N_("rules must be a Rules, such as Rules.preset('standard'), not {value}"), value=show(rules)
            )
        self.rules: Rules = rules
        # 128 random bits as 32 hex digits: too many to guess from a commitment or a dealt hand,
        # and a string, so JSON readers without big integers (JavaScript) keep it exact.
        self.seed: int | str = secrets.token_hex(16) if seed is None else check_seed(seed)
        n = self.rules.players
        rng = random.Random(f"corazones/{self.seed}/draw")
        pack = list(range(52))
        shuffle(rng, pack)  # rng.shuffle(pack), compiled
        self.draw = tuple(pack[:n])
        keys = [draw_key(c) for c in self.draw]
        self.dealer = keys.index(min(keys))
        self.hand_index = 0
        self.scores = [0] * n
        settle = self.rules.settlement
        self.chips = [self.rules.stake] * n if settle in ("chips_1887", "chips_pool") else [0] * n
        self.pool = 0
        self.history: list[HandResult] = []
        self.actions: list[Action] = []
        self.over = False
        self.winners: tuple[int, ...] = ()
        self.carry_declarer: int | None = None
        self.last_deal: Deal | None = None
        # True when core.position.start_game put in a hand of its own: the seed then no longer
        # gives this game's cards, and records.make_record refuses to write a record that would
        # replay to another game
        self.from_position = False
        self.deal = self._new_deal()

    # ------------------------------------------------------------ dealing
    def hand_seed(self, index: int) -> str:
        return f"corazones/{self.seed}/{index}"

    def _new_deal(self) -> Deal:
        r = self.rules
        # the deck shuffled as rng.shuffle does and dealt one card at a time from the eldest hand
        hands, kitty = deal_hands(r, random.Random(self.hand_seed(self.hand_index)), (self.dealer + 1) % r.players)
        return Deal(
            r,
            hands,
            kitty,
            self.dealer,
            r.pass_direction(self.hand_index),
            chips=self.chips if r.settlement == "chips_pool" else None,
            forced_declarer=self.carry_declarer,
        )

    @property
    def commitment(self) -> str:
        """SHA-256 commitment to the seed (:mod:`corazones.core.commitment`): safe to show before the end."""
        return commit(self.seed)

    # -------------------------------------------------------------- query
    @property
    def phase(self) -> str:
        return GAME_OVER if self.over else self.deal.phase

    def to_act(self) -> tuple[int, ...]:
        return () if self.over else self.deal.to_act()

    def decision_kind(self) -> Kind | None:
        return None if self.over else self.deal.decision_kind()

    def legal_actions(self, seat: object = None) -> list[Action]:
        """Legal actions of ``seat`` (default: the first seat to act); ``[]`` when it need not act.

        A seat that does not exist raises :class:`IllegalActionError`.
        """
        if seat is not None and not (type(seat) is int and 0 <= seat < self.rules.players):
            seat = self._check_seat(seat)  # anything but a plain seat number: converted, or refused with the reason
        return [] if self.over else self.deal.legal_actions(seat)

    def is_legal(self, action: object) -> bool:
        """Whether ``action`` may be applied now.  Something that is not an :class:`Action` raises
        :class:`IllegalActionError` (a caller's mistake, not a move the rules refuse)."""
        checked = _check_action(action)
        return not self.over and self.deal.is_legal(checked)

    def _check_seat(self, seat: object) -> int:
        """``seat`` as an ``int`` (NumPy integers welcome); :class:`IllegalActionError` if no such seat."""
        n = self.rules.players
        index = index_below(seat, n)
        if index < 0:
            raise IllegalActionError(
                N_("seat {seat} does not exist; seats are 0 to {last}"), seat=show(seat), last=n - 1
            )
        return index

    def totals(self) -> list[int]:
        """Scores per side (team totals with partnerships, else per seat)."""
        return team_totals(self.scores, self.rules.teams)

    # -------------------------------------------------------------- apply
    def apply(self, action: object) -> Applied:
        """Apply one seat's decision and say what it completed; an illegal action raises and changes nothing.

        The :class:`~corazones.core.applied.Applied` value names the trick the
        action took (with its winner), the hand it ended and whether the game is
        over, so no caller needs to compare the state before and after.
        """
        d = self.deal
        tricks = d.trick_no
        if not self.over and d.play_known(action):
            # one of the play objects the engine hands out (legal_actions, Action.play), legal now
            self.actions.append(cast(Action, action))
        else:
            checked = _check_action(action)
            if self.over:
                raise IllegalActionError(N_("the game is over; no action is expected"))
            d.apply(checked)
            self.actions.append(checked)
        if d.phase == DONE:
            self._finish_hand()
            trick = d.tricks[-1] if d.trick_no != tricks else None
            return Applied(trick, self.history[-1], self.over)
        if d.trick_no != tricks:
            return Applied(d.tricks[-1])
        return NOTHING

    def _finish_hand(self) -> None:
        d = self.deal
        r = self.rules
        scores = d.hand_scores()
        bid = d.high_bid if d.declarer is not None and d.forced_declarer is None else 0
        out = settle_hand(r, d.pts, d.pen_count, self.pool, bid, d.declarer)
        delta, self.pool = out.delta, out.pool
        if r.settlement == "chips_pool":
            self.carry_declarer = d.declarer if not out.winners else None
        for s in range(r.players):
            self.scores[s] += scores[s]
            self.chips[s] += delta[s]
        self.history.append(
            HandResult(
                index=self.hand_index,
                dealer=d.dealer,
                pass_direction=d.pass_direction,
                penalty_suit=d.penalty_suit,
                declarer=d.declarer,
                bid=bid,
                points=tuple(d.pts),
                scores=tuple(scores),
                shooter=d.shooter,
                moon_choice=(d.moon_choice or r.moon) if d.shooter is not None else None,
                kitty=tuple(sorted(d.kitty)),
                kitty_owner=d.kitty_owner,
                penalty_cards=tuple(d.pen_count),
                chips_delta=delta,
                pool=self.pool,
                totals=tuple(self.scores),
            )
        )
        self.hand_index += 1
        self.last_deal = d
        if self._check_end():
            self.over = True
            return
        self.dealer = (self.dealer + 1) % r.players
        self.deal = self._new_deal()

    def _check_end(self) -> bool:
        winners = game_end(self.rules, self.hand_index, self.scores, self.chips)
        if winners is None:
            return False
        self.winners = winners
        return True

    def stakes(self) -> tuple[float, ...] | None:
        """Average-stakes settlement: what each seat pays (+) or draws (-) so far."""
        if self.rules.settlement != "average_stakes":
            return None
        return tuple(float(x) for x in average_stakes(self.scores))

    # --------------------------------------------------------------- clone
    def clone(self) -> Game:
        g = Game.__new__(Game)
        g.rules = self.rules
        g.seed = self.seed
        g.hand_index = self.hand_index
        g.dealer = self.dealer
        g.draw = self.draw
        g.deal = self.deal.clone()
        g.scores = self.scores[:]
        g.chips = self.chips[:]
        g.pool = self.pool
        g.history = self.history[:]
        g.actions = self.actions[:]
        g.over = self.over
        g.winners = self.winners
        g.carry_declarer = self.carry_declarer
        g.last_deal = self.last_deal
        g.from_position = self.from_position
        return g

    # -------------------------------------------------------- observation
    def observation(self, seat: object) -> Observation:
        """Everything ``seat`` may know now (RULES.md §5), and nothing more (not the seed)."""
        n = self.rules.players
        seat = self._check_seat(seat)
        d = self.deal
        acting = self.to_act()
        kind = self.decision_kind() if seat in acting else None
        legal: tuple[Action, ...] = ()
        if kind is not None and kind is not Kind.PASS:
            legal = tuple(d.legal_actions(seat))
        off = d.pass_offset
        passed = d.passes[seat] if off else None
        received = None
        received_from = None
        if off:
            received_from = (seat - off) % n
            if d.received is not None:
                received = d.received[seat]
        return Observation(
            seat=seat,
            rules=self.rules,
            hand_index=self.hand_index,
            dealer=d.dealer,
            phase=self.phase,
            to_act=acting,
            decision=kind,
            legal=legal,
            hand=tuple(d.hand(seat)),
            hand_sizes=tuple(d.hand_count(s) for s in range(n)),
            pass_direction=d.pass_direction,
            pass_to=(seat + off) % n if off else None,
            passed=passed,
            received=received,
            received_from=received_from,
            bids=tuple(d.bids),
            declarer=d.declarer,
            penalty_suit=d.penalty_suit,
            tricks=tuple(d.tricks),
            trick_leader=d.leader,
            trick=tuple(zip(d.trick_seats, d.trick_cards)),
            turn=d.turn if d.phase == PLAY else -1,
            hearts_broken=d.broken,
            points_taken=tuple(d.pts),
            kitty_size=len(d.kitty),
            kitty_owner=d.kitty_owner,
            scores=tuple(self.scores),
            chips=tuple(self.chips),
            pool=self.pool,
            history=tuple(self.history),
            game_over=self.over,
            winners=self.winners,
        )


_INT_LIMIT = 10**MAX_INT_DIGITS
_EXPECTED = "an Action (Action.play(seat, 'QS'), Action.pass_cards(...), Action.from_json({...}) ...)"


def _check_action(action: object) -> Action:
    """Refuse what is not an :class:`Action` at all, before the rules look at it.

    The deal explains every illegal move of a well-formed action; this guard
    keeps anything else (``None``, a dict, an action built by hand with a
    huge number) from reaching it as an ``AttributeError`` or a conversion
    error.  Fields are read untyped, as ``Deal.check`` does: in the compiled
    build a typed read would convert or reject them before this could explain.
    Returns ``action`` as an :class:`Action`.
    """
    if not isinstance(action, Action):
        raise IllegalActionError(N_("expected {expected}, not {value}"), expected=_EXPECTED, value=show(action))
    raw: Any = action  # its fields, as they are
    if not isinstance(raw.kind, Kind):
        raise IllegalActionError(
            N_("an action's kind is one of {kinds}, not {value}"),
            kinds=", ".join(k.value for k in Kind),
            value=show(raw.kind),
        )
    if not isinstance(raw.cards, tuple) or len(raw.cards) > 52:
        raise IllegalActionError(
            N_("an action's cards are a tuple of card indexes, not {value}"), value=show(raw.cards)
        )
    for v in (raw.seat, raw.value, *raw.cards):
        if isinstance(v, int) and abs(v) >= _INT_LIMIT:
            raise IllegalActionError(N_("{value} is out of range in {action}"), value=show(v), action=repr(raw))
    return action


if is_compiled_file(__file__):  # compiled build (setup.py): warn if this source changed since
    warn_if_stale(__name__)
