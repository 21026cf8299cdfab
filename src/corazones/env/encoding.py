"""The numeric encoding of what a seat knows, and the numbering of every decision.

Learning code wants fixed-size arrays; the engine speaks in
:class:`~corazones.core.observation.Observation` and
:class:`~corazones.core.actions.Action`.  :class:`Encoding` translates both
ways and is built from one observation alone, so an agent trained on it sees
exactly what a bot or a human in that seat sees, never more.

Seats are *relative*: index 0 is the observing seat, 1 the next seat
clockwise (its left), and so on, so one policy serves every seat.  Card
planes have 52 entries in Corazones card order (``suit * 13 + rank``, suits
clubs, diamonds, spades, hearts) and hold *counts*: with two decks
(Cancellation Hearts) a card can be there twice.

The table of fields (:data:`FIELDS`) is the documentation: ``docs/env.md``
prints it and a test checks the two agree.

Actions are integers: 0-51 a card (the card played, or the next card picked
for a pass: a pass is made card by card), 52-55 the penalty suit named (clubs,
diamonds, spades, hearts), 56 and 57 the moon choice (subtract from self, add
to the others), and with auction rules 58 + ``b`` a bid of ``b`` chips (0 = no
bid), up to every chip in play.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from corazones.core.actions import MOON_CHOICES, Action, Kind
from corazones.core.cards import HEARTS
from corazones.core.observation import Observation
from corazones.core.rules import Rules

CARD = 0
DECLARE = 52
MOON = 56
BID = 58

_KINDS = (Kind.PASS, Kind.BID, Kind.DECLARE, Kind.PLAY, Kind.MOON)


@dataclass(frozen=True)
class Field:
    """One block of the observation vector: ``size`` is a formula of ``n`` (players)."""

    name: str
    size: str
    meaning: str

    def length(self, n: int) -> int:
        return {"52": 52, "n": n, "n*52": n * 52, "n*4": n * 4, "4": 4, "1": 1, "6": 6}[self.size]


#: Blocks of the observation vector, in order.  Values: counts for card planes,
#: 0/1 for flags and one-hot blocks, and the stated scale for numbers.
FIELDS: tuple[Field, ...] = (
    Field("hand", "52", "copies of each card in the seat's hand"),
    Field("played", "n*52", "cards each relative seat has played this hand (finished tricks and the current one)"),
    Field("trick", "n*52", "the trick in progress: the card each relative seat put on it"),
    Field("leader", "n", "one-hot: the relative seat that led the trick in progress (play phase)"),
    Field("void", "n*4", "1 where a relative seat has shown a void: did not follow the suit led (C D S H)"),
    Field("passed", "52", "cards this seat passed this hand"),
    Field("received", "52", "cards this seat received this hand (once every seat has passed)"),
    Field("picked", "52", "cards already picked for the pass being chosen, card by card"),
    Field("pass_to", "n", "one-hot: the relative seat this hand's pass goes to (all 0 on a hold hand)"),
    Field("points", "n", "penalty points each relative seat has taken this hand, divided by the penalty total"),
    Field("scores", "n", "match score of each relative seat before this hand, divided by the penalty total"),
    Field("chips", "n", "chips of each relative seat, divided by the stake (chip settlements; else 0)"),
    Field("pool", "1", "chips in the pool, divided by the stake"),
    Field("hand_sizes", "n", "cards each relative seat holds, divided by the cards dealt to each"),
    Field("decision", "6", "one-hot: the decision asked of this seat: pass, bid, declare, play, moon, none"),
    Field("bids", "n", "each relative seat's bid this hand divided by the stake (0 = none yet or no bid)"),
    Field("declarer", "n", "one-hot: the relative seat that named the penalty suit (auction)"),
    Field("penalty_suit", "4", "one-hot: the penalty suit (C D S H; hearts unless an auction named another)"),
    Field("broken", "1", "1 once the penalty suit has been broken"),
    Field("card_values", "52", "points of each card under the rules in force, divided by 13"),
    Field("dealer", "n", "one-hot: the relative seat that dealt"),
    Field("trick_number", "1", "tricks finished this hand, divided by the cards dealt to each"),
    Field("kitty", "1", "cards in the face-down kitty, divided by the cards dealt to each"),
    Field("kitty_owner", "n", "one-hot: the relative seat that has taken the kitty"),
    Field("partnership", "1", "1 when partners (relative seats 0, 2, ...) score together"),
)

#: Fields whose values are counts of cards (bounded by the number of decks).
_CARD_PLANES = frozenset({"hand", "played", "trick", "passed", "received", "picked"})
#: Fields holding scaled numbers that may be negative or exceed 1.
_UNBOUNDED = frozenset({"points", "scores", "chips", "pool", "bids", "card_values"})
#: Their bound in the observation space: finite, and far beyond any score a game reaches.
_LIMIT = 1e6


class Encoding:
    """Encoder of observations and numbering of actions for one set of rules."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        n = self.players = rules.players
        self.offsets: dict[str, int] = {}
        pos = 0
        low: list[float] = []
        high: list[float] = []
        for f in FIELDS:
            size = f.length(n)
            self.offsets[f.name] = pos
            pos += size
            if f.name in _CARD_PLANES:
                low += [0.0] * size
                high += [float(rules.decks)] * size
            elif f.name in _UNBOUNDED:
                low += [-_LIMIT] * size
                high += [_LIMIT] * size
            else:
                low += [0.0] * size
                high += [1.0] * size
        self.size = pos
        self.low = np.array(low, dtype=np.float32)
        self.high = np.array(high, dtype=np.float32)
        vals = rules.card_values(HEARTS)
        self.point_scale = float(sum(vals[c] for c in rules.deck if vals[c] > 0)) or 1.0
        self.max_bid = rules.stake * n if rules.auction else -1
        self.actions = BID + self.max_bid + 1 if rules.auction else BID
        self._values_cache: dict[int, np.ndarray] = {}

    # --------------------------------------------------------------- encode
    def encode(self, obs: Observation, picked: Sequence[int] = ()) -> np.ndarray:
        """The observation vector (float32) of ``obs``; ``picked``: cards chosen so far for a pass.

        Counts and one-hot entries are gathered as positions and counted in one
        ``bincount`` (setting numpy elements one by one costs more than the rest
        of the step); the few scaled numbers are written after.
        """
        o = self.offsets
        n = self.players
        me = obs.seat
        r = self.rules
        ones = list(obs.hand)  # positions that count one more
        flags: set[int] = set()  # positions that are 1 however often they are seen (voids)
        base = o["played"]
        void = o["void"]
        for t in obs.tricks:
            plays = t.plays
            led = plays[0][1] // 13
            for s, c in plays:
                rel = (s - me) % n
                ones.append(base + rel * 52 + c)
                if c // 13 != led:
                    flags.add(void + rel * 4 + led)
        if obs.trick:
            led = obs.trick[0][1] // 13
            tb = o["trick"]
            for s, c in obs.trick:
                rel = (s - me) % n
                ones.append(base + rel * 52 + c)
                ones.append(tb + rel * 52 + c)
                if c // 13 != led:
                    flags.add(void + rel * 4 + led)
        if obs.phase == "play":
            ones.append(o["leader"] + (obs.trick_leader - me) % n)
        if obs.passed:
            ones.extend(o["passed"] + c for c in obs.passed)
        if obs.received:
            ones.extend(o["received"] + c for c in obs.received)
        ones.extend(o["picked"] + c for c in picked)
        if obs.pass_to is not None:
            ones.append(o["pass_to"] + (obs.pass_to - me) % n)
        ones.append(o["decision"] + (_KINDS.index(obs.decision) if obs.decision is not None else 5))
        if obs.declarer is not None:
            ones.append(o["declarer"] + (obs.declarer - me) % n)
        ones.append(o["penalty_suit"] + obs.penalty_suit)
        if obs.hearts_broken:
            ones.append(o["broken"])
        ones.append(o["dealer"] + (obs.dealer - me) % n)
        if obs.kitty_owner is not None:
            ones.append(o["kitty_owner"] + (obs.kitty_owner - me) % n)
        if r.partnership:
            ones.append(o["partnership"])
        ones.extend(flags)
        out = np.bincount(ones, minlength=self.size).astype(np.float32)
        scale = self.point_scale
        stake = float(r.stake)
        size = float(r.hand_size)
        rels = [(s - me) % n for s in range(n)]
        where = [o["points"] + k for k in rels] + [o["scores"] + k for k in rels] + [o["hand_sizes"] + k for k in rels]
        what = [p / scale for p in obs.points_taken] + [p / scale for p in obs.scores]
        what += [h / size for h in obs.hand_sizes]
        if r.settlement in ("chips_1887", "chips_pool"):
            where += [o["chips"] + k for k in rels]
            what += [c / stake for c in obs.chips]
        for s, b in obs.bids:
            where.append(o["bids"] + rels[s])
            what.append(b / stake)
        where += [o["pool"], o["trick_number"], o["kitty"]]
        what += [obs.pool / stake, len(obs.tricks) / size, obs.kitty_size / size]
        out[where] = what
        vb = o["card_values"]
        out[vb : vb + 52] = self._values(obs.penalty_suit)
        return out

    def _values(self, suit: int) -> np.ndarray:
        got = self._values_cache.get(suit)
        if got is None:
            got = self._values_cache[suit] = np.array(self.rules.card_values(suit), dtype=np.float32) / 13.0
        return got

    def decode(self, vector: np.ndarray) -> dict[str, np.ndarray]:
        """The vector cut into its named fields (for inspection and tests)."""
        out = {}
        for f in FIELDS:
            start = self.offsets[f.name]
            out[f.name] = vector[start : start + f.length(self.players)]
        return out

    # -------------------------------------------------------------- actions
    def mask(self, obs: Observation, picked: Sequence[int] = ()) -> np.ndarray:
        """1 for each action number the seat may take now (int8); all 0 when it has no decision."""
        m = np.zeros(self.actions, dtype=np.int8)
        k = obs.decision
        if k is Kind.PASS:
            left = list(obs.hand)
            for c in picked:
                left.remove(c)
            for c in left:
                m[c] = 1
        elif k is not None:
            for a in obs.legal:
                i = self.index(a)
                if 0 <= i < self.actions:
                    m[i] = 1
        return m

    def index(self, action: Action) -> int:
        """The action number of ``action`` (a pass is its cards, picked one at a time: not one number)."""
        k = action.kind
        if k is Kind.PLAY:
            return action.cards[0]
        if k is Kind.DECLARE:
            assert isinstance(action.value, int)
            return DECLARE + action.value
        if k is Kind.MOON:
            return MOON + MOON_CHOICES.index(str(action.value))
        if k is Kind.BID:
            assert isinstance(action.value, int)
            return BID + action.value if action.value <= self.max_bid else -1
        raise ValueError("a pass is a sequence of card numbers, one per card picked")

    def describe(self, number: int) -> str:
        """What action ``number`` means, in words (for error messages)."""
        if 0 <= number < 52:
            from corazones.core.cards import card_str

            return f"card {card_str(number)}"
        if DECLARE <= number < MOON:
            return f"name suit {'CDSH'[number - DECLARE]}"
        if MOON <= number < BID:
            return f"moon: {MOON_CHOICES[number - MOON]}"
        if BID <= number < self.actions:
            return f"bid {number - BID}"
        return f"{number} (not an action; actions are 0 to {self.actions - 1})"

    def action(self, number: int, obs: Observation) -> Action:
        """The :class:`Action` that ``number`` means for ``obs`` (not for passes: they are picked card by card)."""
        return self.action_for(number, obs.decision, obs.seat)

    def action_for(self, number: int, k: Kind | None, seat: int) -> Action:
        """The :class:`Action` that ``number`` means for ``seat`` asked a decision of kind ``k``."""
        if k is Kind.PLAY and 0 <= number < 52:
            return Action(Kind.PLAY, seat, (number,))
        if k is Kind.DECLARE and DECLARE <= number < MOON:
            return Action(Kind.DECLARE, seat, (), number - DECLARE)
        if k is Kind.MOON and MOON <= number < BID:
            return Action(Kind.MOON, seat, (), MOON_CHOICES[number - MOON])
        if k is Kind.BID and BID <= number < self.actions:
            return Action(Kind.BID, seat, (), number - BID)
        asked = k.value if k is not None else "nothing"
        raise ValueError(f"action {self.describe(number)} does not answer the decision asked ({asked})")

    def table(self) -> list[dict[str, Any]]:
        """The field table with offsets for these rules (what ``docs/env.md`` shows for standard)."""
        return [
            {"field": f.name, "offset": self.offsets[f.name], "size": f.length(self.players), "meaning": f.meaning}
            for f in FIELDS
        ]


#: Blocks the information-state tensor adds after the observation's :data:`FIELDS` (``T``: tricks in a hand).
INFO_FIELDS: tuple[Field, ...] = (
    Field("dealt", "52", "the seat's cards as dealt, before the pass (its hand + its plays + passed - received)"),
    Field(
        "tricks",
        "T*(2n-1)*52",
        "every trick of the hand in order, finished or in progress: the k-th card played in a trick "
        "goes in slot (relative seat of its leader + k), OpenSpiel's layout with relative seats",
    ),
    Field("winners", "T*n", "one-hot per finished trick: the relative seat that won it (all 0: annulled)"),
)


class InfoStateEncoding(Encoding):
    """The observation vector followed by a perfect-recall record of the hand (see :data:`INFO_FIELDS`).

    The compact vector keeps what a seat needs to decide but forgets the
    order of the cards and who won each trick; CFR-style methods and belief
    models need the whole sequence.  This tensor is the compact one (same
    offsets, so :meth:`Encoding.decode` still reads its start) with, after
    it, the cards the seat was dealt and every trick of the hand in the
    order it was played, in the spirit of OpenSpiel's ``hearts``
    ``information_state_tensor``: one block of ``2n - 1`` card planes per
    trick, a card in the slot of its player counted from the leader, so
    both who played it and when are kept.  It is still built from one
    observation alone.  Earlier hands of a match are summed up by the
    scores, as at the table; within the hand nothing is forgotten but the
    order in which a pass's cards were picked, which the game never sees.
    """

    def __init__(self, rules: Rules) -> None:
        super().__init__(rules)
        n = self.players
        self.tricks = rules.hand_size
        self.slots = 2 * n - 1
        pos = self.size
        for f in INFO_FIELDS:
            self.offsets[f.name] = pos
            pos += self.info_length(f.name)
        extra = pos - self.size
        self.compact_size = self.size
        self.size = pos
        high = np.ones(extra, dtype=np.float32)
        high[: 52 + self.tricks * self.slots * 52] = float(rules.decks)
        self.low = np.concatenate([self.low, np.zeros(extra, dtype=np.float32)])
        self.high = np.concatenate([self.high, high])

    def info_length(self, name: str) -> int:
        n = self.players
        return {"dealt": 52, "tricks": self.tricks * self.slots * 52, "winners": self.tricks * n}[name]

    def encode(self, obs: Observation, picked: Sequence[int] = ()) -> np.ndarray:
        out = super().encode(obs, picked)  # already self.size long: the compact fields, zeros after
        o = self.offsets
        n = self.players
        me = obs.seat
        ones: list[int] = []
        dealt = o["dealt"]
        ones.extend(dealt + c for c in obs.hand)
        ones.extend(dealt + c for t in obs.tricks for s, c in t.plays if s == me)
        ones.extend(dealt + c for s, c in obs.trick if s == me)
        if obs.passed:
            ones.extend(dealt + c for c in obs.passed)
        block = self.slots * 52
        records: list[tuple[int, tuple[tuple[int, int], ...]]] = [(t.leader, t.plays) for t in obs.tricks]
        if obs.trick:
            records.append((obs.trick_leader, obs.trick))
        for i, (leader, plays) in enumerate(records[: self.tricks]):
            start = o["tricks"] + i * block + ((leader - me) % n) * 52
            ones.extend(start + k * 52 + c for k, (_, c) in enumerate(plays))
        for i, t in enumerate(obs.tricks[: self.tricks]):
            if t.winner is not None:
                ones.append(o["winners"] + i * n + (t.winner - me) % n)
        counts = np.bincount(ones, minlength=self.size)[: self.size]
        out += counts.astype(np.float32)
        if obs.received:  # received cards were not dealt to the seat
            for c in obs.received:
                out[dealt + c] -= 1.0
        return out

    def decode(self, vector: np.ndarray) -> dict[str, np.ndarray]:
        out = super().decode(vector)
        for f in INFO_FIELDS:
            start = self.offsets[f.name]
            out[f.name] = vector[start : start + self.info_length(f.name)]
        return out


#: What ``observation=`` may name: the encoder of each kind of vector.
OBSERVATIONS: dict[str, type[Encoding]] = {"compact": Encoding, "info_state": InfoStateEncoding}


def make_encoding(rules: Rules, observation: str = "compact") -> Encoding:
    """The encoder an environment's ``observation=`` option names (``compact`` or ``info_state``)."""
    kind = OBSERVATIONS.get(observation) if isinstance(observation, str) else None
    if kind is None:
        raise ValueError(f"observation = {observation!r} is not allowed; one of: {', '.join(OBSERVATIONS)}")
    return kind(rules)
