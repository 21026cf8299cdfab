"""Reusable pieces of heuristic card play, computed from an observation alone.

The heuristic players (``standard`` and the levels built on it) do not search;
they estimate, card by card, what playing it costs now and what keeping it
would cost later.  Everything here is a function of a :class:`View`, which is
built once per decision from an :class:`~corazones.core.observation.Observation`
and caches the probabilities it computes.

The estimates are deliberately simple so a decision takes well under a
millisecond:

* where an unseen card is: every copy not known to be anywhere (we passed it)
  is spread over the seats that may still hold it and the face-down kitty, in
  proportion to the free places in each hand (:meth:`View.hold`);
* whether a later seat beats a card: it holds a higher card of the suit and has
  nothing lower to duck with, or takes a clean trick on purpose;
* what a void seat throws on a trick: the expected largest penalty it holds,
  in the order the rules force discards (Chasse-Cœur);
* the danger of keeping a card (:func:`future_risk`): the chance it wins a
  trick later times the points such a trick carries, plus the card's own
  penalty and the big penalty cards of its suit it may catch.

Every penalty comes from ``obs.card_values``, so the same code plays the
Black Maria spades, the Omnibus J♦ bonus, spot values, an auction's penalty
suit, Four Jacks and Chasse-Cœur's queens.
"""

from __future__ import annotations

from collections.abc import Sequence

from corazones.core.cards import SUIT_MASK
from corazones.core.native import is_compiled_file, warn_if_stale
from corazones.core.observation import Observation
from corazones.core.rules import discard_group_mask
from corazones.core.trick import trick_winner
from corazones.players.knowledge import Knowledge, deduce

SUIT_OF: tuple[int, ...] = tuple(c // 13 for c in range(52))
RANK_OF: tuple[int, ...] = tuple(c % 13 for c in range(52))

#: A penalty card at least this costly is handled like the Q♠: guarded, flushed out, never fed into.
BIG_PENALTY = 5


def positive_taken(obs: Observation) -> list[int]:
    """Positive penalty points each seat has won in tricks this hand (bonus cards left out).

    ``obs.points_taken`` nets the Omnibus J♦ against penalties; the moon needs
    every *positive* card, so it is counted here from the tricks.  Cards of
    annulled tricks count for the winner of the trick that carried them.
    """
    vals = obs.card_values
    out = [0] * obs.rules.players
    carry = 0
    for t in obs.tricks:
        pts = carry + sum(vals[c] for _, c in t.plays if vals[c] > 0)
        if t.winner is None:
            carry = pts
            continue
        carry = 0
        out[t.winner] += pts
    return out


def pending_cards(obs: Observation) -> list[int]:
    """Cards of annulled tricks (two decks) waiting for the winner of the next trick."""
    out: list[int] = []
    for t in obs.tricks:
        if t.winner is None:
            out.extend(c for _, c in t.plays)
        else:
            out = []
    return out


def expected_max(items: Sequence[tuple[int, float]]) -> float:
    """Expected largest value among independent cards held with the given probabilities.

    ``items`` are (value, probability) pairs sorted by value, largest first.
    """
    e = 0.0
    none = 1.0
    for v, q in items:
        if q <= 0.0:
            continue
        e += v * q * none
        none *= 1.0 - q
        if none < 1e-6:
            break
    return e


class View:
    """One seat's picture of the hand at a decision, with cached estimates.

    Built once per decision; every method answers from the observation and
    the deductions of :func:`~corazones.players.knowledge.deduce`.
    """

    __slots__ = (
        "_dump",
        "_kitty",
        "_pos",
        "_rows",
        "_void",
        "after",
        "hand_cnt",
        "kitty_owner",
        "kitty_slots",
        "kn",
        "known_cnt",
        "led",
        "me",
        "n",
        "obs",
        "pending",
        "pos_total",
        "rules",
        "slots",
        "suits",
        "team",
        "trick",
        "trick_cards",
        "trick_no",
        "two",
        "unknown",
        "vals",
        "weight",
    )

    def __init__(self, obs: Observation, kn: Knowledge | None = None) -> None:
        r = obs.rules
        self.obs = obs
        self.rules = r
        n = self.n = r.players
        me = self.me = obs.seat
        self.vals = vals = obs.card_values
        self.two = r.decks == 2
        self.kn = kn = kn if kn is not None else deduce(obs)
        hc = [0] * 52
        suits: list[list[int]] = [[], [], [], []]
        for c in sorted(obs.hand):
            hc[c] += 1
            suits[SUIT_OF[c]].append(c)
        self.hand_cnt = hc
        self.suits = suits
        self.team = [s for s in range(n) if s != me and r.team_of(s) == r.team_of(me)]
        # cards we know a seat holds (we passed them); the other copies are spread out
        known_cnt: list[dict[int, int]] = [{} for _ in range(n)]
        unknown = list(kn.remaining)
        for s in range(n):
            for c in kn.known[s]:
                known_cnt[s][c] = known_cnt[s].get(c, 0) + 1
                unknown[c] -= 1
        self.known_cnt = known_cnt
        self.unknown = unknown
        self.slots = [
            0.0 if s == me else float(max(0, obs.hand_sizes[s] - sum(known_cnt[s].values()))) for s in range(n)
        ]
        self.kitty_slots = float(obs.kitty_size)
        self.kitty_owner = obs.kitty_owner
        # free places that may hold each card: per suit, less the seats that lack single cards
        voids = kn.voids
        lacks = kn.lacks
        slots = self.slots
        suit_w = [self.kitty_slots] * 4
        extra: list[tuple[int, float]] = []
        for s in range(n):
            if s == me or not slots[s]:
                continue
            vmask = 0
            for suit in range(4):
                if voids[s] >> suit & 1:
                    vmask |= SUIT_MASK[suit]
                else:
                    suit_w[suit] += slots[s]
            odd = lacks[s] & ~vmask
            if odd:
                extra.append((odd, slots[s]))
        weight = [suit_w[c // 13] if unknown[c] > 0 else 0.0 for c in range(52)]
        for odd, w in extra:
            for c in range(52):
                if odd >> c & 1 and unknown[c] > 0:
                    weight[c] -= w
        self.weight = weight
        self.trick = obs.trick
        self.trick_cards = [c for _, c in obs.trick]
        self.led = SUIT_OF[obs.trick[0][1]] if obs.trick else -1
        self.after = [(me + i) % n for i in range(1, n - len(obs.trick))]
        self.pending = pending_cards(obs)
        self.trick_no = len(obs.tricks)
        self.pos_total = sum(vals[c] for c in r.deck if vals[c] > 0)
        self._rows: dict[int, list[float]] = {}
        self._dump: dict[int, float] = {}
        self._void: dict[tuple[int, int], float] = {}
        self._pos: list[int] | None = None
        self._kitty: float | None = None

    def positive(self) -> list[int]:
        """Positive penalty points each seat has taken so far (:func:`positive_taken`, cached)."""
        if self._pos is None:
            self._pos = positive_taken(self.obs)
        return self._pos

    # -------------------------------------------------------------- where cards are
    def hold_row(self, seat: int) -> list[float]:
        """``row[c]``: probability that ``seat`` holds at least one copy of card ``c``."""
        row = self._rows.get(seat)
        if row is not None:
            return row
        row = [0.0] * 52
        if seat != self.me:
            known = self.known_cnt[seat]
            free = self.slots[seat]
            voids = self.kn.voids[seat]
            lacks = self.kn.lacks[seat]
            unknown = self.unknown
            weight = self.weight
            for c in range(52):
                if c in known:
                    row[c] = 1.0
                    continue
                u = unknown[c]
                if u <= 0 or free <= 0.0 or voids >> SUIT_OF[c] & 1 or lacks >> c & 1:
                    continue
                w = weight[c]
                if w <= 0.0:
                    continue
                f = free / w
                row[c] = f if u == 1 else 1.0 - (1.0 - f) ** u
        self._rows[seat] = row
        return row

    def hold(self, seat: int, card: int) -> float:
        return self.hold_row(seat)[card]

    def p_void(self, seat: int, suit: int) -> float:
        """Probability that ``seat`` holds no card of ``suit``."""
        key = (seat, suit)
        got = self._void.get(key)
        if got is not None:
            return got
        if self.kn.void(seat, suit):
            p = 1.0
        else:
            row = self.hold_row(seat)
            p = 1.0
            base = suit * 13
            for c in range(base, base + 13):
                q = row[c]
                if q:
                    p *= 1.0 - q
        self._void[key] = p
        return p

    def unseen(self, card: int) -> int:
        """Copies of ``card`` neither in our hand nor played."""
        return self.kn.remaining[card]

    def is_partner(self, seat: int) -> bool:
        return seat in self.team

    # ---------------------------------------------------------- what others throw
    def dump_value(self, seat: int) -> float:
        """Expected penalty ``seat`` throws on a trick when it cannot follow suit.

        Partners throw nothing on us; on the first trick nothing may be thrown
        where ``no_points_first_trick`` holds; the forced discard order of
        the rules is respected.
        """
        got = self._dump.get(seat)
        if got is not None:
            return got
        if self.is_partner(seat) or (self.trick_no == 0 and self.rules.no_points_first_trick):
            self._dump[seat] = 0.0
            return 0.0
        row = self.hold_row(seat)
        vals = self.vals
        e = 0.0
        none = 1.0
        used = 0
        for tok in self.rules.discard_order:
            g = discard_group_mask(tok) & ~used
            used |= g
            items = []
            miss = 1.0
            for c in range(52):
                if g >> c & 1 and row[c]:
                    miss *= 1.0 - row[c]
                    if vals[c] > 0:
                        items.append((vals[c], row[c]))
            items.sort(reverse=True)
            e += none * expected_max(items)
            none *= miss
        items = [(vals[c], row[c]) for c in range(52) if vals[c] > 0 and row[c] and not used >> c & 1]
        items.sort(reverse=True)
        e += none * expected_max(items)
        self._dump[seat] = e
        return e

    def follow_value(self, seat: int, card: int) -> float:
        """Expected penalty ``seat`` adds when it follows suit under our winning ``card``.

        A seat that must lose the trick sheds its costliest card of the suit
        below ours (the Q♠ under an A♠); a bonus card such as the Omnibus J♦
        only falls when it is forced, so it counts for a fraction.
        """
        if self.is_partner(seat):
            return 0.0
        row = self.hold_row(seat)
        vals = self.vals
        suit = SUIT_OF[card]
        items = []
        neg = 0.0
        for c in range(suit * 13, card):
            q = row[c]
            if not q:
                continue
            v = vals[c]
            if v > 0:
                items.append((v, q))
            elif v < 0:
                neg += v * q * 0.3
        items.sort(reverse=True)
        return expected_max(items) + neg

    def p_beat(self, seat: int, card: int, clean: bool, volunteer: float) -> float:
        """Probability that ``seat`` (playing after us) beats our ``card`` of the led suit.

        It beats when it holds a higher card and has nothing lower, or, on a
        trick without points, chooses to take it (``volunteer``).
        """
        row = self.hold_row(seat)
        suit = SUIT_OF[card]
        top = suit * 13 + 13
        miss = 1.0
        for c in range(card + 1, top):
            q = row[c]
            if q:
                miss *= 1.0 - q
        if self.two and row[card]:
            miss *= 1.0 - 0.5 * row[card]  # its twin cancels ours
        p_high = 1.0 - miss
        if p_high <= 0.0:
            return 0.0
        low_miss = 1.0
        for c in range(suit * 13, card):
            q = row[c]
            if q:
                low_miss *= 1.0 - q
        vol = 0.0 if not clean or self.is_partner(seat) else volunteer
        return p_high * (low_miss + (1.0 - low_miss) * vol)

    def kitty_value(self) -> float:
        """Expected points of the face-down kitty (0 once someone has it)."""
        if self._kitty is None:
            self._kitty = 0.0
            if self.obs.kitty_size and self.kitty_owner is None:
                rem = self.kn.remaining
                vals = self.vals
                count = sum(rem)
                total = sum(vals[c] * rem[c] for c in range(52) if rem[c])
                self._kitty = self.obs.kitty_size * total / count if count else 0.0
        return self._kitty

    # ------------------------------------------------------------------ this trick
    def current_winner(self) -> int | None:
        """Seat winning the trick so far (None before the lead or while annulled)."""
        if not self.trick:
            return None
        i = trick_winner(self.trick_cards, self.two, self.rules.cancel_whole_trick)
        return None if i is None else self.trick[i][0]

    def trick_points(self) -> int:
        """Points already in the trick, with any annulled cards it carries."""
        vals = self.vals
        return sum(vals[c] for c in self.trick_cards) + sum(vals[c] for c in self.pending)

    def wins_now(self, card: int) -> bool:
        """Whether ``card`` would be winning the trick once played (before later seats)."""
        if not self.trick:
            return True
        if SUIT_OF[card] != self.led:
            return False
        i = trick_winner([*self.trick_cards, card], self.two, self.rules.cancel_whole_trick)
        return i == len(self.trick_cards)

    def p_win(self, card: int, volunteer: float) -> float:
        """Probability that playing ``card`` now wins this trick.

        A trick worth less than nothing (the Omnibus J♦ in it) is a gift:
        every later opponent with a higher card takes it, as we would, rather
        than ducking it as it may a clean trick.  Priced as a clean trick, the
        J♦ led into the A♦ or K♦ looked an even chance to keep and was lost
        nine times in ten.
        """
        if not self.wins_now(card):
            return 0.0
        vals = self.vals
        pts = self.trick_points() + vals[card]
        clean = pts < 0 or (self.trick_points() <= 0 and vals[card] <= 0)
        if pts < 0:
            volunteer = 1.0
        p = 1.0
        for s in self.after:
            p *= 1.0 - self.p_beat(s, card, clean, volunteer)
        return p

    def points_if_win(self, card: int) -> float:
        """Expected points we take if ``card`` wins the trick (what later seats add included)."""
        e = float(self.trick_points() + self.vals[card])
        suit = SUIT_OF[card]
        for s in self.after:
            pv = self.p_void(s, suit)
            add = pv * self.dump_value(s)
            if pv < 1.0:
                add += (1.0 - pv) * self.follow_value(s, card)
            e += add
        kv = self.kitty_value()
        if kv:
            if self.rules.kitty_to == "first_trick":
                e += kv
            else:
                e += kv * min(1.0, max(0.0, e) / 2.0)
        return e

    # ------------------------------------------------------------------- the hand
    def tricks_left(self) -> int:
        return max(1, len(self.obs.hand))

    def unseen_penalty(self) -> float:
        """Positive points still out of sight (other hands and the kitty)."""
        vals = self.vals
        return float(sum(vals[c] * self.kn.remaining[c] for c in range(52) if vals[c] > 0))

    def higher_lower(self, card: int) -> tuple[float, int]:
        """Unseen copies above ``card`` in its suit (a twin counts half) and below it."""
        suit = SUIT_OF[card]
        rem = self.kn.remaining
        hi = 0.0
        lo = 0
        for c in range(suit * 13, suit * 13 + 13):
            k = rem[c]
            if not k:
                continue
            if c > card:
                hi += k
            elif c < card:
                lo += k
            else:
                hi += 0.5 * k
        return hi, lo


def win_later(hi: float, lo: int) -> float:
    """Chance a card wins the trick it is eventually played to, from the unseen cards around it."""
    return float(0.5**hi) * (1.0 - 0.6**lo)


def future_risk(v: View, card: int, avg: float | None = None, catch: float = 0.5) -> float:
    """Expected points that keeping ``card`` in hand will cost later (negative: worth keeping).

    Made of three parts: the chance the card wins a later trick times the
    points a trick carries on average; the big penalty cards of its suit,
    below it and still out, that can be thrown under it (A♠ and K♠ with the
    Q♠ out); and the card's own penalty times the chance we end up taking it
    ourselves (a bonus card such as the Omnibus J♦ counts as a gain we keep).
    """
    vals = v.vals
    if avg is None:
        avg = (v.unseen_penalty() + sum(vals[c] for c in v.obs.hand if vals[c] > 0)) / v.tricks_left()
    hi, lo = v.higher_lower(card)
    pw = win_later(hi, lo)
    risk = pw * avg
    suit = SUIT_OF[card]
    mine = v.suits[suit]
    guards = sum(1 for c in mine if c < card)
    rem = v.kn.remaining
    for x in range(suit * 13, card):
        if rem[x] and vals[x] >= BIG_PENALTY:
            g = max(0.2, 1.0 - 0.22 * sum(1 for c in mine if c < x))
            risk += vals[x] * rem[x] * pw * catch * g
    val = vals[card]
    if val > 0:
        keep = 0.25 + 0.75 * pw
        if val >= BIG_PENALTY:
            keep = max(keep, 0.9 - 0.15 * guards) if hi >= 1 else 0.95
        risk += val * keep
    elif val < 0:
        risk += val * (0.3 + 0.6 * pw)
    return risk


def losers(v: View, hand_suits: Sequence[Sequence[int]] | None = None) -> tuple[int, int]:
    """Tricks our cards would lose if we led each suit from the top: (all suits, penalty-carrying suits).

    The other seats are assumed to follow with their lowest cards, which
    keeps their high cards in play: a pessimistic count, as a moon needs.
    """
    suits = v.suits if hand_suits is None else hand_suits
    rem = v.kn.remaining
    vals = v.vals
    total = 0
    pen = 0
    n = v.n
    for s in range(4):
        mine = sorted(suits[s], reverse=True)
        if not mine:
            continue
        others: list[int] = []
        for c in range(s * 13 + 12, s * 13 - 1, -1):
            others.extend([c] * rem[c])
        holders = sum(1 for p in range(n) if p != v.me and not v.kn.void(p, s))
        holders = max(1, min(holders, n - 1))
        lost = 0
        for m in mine:
            if not others:
                continue
            if m > others[0]:
                del others[-holders:]
            else:
                lost += 1
                del others[0]
                if holders > 1:
                    del others[-(holders - 1) :]
        total += lost
        if lost and any(vals[c] > 0 for c in range(s * 13, s * 13 + 13)):
            pen += lost
    return total, pen


if is_compiled_file(__file__):  # compiled build (setup.py): warn if this source changed since
    warn_if_stale(__name__)
