"""What a seat can deduce from its observation: unseen cards, voids, known holdings.

Shared by the heuristic players and by belief sampling, so every bot reasons
from the same facts.  Everything here is computed from an
:class:`~corazones.core.observation.Observation` alone.
"""

from __future__ import annotations

from dataclasses import dataclass

from corazones.core.cards import SUIT_MASK
from corazones.core.native import is_compiled_file, warn_if_stale
from corazones.core.observation import Observation
from corazones.core.rules import discard_group_mask

_SUIT_OF = tuple(c // 13 for c in range(52))


@dataclass(slots=True)
class Knowledge:
    """Facts about the hidden cards as seen from ``seat``.

    ``remaining[c]`` is how many copies of card ``c`` are neither in our hand
    nor played: they are in other hands or the kitty.  ``voids[s]`` is a bit
    set of suits seat ``s`` is known to lack; ``known[s]`` lists cards ``s``
    is known to hold (cards we passed to them and they have not played);
    ``lacks[s]`` is a card mask ``s`` cannot hold (deduced from forced
    discards).
    """

    seat: int
    players: int
    values: tuple[int, ...]
    hand_mask: int
    played_mask: int
    remaining: list[int]
    voids: list[int]
    known: list[list[int]]
    lacks: list[int]
    points_taken: list[int]
    hearts_broken: bool

    @property
    def unseen_mask(self) -> int:
        """Cards of which at least one copy is still hidden from us."""
        m = 0
        for c, k in enumerate(self.remaining):
            if k:
                m |= 1 << c
        return m

    def void(self, seat: int, suit: int) -> bool:
        return bool(self.voids[seat] >> suit & 1)

    def may_hold(self, seat: int, card: int) -> bool:
        """Whether ``seat`` could hold ``card`` given everything observed."""
        if seat == self.seat:
            return bool(self.hand_mask >> card & 1)
        if not self.remaining[card]:
            return False
        return not (self.voids[seat] >> _SUIT_OF[card] & 1) and not (self.lacks[seat] >> card & 1)


def deduce(obs: Observation) -> Knowledge:
    """Compute the :class:`Knowledge` of ``obs.seat``."""
    r = obs.rules
    n = r.players
    remaining = [0] * 52
    for c in r.deck:
        remaining[c] += 1
    hand_mask = 0
    for c in obs.hand:
        remaining[c] -= 1
        hand_mask |= 1 << c
    played = 0
    voids = [0] * n
    lacks = [0] * n
    penalty_suit_mask = SUIT_MASK[obs.penalty_suit]
    groups = [discard_group_mask(t) for t in r.discard_order]
    broken = False
    plays_seen: list[tuple[int, int]] = []
    tricks = [t.plays for t in obs.tricks]
    if obs.trick:
        tricks.append(obs.trick)
    for plays in tricks:
        led_seat, led = plays[0]
        led_suit = _SUIT_OF[led]
        if r.must_break_hearts and not broken and _SUIT_OF[led] == obs.penalty_suit:
            lacks[led_seat] |= ~penalty_suit_mask & ((1 << 52) - 1)
        for s, c in plays:
            remaining[c] -= 1
            played |= 1 << c
            plays_seen.append((s, c))
            if _SUIT_OF[c] != led_suit:
                voids[s] |= 1 << led_suit
                # forced discard order (Chasse-Cœur): skipping a group means lacking it
                for g in groups:
                    if g >> c & 1:
                        break
                    lacks[s] |= g
            if _SUIT_OF[c] == obs.penalty_suit or (c == 36 and r.queen_breaks_hearts):
                broken = True
    for s in range(n):
        # a seat void in a suit has none of it
        for suit in range(4):
            if voids[s] >> suit & 1:
                lacks[s] |= SUIT_MASK[suit]
        # a seat that lacks every card of a suit is void in it
        for suit in range(4):
            if lacks[s] & SUIT_MASK[suit] == SUIT_MASK[suit]:
                voids[s] |= 1 << suit
    known: list[list[int]] = [[] for _ in range(n)]
    if obs.passed and obs.pass_to is not None and obs.received is not None:
        played_by_them = [c for s, c in plays_seen if s == obs.pass_to]
        for c in obs.passed:
            if c in played_by_them:
                played_by_them.remove(c)
            else:
                known[obs.pass_to].append(c)
    return Knowledge(
        seat=obs.seat,
        players=n,
        values=obs.card_values,
        hand_mask=hand_mask,
        played_mask=played,
        remaining=remaining,
        voids=voids,
        known=known,
        lacks=lacks,
        points_taken=list(obs.points_taken),
        hearts_broken=obs.hearts_broken,
    )


if is_compiled_file(__file__):  # compiled build (setup.py): warn if this source changed since
    warn_if_stale(__name__)
