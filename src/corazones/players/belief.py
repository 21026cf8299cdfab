"""Sampling the hidden cards: deals consistent with everything one seat has seen.

Search over hidden information needs whole deals to play out.  :class:`Belief`
turns an :class:`~corazones.core.observation.Observation` into a set of
constraints and draws deals that satisfy all of them:

* every hidden copy of a card (``knowledge.deduce``: not in our hand, not
  played) goes to exactly one other seat or to the face-down kitty, and the
  two copies of a card in two-deck games are counted apart;
* each seat gets exactly the number of cards it holds, the kitty its size;
* cards we passed and the receiver has not played yet stay with the receiver;
* a seat never gets a suit it showed out of, nor a card it cannot hold
  (forced discards in Chasse-Cœur, hearts led before they were broken, a
  penalty card thrown on the first trick, the declarer's first lead);
* clubs below the first card led (the lowest club held leads) can only lie in
  the kitty, and with two decks no seat before the leader held the other copy;
* optionally, a prior from the pass (``prior``, see
  :mod:`~corazones.players.pass_prior`) weighs which seat gets each card;
* likely, not certain (``infer=True``): a seat that threw another card on an
  opponent's trick while out of the suit led does not hold the Q♠ (or any card
  worth as much); these inferences are dropped when they contradict the facts.

Drawing deals one card at a time at random can paint itself into a corner
(the last card fits nobody with room left).  The sampler therefore deals the
most constrained cards first, each to a seat with room, chosen with
probability proportional to the room left, and when a card fits nowhere it
moves already dealt cards along an augmenting path (bipartite matching), which
always exists when the constraints describe a real deal.  Should the
constraints ever contradict each other, the card goes to any place with room,
so sampling never fails.

Everything is computed from the observation alone: the sampler cannot see the
real hands, by construction.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from corazones.core.actions import Kind
from corazones.core.cards import CLUBS, SUIT_MASK
from corazones.core.observation import Observation
from corazones.players.knowledge import Knowledge, deduce

_SUIT_OF = tuple(c // 13 for c in range(52))
_FULL = (1 << 52) - 1


@dataclass(slots=True)
class World:
    """One sampled deal: every seat's current hand (ours included) and the kitty."""

    hands: list[list[int]]
    kitty: list[int]


class Belief:
    """Constraints on the hidden cards of ``obs`` and a sampler of consistent deals.

    ``holders`` are the other seats in seat order and then, if there is a
    face-down kitty, the kitty (index ``len(holders) - 1``, seat value -1).
    ``allowed[c]`` is a bit set of holder indices that may hold card ``c``.
    """

    __slots__ = (
        "allowed",
        "cap",
        "constrained",
        "fallbacks",
        "fixed",
        "free",
        "holders",
        "inferred",
        "items",
        "know",
        "my_hand",
        "obs",
        "pre_pass",
        "weights",
    )

    def __init__(self, obs: Observation, infer: bool = True, prior: list[list[float]] | None = None) -> None:
        """Constraints of ``obs``; ``infer`` adds what sensible play reveals (see :meth:`_inferred`).

        ``prior[card][seat]`` (:func:`~corazones.players.pass_prior.pass_prior`)
        weighs where each hidden card is dealt: in proportion to the room a
        seat has times its share, within the constraints.  ``None`` deals
        evenly.
        """
        self.obs = obs
        r = obs.rules
        n = r.players
        me = obs.seat
        self.pre_pass = obs.decision is Kind.PASS or obs.phase in ("bid", "declare", "pass")
        # before the pass, deals are sampled as dealt: cards we already passed are still ours
        self.my_hand = list(obs.hand) + (list(obs.passed or ()) if self.pre_pass else [])
        know = deduce(obs)
        self.know = know
        holders = [s for s in range(n) if s != me]
        kitty_size = obs.kitty_size if obs.kitty_size and obs.phase not in ("done", "game_over") else 0
        if kitty_size:
            holders.append(-1)
        self.holders = holders
        sizes = []
        for s in holders:
            if s < 0:
                sizes.append(kitty_size)
            elif self.pre_pass:
                sizes.append(r.hand_size)
            else:
                sizes.append(obs.hand_sizes[s])
        # hidden copies of each card
        remaining = know.remaining[:] if not self.pre_pass else self._pre_pass_remaining(obs, self.my_hand)
        fixed: list[list[int]] = [[] for _ in holders]
        if not self.pre_pass:
            for i, s in enumerate(holders):
                if s < 0:
                    continue
                for c in know.known[s]:
                    if remaining[c] > 0:
                        remaining[c] -= 1
                        fixed[i].append(c)
        self.fixed = fixed
        self.cap = [max(0, sizes[i] - len(fixed[i])) for i in range(len(holders))]
        lacks = self._lacks(obs, know) if not self.pre_pass else [0] * n
        self.items = [c for c in range(52) for _ in range(remaining[c])]
        self.weights: list[list[float]] | None = None
        if prior is not None and not self.pre_pass:
            self.weights = [[prior[c][s] if s >= 0 else 1.0 for s in holders] for c in range(52)]
        self.fallbacks = 0
        self.inferred = False
        if infer and not self.pre_pass:
            soft = self._inferred(obs, know)
            if any(soft):
                self._set_allowed(self._allowed([lacks[s] | soft[s] for s in range(n)]))
                self.sample(random.Random(0))
                self.inferred = self.fallbacks == 0
                self.fallbacks = 0
        if not self.inferred:
            self._set_allowed(self._allowed(lacks))

    def _set_allowed(self, allowed: list[int]) -> None:
        """Adopt ``allowed`` and group the hidden cards for :meth:`sample`.

        Cards with the fewest possible holders are dealt first (in random order
        within a group), so they find room; cards every holder may take come last.
        """
        self.allowed = allowed
        everyone = (1 << len(self.holders)) - 1
        by_count: dict[int, list[int]] = {}
        free: list[int] = []
        for c in self.items:
            bits = allowed[c]
            if bits == everyone:
                free.append(c)
            else:
                by_count.setdefault(bits.bit_count(), []).append(c)
        self.constrained = [by_count[n] for n in sorted(by_count)]
        self.free = free

    def _allowed(self, lacks: list[int]) -> list[int]:
        allowed = [0] * 52
        for c in set(self.items):
            bits = 0
            for i, s in enumerate(self.holders):
                if s < 0 or not lacks[s] >> c & 1:  # the kitty never shows out of a suit
                    bits |= 1 << i
            allowed[c] = bits
        return allowed

    @staticmethod
    def _inferred(obs: Observation, know: Knowledge) -> list[int]:
        """Big penalty cards a seat almost surely lacks, judging by how it discarded.

        A seat out of the suit led that threw some other card on a trick an
        opponent took would have thrown the Q♠ (any card worth as much) had it
        held it: every sensible player does.  Such facts are only likely, so
        they are dropped when they contradict the certain ones.
        """
        r = obs.rules
        vals = obs.card_values
        big = [c for c in range(52) if vals[c] >= 5]
        if not big:
            return [0] * r.players
        gone = 0
        soft = [0] * r.players
        tricks = [(t.plays, t.winner) for t in obs.tricks]
        for ti, (plays, winner) in enumerate(tricks):
            led = _SUIT_OF[plays[0][1]]
            first = ti == 0 and r.no_points_first_trick
            for s, c in plays:
                if (
                    not first
                    and _SUIT_OF[c] != led
                    and vals[c] < 5
                    and winner is not None
                    and r.team_of(winner) != r.team_of(s)
                    and not r.discard_order
                ):
                    for b in big:
                        if not gone >> b & 1:
                            soft[s] |= 1 << b
            for _, c in plays:
                gone |= 1 << c
        return soft

    # ----------------------------------------------------------- constraints
    @staticmethod
    def _pre_pass_remaining(obs: Observation, hand: list[int]) -> list[int]:
        remaining = [0] * 52
        for c in obs.rules.deck:
            remaining[c] += 1
        for c in hand:
            remaining[c] -= 1
        return remaining

    @staticmethod
    def _first_lead(obs: Observation) -> int | None:
        """The first card led in this hand, if the lowest club had to lead it."""
        r = obs.rules
        if r.auction or r.first_lead != "lowest_club":
            return None
        if obs.tricks:
            return obs.tricks[0].plays[0][1]
        if obs.trick:
            return obs.trick[0][1]
        if obs.decision is Kind.PLAY and obs.turn == obs.seat and len(obs.legal) == 1:
            c = obs.legal[0].cards[0]
            if _SUIT_OF[c] == CLUBS:
                return c
        return None

    def _lacks(self, obs: Observation, know: Knowledge) -> list[int]:
        """Cards each seat cannot hold: ``deduce`` plus first-trick and first-lead facts."""
        r = obs.rules
        n = r.players
        lacks = [know.lacks[s] | _suits(know.voids[s]) for s in range(n)]
        first = self._first_lead(obs)
        if first is not None:
            if _SUIT_OF[first] == CLUBS:
                low_clubs = SUIT_MASK[CLUBS] & ((1 << first) - 1)
                # the first seat from the eldest hand holding the lowest club leads, so the
                # seats before the leader did not hold the other copy either (two decks)
                leader = obs.tricks[0].plays[0][0] if obs.tricks else obs.trick[0][0] if obs.trick else obs.seat
                s = (obs.dealer + 1) % n
                while s != leader:
                    lacks[s] |= low_clubs | 1 << first
                    s = (s + 1) % n
            else:
                low_clubs = SUIT_MASK[CLUBS]  # nobody held a club: they all lie in the kitty
            for s in range(n):
                lacks[s] |= low_clubs
        plays: tuple[tuple[int, int], ...] = ()
        if obs.tricks:
            plays = obs.tricks[0].plays
        elif obs.trick and not obs.tricks:
            plays = obs.trick
        if plays:
            vals = obs.card_values
            pen = sum(1 << c for c in range(52) if vals[c] > 0)
            led_seat, led = plays[0]
            if r.no_points_first_trick and not r.discard_order:
                for s, c in plays[1:]:
                    if _SUIT_OF[c] != _SUIT_OF[led] and vals[c] > 0:
                        lacks[s] |= _FULL & ~pen  # only penalty cards were left to throw
            if r.auction and obs.declarer == led_seat and _SUIT_OF[led] == obs.penalty_suit:
                lacks[led_seat] |= _FULL & ~SUIT_MASK[obs.penalty_suit]
        return lacks

    # -------------------------------------------------------------- sampling
    def sample(self, rng: random.Random) -> World:
        """One deal consistent with the observation (never fails).

        Cards any holder may take are dealt last, by shuffling them and filling
        the room left in holder order: that is the same distribution as dealing
        them one by one in proportion to the room left, at a fraction of the cost.
        With a prior they are dealt one by one, in proportion to room times share.
        """
        holders = self.holders
        k = len(holders)
        cap = self.cap[:]
        rand = rng.random
        got: list[list[int]] = [f[:] for f in self.fixed]
        for group in self.constrained:
            items = group[:]
            _shuffle(items, rand)
            for c in items:
                self._place(c, got, cap, rand)
        free = self.free[:]
        _shuffle(free, rand)
        if self.weights is not None:
            for c in free:
                self._place(c, got, cap, rand)
        else:
            at = 0
            for i in range(k):
                if cap[i]:
                    got[i].extend(free[at : at + cap[i]])
                    at += cap[i]
                    cap[i] = 0
        obs = self.obs
        hands: list[list[int]] = [[] for _ in range(obs.rules.players)]
        hands[obs.seat] = list(self.my_hand)
        kitty: list[int] = []
        for i, s in enumerate(holders):
            if s < 0:
                kitty = got[i]
            else:
                hands[s] = got[i]
        return World(hands, kitty)

    def _place(self, c: int, got: list[list[int]], cap: list[int], rand: Callable[[], float]) -> None:
        """Deal card ``c`` to a holder allowed it, in proportion to its room (times its prior weight, if any)."""
        bits = self.allowed[c]
        k = len(cap)
        weights = self.weights
        row = weights[c] if weights is not None else None
        total = 0.0
        for i in range(k):
            if bits >> i & 1:
                total += cap[i] * row[i] if row is not None else cap[i]
        if total > 0:
            x = rand() * total
            last = -1
            for i in range(k):
                if bits >> i & 1 and cap[i]:
                    last = i
                    x -= cap[i] * row[i] if row is not None else cap[i]
                    if x < 0:
                        break
            got[last].append(c)
            cap[last] -= 1
            return
        if not self._augment(c, got, cap):
            # contradictory constraints (cannot happen in a real game): any room will do
            self.fallbacks += 1
            for i in range(k):
                if cap[i]:
                    got[i].append(c)
                    cap[i] -= 1
                    break

    def tilt(self, w: World, seat: int) -> World:
        """``w`` with ``seat`` holding the highest hidden cards of each suit it holds (in place; returned).

        A seat suspected of shooting the moon has the cards to do it.  On an
        even deal, its playouts' moons fail to the first high card another
        seat happens to hold, so the search sees no worth in keeping a
        stopper and throws it (a king of the shooter's long suit, the last
        high heart).  Each hidden card of ``seat``, lowest first, is swapped
        for the highest card of the same suit another holder may give it:
        suit lengths stay as sampled and every constraint still holds.
        """
        if seat not in self.holders:
            return w
        i = self.holders.index(seat)
        allowed = self.allowed
        lists = [w.kitty if s < 0 else w.hands[s] for s in self.holders]
        fixed = [len(f) for f in self.fixed]
        mine = lists[i]
        for a in sorted(range(fixed[i], len(mine)), key=lambda k: mine[k]):
            x = mine[a]
            suit = _SUIT_OF[x]
            best_j, best_b, best_y = -1, -1, x
            for j, other in enumerate(lists):
                if j == i or not allowed[x] >> j & 1:
                    continue
                for b in range(fixed[j], len(other)):
                    y = other[b]
                    if y > best_y and _SUIT_OF[y] == suit and allowed[y] >> i & 1:
                        best_j, best_b, best_y = j, b, y
            if best_j >= 0:
                mine[a], lists[best_j][best_b] = best_y, x
        return w

    def _augment(self, card: int, got: list[list[int]], cap: list[int]) -> bool:
        """Place ``card`` by moving dealt cards along a shortest augmenting path."""
        allowed = self.allowed
        fixed_len = [len(f) for f in self.fixed]
        k = len(got)
        parent: dict[int, tuple[int, int]] = {}  # holder -> (previous holder, index of moved card there)
        start = [i for i in range(k) if allowed[card] >> i & 1]
        queue = list(start)
        seen = set(start)
        for i in start:
            parent[i] = (-1, -1)
        qi = 0
        while qi < len(queue):
            h = queue[qi]
            qi += 1
            for j in range(fixed_len[h], len(got[h])):
                y = got[h][j]
                bits = allowed[y]
                for h2 in range(k):
                    if h2 in seen or not bits >> h2 & 1:
                        continue
                    seen.add(h2)
                    parent[h2] = (h, j)
                    if cap[h2] > 0:
                        # shift cards back along the path, then place ``card`` at its start
                        cur = h2
                        cap[h2] -= 1
                        while True:
                            prev, idx = parent[cur]
                            if prev < 0:
                                got[cur].append(card)
                                return True
                            moved = got[prev][idx]
                            got[prev][idx] = got[prev][-1]
                            got[prev].pop()
                            got[cur].append(moved)
                            cur = prev
                    queue.append(h2)
        return False

    # ---------------------------------------------------------------- checks
    def consistent(self, hands: list[list[int]], kitty: list[int]) -> list[str]:
        """Reasons why ``hands``/``kitty`` break the constraints (empty if they fit).

        Used by the tests to check both sampled deals and the real one.
        """
        problems = []
        obs = self.obs
        want = [0] * 52
        for c in self.items:
            want[c] += 1
        for f in self.fixed:
            for c in f:
                want[c] += 1
        have = [0] * 52
        for i, s in enumerate(self.holders):
            cards = kitty if s < 0 else hands[s]
            size = self.cap[i] + len(self.fixed[i])
            if len(cards) != size:
                problems.append(f"holder {s} has {len(cards)} cards, needs {size}")
            rest = list(cards)
            for c in self.fixed[i]:
                if c in rest:
                    rest.remove(c)
                else:
                    problems.append(f"seat {s} lacks known card {c}")
            for c in rest:
                if not self.allowed[c] >> i & 1:
                    problems.append(f"holder {s} may not hold card {c}")
            for c in cards:
                have[c] += 1
        if have != want:
            problems.append("hidden cards are not exactly the unseen cards")
        if sorted(hands[obs.seat]) != sorted(self.my_hand):
            problems.append("our own hand changed")
        return problems


def _shuffle(items: list[int], rand: Callable[[], float]) -> None:
    """Fisher-Yates with ``rand()`` draws (``random.shuffle`` spends more per draw)."""
    for i in range(len(items) - 1, 0, -1):
        j = int(rand() * (i + 1))
        items[i], items[j] = items[j], items[i]


def _suits(void_bits: int) -> int:
    m = 0
    for s in range(4):
        if void_bits >> s & 1:
            m |= SUIT_MASK[s]
    return m
