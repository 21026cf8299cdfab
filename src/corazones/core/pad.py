"""Score pad for games played with real cards: hands entered by people, scored like the engine's.

People at a kitchen table report each hand in one of two ways:

* the quick way — how many of the *counted* penalty cards each player took
  (the hearts, usually) and who took each *named* card (Q♠, J♦, Black Maria's
  spades, every spot-valued heart...).  Which cards are counted and which are
  named is derived from the rules' card values (:func:`layout`), never from
  the preset's name;
* the points way — each player's points for the hand, plus who shot the moon
  when that cannot be seen from the points.

Either way the row is checked against the rules in force and refused, with a
reason a player understands, when it cannot happen (:class:`PadError` carries
an English template and its parameters; the faces translate the template).
Hand scores, the moon, chips, the pool, the end of the game and the winners
come from :mod:`corazones.core.scoring`, the code the engine settles with.

The pad keeps only what was entered (:class:`Entry`); every total, chip count
and pool is recomputed from the first row, so undoing or editing any row
recomputes everything after it, and a saved pad holds no number that could
disagree with its rows.  JSON (strict reader with size limits) and CSV are
text in and text out: the core does no I/O.
"""

from __future__ import annotations

import csv
import io
import json
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from typing import Any, Final

from corazones.core import limits
from corazones.core.actions import MOON_CHOICES
from corazones.core.cards import CARDS, HEARTS, RANK_LETTERS, SUIT_GLYPHS, SUIT_LETTERS, card_str, parse_card
from corazones.core.errors import N_, CardError, CorazonesError, RulesError
from corazones.core.rules import Rules
from corazones.core.scoring import average_stakes as _average_stakes
from corazones.core.scoring import find_shooter, game_end, moon_scores, settle_hand, team_totals
from corazones.core.text import safe_line

FORMAT: Final = "corazones-pad"
VERSION: Final = 1
#: Limits of a saved pad: bigger input is refused before it is parsed further.
MAX_TEXT: Final = 1_000_000
MAX_HANDS: Final = limits.MAX_HANDS
MAX_NAME: Final = limits.MAX_NAME_LENGTH
MAX_CHIPS: Final = 1_000_000
#: Default revoke penalty under the 1887 rules, in chips (agree another with ``revoke_penalty``).
DEFAULT_REVOKE_PENALTY: Final = 13
#: What a revoker made to avoid taking all the hearts pays each opponent (RULES.md §4).
REVOKE_TO_AVOID_ALL: Final = 8


class PadError(CorazonesError, ValueError):
    """A row, pad option or saved pad that cannot be accepted.

    ``template`` is an English sentence with ``{placeholders}`` and ``params``
    fills them; a face shows ``translate(template).format(**params)``.
    ``str(error)`` is the English sentence.  A parameter may itself be a
    :class:`PadError` (the reason a later hand no longer adds up): a face
    translates it the same way before filling the outer template.
    """


# ---------------------------------------------------------------- layout
@dataclass(frozen=True, slots=True)
class Layout:
    """Which penalty cards a hand is entered with, for one rule set and penalty suit.

    ``counted`` are the interchangeable cards (same value, the penalty suit's
    usual value) entered as a count per player; ``named`` are every other card
    that carries points, each entered with who took it (``copies`` takers with
    two decks).
    """

    suit: int
    counted: tuple[int, ...]
    counted_value: int
    counted_in_play: int
    named: tuple[tuple[int, int, int], ...]  # (card, value, copies in play)
    pen_total: int
    pos_total: int
    reachable: frozenset[int]
    reachable_bonus: frozenset[int]
    whole_suit: bool

    @property
    def counted_name(self) -> str:
        """``♥`` for a whole suit, else the suit glyph and the ranks counted (``♥ 2-10``)."""
        if not self.counted:
            return ""
        glyph = SUIT_GLYPHS[self.suit]
        ranks = sorted(c % 13 for c in self.counted)
        if self.whole_suit:
            return glyph
        runs: list[list[int]] = []
        for r in ranks:
            if runs and r == runs[-1][-1] + 1:
                runs[-1].append(r)
            else:
                runs.append([r])
        parts = [RANK_LETTERS[u[0]] if len(u) < 3 else f"{RANK_LETTERS[u[0]]}-{RANK_LETTERS[u[-1]]}" for u in runs]
        parts = [p for u, p in zip(runs, parts) for p in ([p] if len(u) != 2 else [RANK_LETTERS[x] for x in u])]
        return f"{glyph} " + " ".join(parts)

    def card_named(self, card: int) -> tuple[int, int] | None:
        """(value, copies) of a named card, or ``None`` if ``card`` is not one."""
        for c, v, k in self.named:
            if c == card:
                return v, k
        return None


def layout(rules: Rules, suit: int = HEARTS) -> Layout:
    """The entry layout of ``rules`` with ``suit`` as the penalty suit (cached per rules and suit)."""
    return _layout(rules, suit)


@lru_cache(maxsize=256)
def _layout(rules: Rules, suit: int) -> Layout:
    values = rules.card_values(suit)
    in_play = Counter(rules.deck)
    suit_cards = [c for c in sorted(in_play) if c // 13 == suit and values[c] != 0]
    by_value = Counter(values[c] for c in suit_cards)
    counted: tuple[int, ...] = ()
    counted_value = 0
    if by_value:
        value, how_many = by_value.most_common(1)[0]
        # a value shared by most of the suit makes those cards interchangeable: count them
        if how_many * 2 > 13:
            counted = tuple(c for c in suit_cards if values[c] == value)
            counted_value = value
    counted_set = set(counted)
    named = tuple(
        (c, values[c], in_play[c]) for c in sorted(in_play, key=_display_order) if values[c] and c not in counted_set
    )
    every = [values[c] for c in rules.deck if values[c]]
    return Layout(
        suit=suit,
        counted=counted,
        counted_value=counted_value,
        counted_in_play=sum(in_play[c] for c in counted),
        named=named,
        pen_total=sum(every),
        pos_total=sum(v for v in every if v > 0),
        reachable=_subset_sums(every),
        reachable_bonus=_subset_sums([v for v in every if v < 0]),
        whole_suit=bool(counted) and len(counted) == len({c for c in in_play if c // 13 == suit}),
    )


def _display_order(card: int) -> tuple[int, int]:
    """Named cards in the order a player looks for them: spades, hearts, diamonds, clubs; high first."""
    return ((2, 3, 1, 0).index(card // 13), -(card % 13))


def _subset_sums(values: Sequence[int]) -> frozenset[int]:
    sums = {0}
    for v in values:
        sums |= {s + v for s in sums}
    return frozenset(sums)


def glyph(card: int) -> str:
    """A card as players write it: ``Q♠``."""
    return CARDS[card].glyph()


# ----------------------------------------------------------------- entries
@dataclass(frozen=True, slots=True)
class Revoke:
    """A revoke recorded on a hand: who revoked, and whether it was to avoid taking all the hearts."""

    seat: int
    to_avoid_all: bool = False


@dataclass(frozen=True, slots=True)
class Entry:
    """One hand as the table reports it (nothing computed).

    Quick way: ``counts`` (counted cards per seat) and ``cards`` (each named
    card with the seats that took its copies).  Points way: ``points`` per
    seat.  ``shooters`` names who shot the moon (needed in the points way when
    a shooter also took a bonus card), ``moon`` is the shooter's choice.
    Auction hands add ``suit`` (the penalty suit named), ``declarer`` and ``bid``.
    """

    counts: tuple[int, ...] | None = None
    cards: tuple[tuple[int, tuple[int, ...]], ...] = ()
    points: tuple[int, ...] | None = None
    shooters: tuple[int, ...] = ()
    moon: str | None = None
    suit: int = HEARTS
    declarer: int | None = None
    bid: int = 0
    revokes: tuple[Revoke, ...] = ()
    note: str = ""

    @classmethod
    def quick(
        cls,
        counts: Sequence[int],
        cards: Mapping[str | int, int | Sequence[int]] | None = None,
        **more: Any,
    ) -> Entry:
        """A quick-way entry: ``Entry.quick([3, 4, 6, 0], {"QS": 2})``."""
        named: list[tuple[int, tuple[int, ...]]] = []
        for name, who in (cards or {}).items():
            card = _card(name)
            seats = (who,) if isinstance(who, int) else tuple(who)
            named.append((card, seats))
        return cls(counts=tuple(counts), cards=tuple(sorted(named)), **more)

    @classmethod
    def by_points(cls, points: Sequence[int], **more: Any) -> Entry:
        """A points-way entry: ``Entry.by_points([13, 0, 13, 0])``."""
        return cls(points=tuple(points), **more)


def _card(name: str | int) -> int:
    if isinstance(name, int) and not isinstance(name, bool) and 0 <= name < 52:
        return name
    try:
        return parse_card(name)  # type: ignore[arg-type]
    except CardError:
        raise PadError(N_("{text} is not a card; write rank then suit, e.g. QS or Q♠"), text=repr(name)) from None


# -------------------------------------------------------------------- rows
@dataclass(frozen=True, slots=True)
class Row:
    """A hand on the sheet: what was entered and everything computed from it and the rows before."""

    index: int
    entry: Entry
    penalty_suit: int
    declarer: int | None
    bid: int
    taken: tuple[int, ...]  # points taken, before the moon
    penalty_cards: tuple[int, ...] | None  # penalty cards taken (None when entered as points and not derivable)
    shooter: int | None
    moon_choice: str | None
    scores: tuple[int, ...]  # the hand's scores after the moon
    totals: tuple[int, ...]  # running total per seat
    chips_delta: tuple[int, ...]
    chips: tuple[int, ...]
    pool: int
    carry_declarer: int | None
    over: bool
    winners: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class _State:
    hands: int
    totals: tuple[int, ...]
    chips: tuple[int, ...]
    pool: int
    carry_declarer: int | None
    over: bool


@dataclass
class Pad:
    """A score sheet for one game under ``rules`` with the players' ``names`` (seat order)."""

    rules: Rules
    names: tuple[str, ...] = ()
    revoke_penalty: int = DEFAULT_REVOKE_PENALTY
    entries: list[Entry] = field(default_factory=list)
    rows: list[Row] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not isinstance(self.rules, Rules):
            raise PadError(N_("the rules of a pad must be a Rules value"))
        n = self.rules.players
        names = tuple(self.names) if self.names else tuple(f"Player {i + 1}" for i in range(n))
        self.names = check_names(names, n)
        if isinstance(self.revoke_penalty, bool) or not isinstance(self.revoke_penalty, int):
            raise PadError(N_("the revoke penalty must be a whole number of chips"))
        if not 0 <= self.revoke_penalty <= MAX_CHIPS:
            raise PadError(N_("the revoke penalty must be 0 to {high} chips"), high=MAX_CHIPS)
        entries, self.entries, self.rows = list(self.entries), [], []
        for e in entries:
            self.add(e)

    # ------------------------------------------------------------ reading
    @property
    def players(self) -> int:
        return self.rules.players

    @property
    def uses_chips(self) -> bool:
        return self.rules.settlement in ("chips_1887", "chips_pool")

    def _state(self, upto: int | None = None) -> _State:
        """Where the game stands after the first ``upto`` rows (all rows by default)."""
        k = len(self.rows) if upto is None else upto
        if k == 0:
            n = self.players
            chips = (self.rules.stake,) * n if self.uses_chips else (0,) * n
            return _State(0, (0,) * n, chips, 0, None, False)
        r = self.rows[k - 1]
        return _State(k, r.totals, r.chips, r.pool, r.carry_declarer, r.over)

    @property
    def totals(self) -> tuple[int, ...]:
        return self._state().totals

    @property
    def chips(self) -> tuple[int, ...]:
        return self._state().chips

    @property
    def pool(self) -> int:
        return self._state().pool

    @property
    def over(self) -> bool:
        return self._state().over

    @property
    def winners(self) -> tuple[int, ...]:
        return self.rows[-1].winners if self.rows else ()

    @property
    def carry_declarer(self) -> int | None:
        """Who names the suit of the next hand without bidding (Auction's carried-over pool)."""
        return self._state().carry_declarer

    def side_totals(self) -> list[int]:
        """Running totals per side (team totals with partnerships, else per seat)."""
        return team_totals(self.totals, self.rules.teams)

    def side_name(self, side: int) -> str:
        return " + ".join(self.names[s] for s in self.rules.teams[side])

    def leaders(self) -> tuple[int, ...]:
        """The sides in the lead now: lowest total, or most chips in the chip games."""
        if self.uses_chips:
            chips = self.chips
            best = max(chips)
            return tuple(s for s in range(self.players) if chips[s] == best)
        totals = self.side_totals()
        low = min(totals)
        return tuple(i for i, t in enumerate(totals) if t == low)

    def near_target(self, margin: int | None = None) -> tuple[int, ...]:
        """Sides within ``margin`` (default a fifth of the target) of the target, which ends the game."""
        target = self.rules.target
        if target is None or self.uses_chips:
            return ()
        m = max(1, target // 5) if margin is None else margin
        return tuple(i for i, t in enumerate(self.side_totals()) if target - m <= t < target)

    def stakes(self) -> tuple[Fraction, ...] | None:
        """Average stakes (RULES.md §4): what each seat pays (+) or draws (-); None under other settlements."""
        if self.rules.settlement != "average_stakes":
            return None
        return _average_stakes(self.totals)

    def next_pass(self) -> str:
        """The pass direction of the next hand (``hold`` = no pass)."""
        return self.rules.pass_direction(len(self.rows))

    def layout(self, suit: int = HEARTS) -> Layout:
        return layout(self.rules, suit)

    # ------------------------------------------------------------ writing
    def check(self, entry: Entry, index: int | None = None) -> Row:
        """The row ``entry`` would make as hand ``index`` (default: the next); raises :class:`PadError`."""
        k = len(self.rows) if index is None else index
        state = self._state(k)
        if state.over:
            raise PadError(N_("the game is over; it ended with hand {hand}"), hand=state.hands)
        if k >= MAX_HANDS:
            raise PadError(N_("a pad holds at most {limit} hands"), limit=MAX_HANDS)
        return _score(self, entry, k, state)

    def add(self, entry: Entry) -> Row:
        """Append a hand; a row that cannot happen raises :class:`PadError` and changes nothing."""
        row = self.check(entry)
        self.entries.append(entry)
        self.rows.append(row)
        return row

    def undo(self) -> Entry:
        """Remove the last hand and return what had been entered."""
        if not self.entries:
            raise PadError(N_("there is no hand to undo"))
        self.rows.pop()
        return self.entries.pop()

    def edit(self, index: int, entry: Entry) -> None:
        """Replace hand ``index`` (0-based) and recompute every row after it; all or nothing."""
        self._index(index)
        self._rebuild(index, [entry, *self.entries[index + 1 :]])

    def remove(self, index: int) -> Entry:
        """Delete hand ``index`` (0-based) and recompute every row after it; all or nothing."""
        self._index(index)
        old = self.entries[index]
        self._rebuild(index, self.entries[index + 1 :])
        return old

    def _index(self, index: int) -> None:
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(self.entries):
            if not self.entries:
                raise PadError(N_("there is no hand yet"))
            raise PadError(N_("there is no hand {hand}; hands are 1 to {last}"), hand=index + 1, last=len(self.entries))

    def _rebuild(self, start: int, entries: list[Entry]) -> None:
        rows = self.rows[:start]
        saved_rows, saved_entries = self.rows, self.entries
        self.rows, self.entries = rows, self.entries[:start]
        try:
            for i, e in enumerate(entries):
                try:
                    self.add(e)
                except PadError as err:
                    if i == 0:
                        raise
                    if self.over:
                        raise PadError(
                            N_("after this change the game ends with hand {hand}; undo the hands after it first"),
                            hand=len(self.rows),
                        ) from None
                    raise PadError(
                        N_("after this change hand {hand} no longer adds up: {reason}"),
                        hand=start + i + 1,
                        reason=err,
                    ) from None
        except PadError:
            self.rows, self.entries = saved_rows, saved_entries
            raise

    # ----------------------------------------------------------- formats
    def to_json(self) -> dict[str, Any]:
        """JSON-ready pad: the rules, the names and what was entered (totals are recomputed on loading)."""
        return {
            "format": FORMAT,
            "version": VERSION,
            "rules": self.rules.to_dict(),
            "names": list(self.names),
            "revoke_penalty": self.revoke_penalty,
            "hands": [entry_to_json(e) for e in self.entries],
        }

    def dumps(self) -> str:
        """Pad JSON text, one hand per line."""
        data = self.to_json()
        head = {k: v for k, v in data.items() if k != "hands"}
        lines = ["{"]
        lines += [f"  {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}," for k, v in head.items()]
        hands = [json.dumps(h, ensure_ascii=False) for h in data["hands"]]
        if hands:
            lines.append('  "hands": [')
            lines += ["    " + h + ("," if i < len(hands) - 1 else "") for i, h in enumerate(hands)]
            lines.append("  ]")
        else:
            lines.append('  "hands": []')
        return "\n".join(lines) + "\n}\n"

    def to_csv(self) -> str:
        """The sheet as CSV: one line per hand with each player's hand score and running total."""
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        head = ["hand"] + [f"{n}" for n in self.names] + [f"{n} total" for n in self.names]
        if self.uses_chips:
            head += [f"{n} chips" for n in self.names] + ["pool"]
        head += ["moon", "note"]
        w.writerow(head)
        for r in self.rows:
            line: list[object] = [r.index + 1, *r.scores, *r.totals]
            if self.uses_chips:
                line += [*r.chips, r.pool]
            moon = "" if r.shooter is None else f"{self.names[r.shooter]} {r.moon_choice}"
            line += [moon, r.entry.note]
            w.writerow(line)
        return buf.getvalue()


def check_names(names: Sequence[object], players: int) -> tuple[str, ...]:
    """The players' names, checked: one per seat, not empty, at most ``MAX_NAME`` characters, all different."""
    if not isinstance(names, list | tuple) or len(names) != players:
        got = len(names) if isinstance(names, list | tuple) else 0
        raise PadError(N_("name each of the {players} players ({got} names given)"), players=players, got=got)
    out = []
    for x in names:
        # escapes, controls and bidi overrides would act on a terminal when the sheet is shown
        x = safe_line(x, 4 * MAX_NAME) if isinstance(x, str) else ""
        if not x:
            raise PadError(N_("every player needs a name"))
        if len(x) > MAX_NAME:
            raise PadError(N_("the name {name} is longer than {limit} characters"), name=x[:MAX_NAME], limit=MAX_NAME)
        out.append(x)
    lowered = [x.casefold() for x in out]
    for x in out:
        if lowered.count(x.casefold()) > 1:
            raise PadError(N_("two players are called {name}; give them different names"), name=x)
    return tuple(out)


# ----------------------------------------------------------------- scoring
def _who(pad: Pad, seat: int) -> str:
    return pad.names[seat]


def _seat(pad: Pad, seat: object) -> int:
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < pad.players:
        raise PadError(N_("there is no seat {seat}; seats are 0 to {last}"), seat=repr(seat), last=pad.players - 1)
    return seat


def _score(pad: Pad, e: Entry, index: int, state: _State) -> Row:
    r = pad.rules
    n = r.players
    if not isinstance(e, Entry):
        raise PadError(N_("a hand must be entered as card counts or as points"))
    suit, declarer, bid = _auction(pad, e, state)
    lay = layout(r, suit)
    if (e.counts is None) == (e.points is None):
        raise PadError(N_("enter the hand either as cards taken or as points, not both"))
    pen_cards: list[int] | None
    if e.counts is not None:
        taken, pos, pen_cards = _by_cards(pad, e, lay)
        shooter = find_shooter(r, pos, lay.pos_total)
        _check_declared_shooter(pad, e, shooter)
    else:
        taken, pos, pen_cards, shooter = _by_points(pad, e, lay)
    choice = _moon_choice(pad, e, shooter, lay)
    scores = moon_scores(r, taken, pos, shooter, choice, lay.pos_total)
    if r.settlement == "chips_pool" and pen_cards is None:
        raise PadError(N_("enter this hand card by card: the pool is paid per penalty card"))
    out = settle_hand(r, taken, pen_cards or (0,) * n, state.pool, bid, declarer)
    delta = list(out.delta)
    pool = out.pool
    seen: set[int] = set()
    for rv in e.revokes:
        if not isinstance(rv, Revoke) or not isinstance(rv.to_avoid_all, bool):
            raise PadError(N_("a revoke names the player who revoked"))
        s = _seat(pad, rv.seat)
        if s in seen:
            raise PadError(N_("{player}'s revoke is recorded twice"), player=_who(pad, s))
        seen.add(s)
        if r.settlement != "chips_1887":
            continue  # recorded on the sheet; the table agrees the hand's points
        if rv.to_avoid_all:
            for o in range(n):
                delta[o] += -REVOKE_TO_AVOID_ALL * (n - 1) if o == s else REVOKE_TO_AVOID_ALL
        else:
            delta[s] -= pad.revoke_penalty
            pool += pad.revoke_penalty
    carry = None
    if r.settlement == "chips_pool":
        carry = declarer if not out.winners else None
    totals = tuple(state.totals[s] + scores[s] for s in range(n))
    chips = tuple(state.chips[s] + delta[s] for s in range(n)) if pad.uses_chips else state.chips
    if not isinstance(e.note, str) or len(e.note) > 200:
        raise PadError(N_("a note is text of at most {limit} characters"), limit=200)
    winners = game_end(r, index + 1, totals, chips)
    return Row(
        index=index,
        entry=e,
        penalty_suit=suit,
        declarer=declarer,
        bid=bid,
        taken=tuple(taken),
        penalty_cards=None if pen_cards is None else tuple(pen_cards),
        shooter=shooter,
        moon_choice=choice,
        scores=scores,
        totals=totals,
        chips_delta=tuple(delta) if pad.uses_chips else (0,) * n,
        chips=chips,
        pool=pool,
        carry_declarer=carry,
        over=winners is not None,
        winners=winners or (),
    )


def _auction(pad: Pad, e: Entry, state: _State) -> tuple[int, int | None, int]:
    """Penalty suit, declarer and bid paid, checked against the auction (or its absence)."""
    r = pad.rules
    if isinstance(e.suit, bool) or e.suit not in range(4):
        raise PadError(N_("the penalty suit must be one of C, D, S, H"))
    if isinstance(e.bid, bool) or not isinstance(e.bid, int):
        raise PadError(N_("a bid is a whole number of chips"))
    if not r.auction:
        if e.declarer is not None or e.bid or e.suit != HEARTS:
            raise PadError(N_("there is no auction in these rules: hearts are the penalty suit"))
        return HEARTS, None, 0
    carry = state.carry_declarer
    if carry is not None:
        if e.declarer != carry or e.bid:
            raise PadError(
                N_("the pool carried over: {player} names the suit again, without bidding"), player=_who(pad, carry)
            )
        return e.suit, carry, 0
    if e.declarer is None:
        if e.bid or e.suit != HEARTS:
            raise PadError(N_("nobody won the auction, so hearts are the penalty suit and nothing is paid"))
        return HEARTS, None, 0
    s = _seat(pad, e.declarer)
    cap = state.chips[s]
    if not 1 <= e.bid <= cap:
        if cap < 1:
            raise PadError(N_("{player} has no chips to bid with"), player=_who(pad, s))
        raise PadError(
            N_("{player} cannot bid {bid}: a bid is 1 to {cap} chips (the chips they hold)"),
            player=_who(pad, s),
            bid=e.bid,
            cap=cap,
        )
    return e.suit, s, e.bid


def _ints(pad: Pad, values: object) -> tuple[int, ...]:
    n = pad.players
    if not isinstance(values, tuple | list) or len(values) != n:
        raise PadError(N_("give one number per player ({players} numbers)"), players=n)
    for v in values:
        if isinstance(v, bool) or not isinstance(v, int):
            raise PadError(N_("{value} is not a whole number"), value=repr(v))
        if abs(v) > MAX_CHIPS:
            raise PadError(N_("{value} is too large for one hand"), value=v)
    return tuple(values)


def _by_cards(pad: Pad, e: Entry, lay: Layout) -> tuple[list[int], list[int], list[int]]:
    """Points taken, penalty points and penalty cards per seat from counts and named cards."""
    counts = _ints(pad, e.counts)
    group = lay.counted_name
    if not lay.counted and any(counts):
        raise PadError(N_("nothing is counted in these rules: say who took each card that scores"))
    for s, c in enumerate(counts):
        if c < 0:
            raise PadError(N_("{player} cannot take {count} cards"), player=_who(pad, s), count=c)
    got = sum(counts)
    if lay.counted and got != lay.counted_in_play:
        if pad.rules.kitty_size:
            raise PadError(
                N_("the {cards} cards add up to {got}, but {want} are in play; the kitty counts for whoever took it"),
                cards=group,
                got=got,
                want=lay.counted_in_play,
            )
        raise PadError(
            N_("the {cards} cards add up to {got}, but {want} are in play"),
            cards=group,
            got=got,
            want=lay.counted_in_play,
        )
    pts = [c * lay.counted_value for c in counts]
    pos = [c * lay.counted_value if lay.counted_value > 0 else 0 for c in counts]
    pen = [c if lay.counted_value > 0 else 0 for c in counts]
    given: dict[int, tuple[int, ...]] = {}
    for item in e.cards:
        if not (isinstance(item, tuple) and len(item) == 2):
            raise PadError(N_("a card taken is written as the card and who took it"))
        card, seats = item
        card = _card(card)
        if card in given:
            raise PadError(N_("{card} is named twice"), card=glyph(card))
        info = lay.card_named(card)
        if info is None:
            if lay.counted and card in lay.counted:
                raise PadError(
                    N_("{card} is counted with the {cards} cards; do not name it"), card=glyph(card), cards=group
                )
            raise PadError(
                N_("{card} scores nothing here; the cards to name are {cards}"),
                card=glyph(card),
                cards=" ".join(glyph(c) for c, _, _ in lay.named) or "-",
            )
        value, copies = info
        if not isinstance(seats, tuple):
            raise PadError(N_("a card taken is written as the card and who took it"))
        takers = tuple(_seat(pad, s) for s in seats)
        if len(takers) != copies:
            if copies == 1:
                raise PadError(
                    N_("{card} can only be taken once; it was given to {players}"),
                    card=glyph(card),
                    players=", ".join(_who(pad, s) for s in takers),
                )
            raise PadError(
                N_("{card} is in play {copies} times; say who took each copy ({got} given)"),
                card=glyph(card),
                copies=copies,
                got=len(takers),
            )
        given[card] = takers
        for s in takers:
            pts[s] += value
            if value > 0:
                pos[s] += value
                pen[s] += 1
    missing = [c for c, _, _ in lay.named if c not in given]
    if missing:
        raise PadError(N_("say who took {cards}"), cards=" ".join(glyph(c) for c in missing))
    for s, c in enumerate(counts):
        if c > lay.counted_in_play:
            raise PadError(N_("{player} cannot take {count} cards"), player=_who(pad, s), count=c)
    return pts, pos, pen


def _check_declared_shooter(pad: Pad, e: Entry, shooter: int | None) -> None:
    declared = _shooters(pad, e)
    if declared is None or declared == shooter:
        return
    if shooter is None:
        raise PadError(
            N_("{player} did not take every penalty card, so nobody shot the moon"), player=_who(pad, declared)
        )
    raise PadError(
        N_("{shooter} took every penalty card, not {player}"), shooter=_who(pad, shooter), player=_who(pad, declared)
    )


def _shooters(pad: Pad, e: Entry) -> int | None:
    if not isinstance(e.shooters, tuple):
        raise PadError(N_("name the player who shot the moon"))
    seats = tuple(dict.fromkeys(_seat(pad, s) for s in e.shooters))
    if len(seats) > 1:
        raise PadError(
            N_("only one player can take every penalty card; {players} were all marked as shooting the moon"),
            players=", ".join(_who(pad, s) for s in seats),
        )
    if seats and pad.rules.moon == "off":
        raise PadError(N_("the moon is not played in these rules"))
    return seats[0] if seats else None


def _by_points(pad: Pad, e: Entry, lay: Layout) -> tuple[list[int], list[int], list[int] | None, int | None]:
    """Points taken, penalty points, penalty cards (when derivable) and shooter from the points way."""
    r = pad.rules
    pts = list(_ints(pad, e.points))
    got = sum(pts)
    if got != lay.pen_total:
        if r.kitty_size:
            raise PadError(
                N_("the points add up to {got}, but the hand carries {want}; the kitty counts for whoever took it"),
                got=got,
                want=lay.pen_total,
            )
        raise PadError(N_("the points add up to {got}, but the hand carries {want}"), got=got, want=lay.pen_total)
    for s, p in enumerate(pts):
        if p not in lay.reachable:
            raise PadError(
                N_("{player} cannot take {points} points in one hand under these rules"), player=_who(pad, s), points=p
            )
    declared = _shooters(pad, e)
    seen: int | None = None
    if r.moon != "off" and lay.pos_total > 0:
        # a seat (or side) whose points equal every penalty point in play took them all, bonus cards aside
        for s, p in enumerate(pts):
            if p == lay.pos_total:
                seen = s
        if seen is None and r.moon_needs == "team":
            for team in r.teams:
                if sum(pts[s] for s in team) == lay.pos_total:
                    seen = max(team, key=lambda s: (pts[s], -s))
    same_side = declared is not None and seen is not None and r.moon_needs == "team"
    if (
        declared is not None
        and seen is not None
        and declared != seen
        and not (same_side and r.team_of(declared) == r.team_of(seen))
    ):
        raise PadError(
            N_("{shooter} took every penalty card, not {player}"),
            shooter=_who(pad, seen),
            player=_who(pad, declared),
        )
    shooter = declared if declared is not None else seen
    pos = [max(p, 0) for p in pts]
    if shooter is not None:
        side = r.team_of(shooter) if r.moon_needs == "team" else None
        mates = [s for s in range(r.players) if s != shooter and side is not None and r.team_of(s) == side]
        for s in range(r.players):
            if s != shooter and s not in mates and pts[s] not in lay.reachable_bonus:
                raise PadError(
                    N_("{shooter} took every penalty card, so {player} cannot have {points} points"),
                    shooter=_who(pad, shooter),
                    player=_who(pad, s),
                    points=pts[s],
                )
        pos = [0] * r.players
        for s in mates:
            pos[s] = max(pts[s], 0)
        pos[shooter] = lay.pos_total - sum(pos)
    ones = all(v == 1 for c, v, _ in lay.named) and lay.counted_value in (0, 1)
    pen = pos[:] if ones and not any(v < 0 for _, v, _ in lay.named) else None
    return pts, pos, pen, shooter


def _moon_choice(pad: Pad, e: Entry, shooter: int | None, lay: Layout) -> str | None:
    r = pad.rules
    if e.moon is not None and e.moon not in MOON_CHOICES:
        raise PadError(N_("the moon choice is subtract_from_self or add_to_others"))
    if shooter is None:
        if e.moon is not None:
            raise PadError(N_("nobody took every penalty card, so there is no moon choice to make"))
        return None
    if r.moon == "choice":
        if e.moon is None:
            raise PadError(
                N_(
                    "{player} took every penalty card: choose whether they subtract {total} from their own score "
                    "or add {total} to each opponent's"
                ),
                player=_who(pad, shooter),
                total=lay.pos_total,
            )
        return e.moon
    if e.moon is not None and e.moon != r.moon:
        raise PadError(N_("these rules settle the moon one way only ({mode}); there is nothing to choose"), mode=r.moon)
    return r.moon


# ------------------------------------------------------------------- JSON
def entry_to_json(e: Entry) -> dict[str, Any]:
    """An entry as JSON: only the fields that were given."""
    d: dict[str, Any] = {}
    if e.counts is not None:
        d["counts"] = list(e.counts)
        d["cards"] = {card_str(c): list(seats) for c, seats in e.cards}
    if e.points is not None:
        d["points"] = list(e.points)
    if e.shooters:
        d["shooters"] = list(e.shooters)
    if e.moon is not None:
        d["moon"] = e.moon
    if e.suit != HEARTS:
        d["suit"] = SUIT_LETTERS[e.suit]
    if e.declarer is not None:
        d["declarer"] = e.declarer
    if e.bid:
        d["bid"] = e.bid
    if e.revokes:
        d["revokes"] = [{"seat": v.seat, "to_avoid_all": v.to_avoid_all} for v in e.revokes]
    if e.note:
        d["note"] = e.note
    return d


_ENTRY_FIELDS: Final = ("counts", "cards", "points", "shooters", "moon", "suit", "declarer", "bid", "revokes", "note")
_PAD_FIELDS: Final = ("format", "version", "rules", "names", "revoke_penalty", "hands")


def entry_from_json(data: object, hand: int = 1) -> Entry:
    """Read one entry strictly: unknown fields and wrong types are refused with the hand number."""
    if not isinstance(data, dict):
        raise PadError(N_("hand {hand} must be an object"), hand=hand)
    unknown = sorted(str(k) for k in data if k not in _ENTRY_FIELDS)
    if unknown:
        raise PadError(
            N_("hand {hand}: unknown field(s) {fields}; fields: {allowed}"),
            hand=hand,
            fields=", ".join(unknown),
            allowed=", ".join(_ENTRY_FIELDS),
        )

    def int_list(key: str) -> tuple[int, ...] | None:
        v = data.get(key)
        if v is None:
            return None
        if not isinstance(v, list) or len(v) > 64 or any(isinstance(x, bool) or not isinstance(x, int) for x in v):
            raise PadError(N_("hand {hand}: {field} must be a list of whole numbers"), hand=hand, field=key)
        return tuple(v)

    cards_raw = data.get("cards", {})
    if not isinstance(cards_raw, dict) or len(cards_raw) > 104:
        raise PadError(N_("hand {hand}: cards must be an object such as {example}"), hand=hand, example='{"QS": [2]}')
    cards: list[tuple[int, tuple[int, ...]]] = []
    for name, seats in cards_raw.items():
        try:
            card = parse_card(name)
        except CardError:
            raise PadError(N_("hand {hand}: {text} is not a card"), hand=hand, text=repr(name)) from None
        if (
            not isinstance(seats, list)
            or len(seats) > 2
            or any(isinstance(x, bool) or not isinstance(x, int) for x in seats)
        ):
            raise PadError(N_("hand {hand}: who took {card} must be a list of seats"), hand=hand, card=glyph(card))
        cards.append((card, tuple(seats)))
    suit = data.get("suit", "H")
    if not isinstance(suit, str) or suit not in SUIT_LETTERS or len(suit) != 1:
        raise PadError(N_("hand {hand}: suit must be one of C, D, S, H"), hand=hand)
    declarer = data.get("declarer")
    if declarer is not None and (isinstance(declarer, bool) or not isinstance(declarer, int)):
        raise PadError(N_("hand {hand}: declarer must be a seat number or null"), hand=hand)
    bid = data.get("bid", 0)
    if isinstance(bid, bool) or not isinstance(bid, int):
        raise PadError(N_("hand {hand}: bid must be a whole number"), hand=hand)
    moon = data.get("moon")
    if moon is not None and moon not in MOON_CHOICES:
        raise PadError(N_("hand {hand}: moon must be subtract_from_self or add_to_others"), hand=hand)
    revokes_raw = data.get("revokes", [])
    if not isinstance(revokes_raw, list) or len(revokes_raw) > 16:
        raise PadError(N_("hand {hand}: revokes must be a list"), hand=hand)
    revokes = []
    for rv in revokes_raw:
        ok = isinstance(rv, dict) and set(rv) <= {"seat", "to_avoid_all"} and "seat" in rv
        if ok:
            seat, avoid = rv["seat"], rv.get("to_avoid_all", False)
            ok = isinstance(seat, int) and not isinstance(seat, bool) and isinstance(avoid, bool)
        if not ok:
            raise PadError(
                N_("hand {hand}: a revoke is written as {example}"),
                hand=hand,
                example='{"seat": 1, "to_avoid_all": false}',
            )
        revokes.append(Revoke(rv["seat"], rv.get("to_avoid_all", False)))
    note = data.get("note", "")
    if not isinstance(note, str):
        raise PadError(N_("hand {hand}: note must be text"), hand=hand)
    counts = int_list("counts")
    if counts is None and cards_raw:
        raise PadError(N_("hand {hand}: cards go with counts"), hand=hand)
    return Entry(
        counts=counts,
        cards=tuple(sorted(cards)),
        points=int_list("points"),
        shooters=int_list("shooters") or (),
        moon=moon,
        suit=SUIT_LETTERS.index(suit),
        declarer=declarer,
        bid=bid,
        revokes=tuple(revokes),
        note=note,
    )


def loads(text: str | bytes) -> Pad:
    """Read a saved pad strictly and replay its hands; :class:`PadError` says what is wrong and where."""
    if isinstance(text, bytes):
        if len(text) > MAX_TEXT:
            raise PadError(N_("the file is larger than {limit} bytes; it is not a score pad"), limit=MAX_TEXT)
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise PadError(N_("the file is not UTF-8 text")) from None
    if len(text) > MAX_TEXT:
        raise PadError(N_("the file is larger than {limit} bytes; it is not a score pad"), limit=MAX_TEXT)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise PadError(
            N_("not JSON: {error} at line {line} column {column}"), error=e.msg, line=e.lineno, column=e.colno
        ) from None
    except RecursionError:
        raise PadError(N_("not a score pad: nested too deeply")) from None
    return from_json(data)


def from_json(data: object) -> Pad:
    """Build a pad from :meth:`Pad.to_json` output, checking every field and every hand."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise PadError(N_("not a Corazones score pad (format must be {format})"), format=FORMAT)
    if data.get("version") != VERSION:
        raise PadError(
            N_("score pad version {version} is not supported; supported: {supported}"),
            version=repr(data.get("version")),
            supported=VERSION,
        )
    unknown = sorted(str(k) for k in data if k not in _PAD_FIELDS)
    if unknown:
        raise PadError(
            N_("unknown field(s) {fields}; fields: {allowed}"),
            fields=", ".join(unknown),
            allowed=", ".join(_PAD_FIELDS),
        )
    for key in ("rules", "names", "hands"):
        if key not in data:
            raise PadError(N_("the score pad has no {field}"), field=key)
    try:
        rules = Rules.from_dict(data["rules"])
    except RulesError as e:
        raise PadError(N_("rules: {error}"), error=str(e)) from None
    if not isinstance(data["hands"], list):
        raise PadError(N_("hands must be a list"))
    if len(data["hands"]) > MAX_HANDS:
        raise PadError(N_("a pad holds at most {limit} hands"), limit=MAX_HANDS)
    if not isinstance(data["names"], list):
        raise PadError(N_("names must be a list of the players' names"))
    penalty = data.get("revoke_penalty", DEFAULT_REVOKE_PENALTY)
    pad = Pad(rules, tuple(data["names"]), penalty)
    for i, raw in enumerate(data["hands"]):
        entry = entry_from_json(raw, i + 1)
        try:
            pad.add(entry)
        except PadError as e:
            raise PadError(N_("hand {hand}: {reason}"), hand=i + 1, reason=e) from None
    return pad
