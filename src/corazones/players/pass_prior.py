"""What the pass tells about the others' hands: a prior on who holds each hidden card.

After the pass every other seat's hand is the cards it kept plus the cards
it was passed, and players pass their most dangerous cards (high spades,
high hearts, aces).  So the seat we passed to, whose pass went on to a
third seat, holds few high cards beyond ours; the seats whose passers we do
not see hold three dangerous cards each.  Sampling the hidden cards evenly
ignores this: over 600 deals of four ``standard`` players, left pass, the
seat we passed to held the A♠ on none of the deals where we did not, and the
Q♠ on 9%, where an even deal gives it about 28%.

:func:`pass_prior` measures it for one observation: it deals the cards we
cannot see as they might have been dealt before the pass (the seat that
passed to us holding what it gave us), has every other seat pass as the
``standard`` player would, and counts where each hidden card ends.
:class:`~corazones.players.belief.Belief` then deals each hidden card to a
seat in proportion to those counts (and the room the seat has), within
every certain constraint.  Only the observation is read; the simulation
depends on nothing else, so its answer is the same in every process.
``ExpertBot(pass_prior=True)`` uses it; it is off by default, since the
expert measured no stronger with it (``docs/bots.md``, "What the pass
tells").
"""

from __future__ import annotations

import dataclasses
import random

from corazones.core.actions import Kind
from corazones.core.observation import Observation
from corazones.players.belief import World
from corazones.players.search import their_passes

#: Simulated deals before the pass: enough for each card's shares to within a few hundredths.
SIMULATIONS = 256
#: Weight of a simulated deal for each card the seat that passed to us would have passed instead of one it did.
MISS = 0.05
#: Smallest share a seat keeps for a card it may hold: a prior never rules a card out, the constraints do.
FLOOR = 0.02

_cache: dict[tuple[object, ...], list[list[float]] | None] = {}


def pass_prior(obs: Observation, simulations: int = SIMULATIONS) -> list[list[float]] | None:
    """Per card, the share of simulated passes after which each seat holds it (``None``: nothing to tell).

    The answer is indexed ``prior[card][seat]`` (our own seat's share is 0).
    It is ``None`` when no cards were passed to us (a hand without a pass,
    or before the pass), with two decks or a kitty (cards we cannot place by
    passes alone), or when the deal does not add up as one of dealt hands.
    The hand's pass is the same at every card of the hand, so the answer is
    kept for the next decision.
    """
    r = obs.rules
    if (
        not obs.received
        or obs.received_from is None
        or not obs.passed
        or r.decks != 1
        or obs.kitty_size
        or r.pass_count <= 0
    ):
        return None
    me = obs.seat
    mine = set(obs.hand)
    for t in obs.tricks:
        mine.update(c for s, c in t.plays if s == me)
    mine.update(c for s, c in obs.trick if s == me)
    mine = (mine - set(obs.received)) | set(obs.passed)
    key = (r, me, obs.hand_index, obs.scores, tuple(sorted(mine)), obs.received, obs.passed, simulations)
    if key in _cache:
        return _cache[key]
    prior = _simulate(obs, sorted(mine), simulations)
    if len(_cache) > 64:
        _cache.clear()
    _cache[key] = prior
    return prior


def _simulate(obs: Observation, mine: list[int], simulations: int) -> list[list[float]] | None:
    r = obs.rules
    n = r.players
    me = obs.seat
    giver = obs.received_from
    assert giver is not None and obs.received is not None and obs.passed is not None
    off = r.pass_offset(obs.pass_direction)
    size = r.hand_size
    received = list(obs.received)
    known = set(mine) | set(received)
    hidden = [c for c in r.deck if c not in known]
    if len(mine) != size or len(hidden) != (n - 1) * size - len(received):
        return None
    # the observation the passers had: before any card was played, nothing passed yet
    base = dataclasses.replace(
        obs,
        phase="pass",
        decision=Kind.PASS,
        legal=(),
        tricks=(),
        trick=(),
        hearts_broken=False,
        points_taken=(0,) * n,
        hand_sizes=(size,) * n,
        passed=None,
        received=None,
        received_from=None,
    )
    rng = random.Random(f"pass-prior/{me}/{obs.hand_index}/{','.join(map(str, mine))}/{','.join(map(str, received))}")
    counts = [[0.0] * n for _ in range(52)]
    total = 0.0
    want = set(received)
    for _ in range(simulations):
        cards = hidden[:]
        rng.shuffle(cards)
        pre: list[list[int]] = [[] for _ in range(n)]
        pre[me] = mine
        at = 0
        for s in range(n):
            if s == me:
                continue
            need = size - (len(received) if s == giver else 0)
            pre[s] = cards[at : at + need] + (received if s == giver else [])
            at += need
        passes = their_passes(base, World(pre, []))
        passes[me] = list(obs.passed)
        # the seat that passed to us gave us what it gave: a deal where it would have passed other cards
        # counts less, by MISS for each card it would have chosen otherwise
        weight = MISS ** len(want - set(passes[giver]))
        passes[giver] = received
        total += weight
        for s in range(n):
            if s == me:
                continue
            kept = set(pre[s]) - set(passes[s])
            for c in kept:
                counts[c][s] += weight
            for c in passes[(s - off) % n]:
                counts[c][s] += weight
    prior = []
    for c in range(52):
        row = [max(k / total, FLOOR) if s != me else 0.0 for s, k in enumerate(counts[c])]
        prior.append(row)
    return prior
