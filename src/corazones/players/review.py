"""Game review: how much each decision of a finished game cost, judged from what the seat knew.

For every decision of the reviewed seats (the pass, each card, each bid,
naming the penalty suit, the moon choice), :func:`review_record` replays the record to
that moment, takes the seat's observation (``Game.observation``: never the
hidden hands) and values every distinct option with the ``expert``'s search
(:mod:`corazones.players.search`): deals consistent with what the seat had
seen are sampled (:class:`~corazones.players.belief.Belief`), every option is
played out to the end of the hand on the same deals with the fast policy of
:mod:`corazones.players.rollout`, and each finished hand is valued for the
whole game by the expert's :class:`~corazones.players.search.Scorer`.

The value is in the game's own units, higher is better: minus the points the
seat's side takes in the hand (chips won, under a chip settlement), plus a
little for points given to the other sides (more to the match leader), and,
when the hand can end the game, plus or minus ``GAME_WEIGHT`` points for
winning or losing it.  The *loss* of a decision is the value of the best
option minus that of the chosen one, never below 0.  Labels (:data:`LABELS`)
are fractions of the points at stake in a hand (26 in standard Hearts:
inaccuracy from 0.52, mistake from 1.56, blunder from 3.9 points).

Every option sees the same deals (a paired comparison, so the luck of the
sample cancels), and deal ``i`` of a decision is drawn from a seed made of
the record's seed and the decision's number, so a review is exactly the same
for the same record and budget on any machine.  The budget is ``worlds``
sampled deals per card or suit and ``pass_worlds`` per pass; the sampling
error of a loss is about ``3 / sqrt(worlds)`` points in standard Hearts, so
losses under the inaccuracy threshold are noise, not advice.

A move with a single distinct option (the only legal card, or cards that
play the same) is not a decision and is left out.  A bid (Auction Hearts) is
compared with no bid, the lowest raise and the ``standard`` player's bid, the
rest of the auction played on each sampled deal as ``standard`` would bid
and name the suit.

Why.  Each option's playouts also count how often the seat took each big
penalty card (Q♠...) and from whom, and how often another side shot the moon
or the seat itself did, so the reason names what went wrong ("after K♠,
seat 2 gave you Q♠ on 40% of the sampled deals").  Reasons are English
templates with typed parameters (:class:`~corazones.players.hints.Reason`),
translated by the face, as hints are.

Hindsight.  :attr:`DecisionReview.hindsight` (plays only) values each card
on the real deal, all hands known, with every seat then playing the fast
policy: what was best with the cards face up.  It is a separate view for
study; the loss, the label and the summary never use it.
"""

from __future__ import annotations

import dataclasses
import hashlib
import math
import random
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from corazones.core.actions import MOON_CHOICES, Action, Kind
from corazones.core.cards import CARDS, card_str
from corazones.core.deal import Deal
from corazones.core.errors import CorazonesError, RecordError
from corazones.core.game import Game
from corazones.core.observation import Observation
from corazones.core.records import action_of, check_shape, rules_of, seed_of
from corazones.players import standard
from corazones.players.base import legal_cards
from corazones.players.belief import Belief, World
from corazones.players.expert import RACE_ROUNDS, RACE_Z, WATCH, _pass_candidates, equivalent_classes
from corazones.players.heuristics import View
from corazones.players.hints import N_, Reason, Seat, Suit, describe
from corazones.players.rollout import Context, play_out
from corazones.players.search import DEFEND_SHARE, GAME_WEIGHT, Scorer, their_passes

#: Label thresholds, as fractions of the points at stake in a hand (26 in standard Hearts), smallest first.
LABELS: tuple[tuple[str, float], ...] = (("inaccuracy", 0.02), ("mistake", 0.06), ("blunder", 0.15))
#: Default sampled deals per card or suit, and per pass.
WORLDS = 400
PASS_WORLDS = 400
#: The most sampled deals a review may ask for per option: 25 times the default, a game's review of some
#: hours that halves the default's noise five times over; more would run for days without saying so.
MOST_WORLDS = 10_000
#: How much more often (a share of the deals) the chosen option must lead to a bad event than the best
#: one before a reason names that event.
EVENT_GAP = 0.1

__all__ = [
    "GAME_WEIGHT",
    "LABELS",
    "DecisionReview",
    "Hindsight",
    "Review",
    "SeatSummary",
    "assemble",
    "count_decisions",
    "decision_indexes",
    "label_of",
    "review_record",
    "stake",
]


@dataclass(frozen=True, slots=True)
class Hindsight:
    """What was best with every hand known (plays only; never part of the score)."""

    best: Action
    chosen_value: float
    best_value: float

    @property
    def loss(self) -> float:
        return max(0.0, self.best_value - self.chosen_value)

    def to_json(self) -> dict[str, Any]:
        return {
            "best": _action_json(self.best),
            "chosen_value": round(self.chosen_value, 2),
            "best_value": round(self.best_value, 2),
            "loss": round(self.loss, 2),
        }


@dataclass(frozen=True, slots=True)
class DecisionReview:
    """One decision of one seat, valued from that seat's observation.

    ``index`` is the action's place in the record (0-based); ``hand`` and
    ``trick`` count from 1 (``trick`` is ``None`` off the play).  Values are
    expected game values (higher is better), ``*_points`` the expected
    points the seat's side takes in the hand (chips lost, under chips).
    """

    index: int
    hand: int
    trick: int | None
    seat: int
    kind: Kind
    chosen: Action
    best: Action
    chosen_value: float
    best_value: float
    chosen_points: float
    best_points: float
    label: str | None
    why: tuple[Reason, ...]
    options: int
    worlds: int
    hindsight: Hindsight | None = None

    @property
    def loss(self) -> float:
        return max(0.0, self.best_value - self.chosen_value)

    def to_json(self, why: Callable[[tuple[Reason, ...]], Any] | None = None) -> dict[str, Any]:
        """The decision as the ``--json`` report shows it; ``why`` renders the reasons (default: templates)."""
        return {
            "hand": self.hand,
            "trick": self.trick,
            "seat": self.seat,
            "kind": self.kind.value,
            "chosen": _action_json(self.chosen),
            "best": _action_json(self.best),
            "loss": round(self.loss, 2),
            "label": self.label,
            "why": [r.to_json() for r in self.why] if why is None else why(self.why),
        }

    def details(self) -> dict[str, Any]:
        """Everything else a face may show: the figures behind the loss and the hindsight view."""
        return {
            "index": self.index,
            "chosen_value": round(self.chosen_value, 2),
            "best_value": round(self.best_value, 2),
            "chosen_points": round(self.chosen_points, 2),
            "best_points": round(self.best_points, 2),
            "options": self.options,
            "worlds": self.worlds,
            "hindsight": None if self.hindsight is None else self.hindsight.to_json(),
        }


@dataclass(frozen=True, slots=True)
class SeatSummary:
    """One seat's review in figures: decisions, mean and total loss, labels, the worst three moments."""

    seat: int
    decisions: int
    mean_loss: float
    total_loss: float
    labels: Mapping[str, int]
    worst: tuple[DecisionReview, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "decisions": self.decisions,
            "mean_loss": round(self.mean_loss, 3),
            "total_loss": round(self.total_loss, 2),
        }


@dataclass(frozen=True, slots=True)
class Review:
    """A reviewed game: every decision in record order and a summary per reviewed seat."""

    decisions: tuple[DecisionReview, ...]
    summary: tuple[SeatSummary, ...]
    worlds: int
    pass_worlds: int
    stake: float = 26.0
    units: str = "points"
    extra: dict[str, Any] = field(default_factory=dict)

    def to_json(self, why: Callable[[tuple[Reason, ...]], Any] | None = None) -> dict[str, Any]:
        """``{"decisions": [...], "summary": [...]}``, the shape ``corazones review --json`` prints."""
        return {
            "decisions": [d.to_json(why) for d in self.decisions],
            "summary": [s.to_json() for s in self.summary],
        }

    def full_json(self) -> dict[str, Any]:
        """Everything a face may show: each decision with its figures and reasons as templates, labelled summaries.

        Reasons stay templates with their parameters (``Reason.to_json``), for
        the web app to translate; ``worst`` lists action numbers (``index``).
        """
        return {
            "worlds": self.worlds,
            "pass_worlds": self.pass_worlds,
            "stake": self.stake,
            "units": self.units,
            "thresholds": {name: round(share * self.stake, 2) for name, share in LABELS},
            "decisions": [{**d.to_json(), **d.details()} for d in self.decisions],
            "summary": [
                {**s.to_json(), "labels": dict(s.labels), "worst": [d.index for d in s.worst]} for s in self.summary
            ],
        }


# ------------------------------------------------------------------ helpers
def _action_json(a: Action) -> Any:
    """An action without its seat: ``{"play": "QS"}``, ``{"pass": [...]}``, ``{"moon": ...}``."""
    return {k: v for k, v in a.to_json().items() if k != "seat"}


def stake(obs_or_rules: Any, penalty_suit: int = 3) -> float:
    """The points at stake in a hand under these rules: the sum of the positive card values (26 in standard)."""
    rules = getattr(obs_or_rules, "rules", obs_or_rules)
    vals = rules.card_values(penalty_suit)
    total = sum(vals[c] for c in rules.deck if vals[c] > 0)
    return float(total) if total > 0 else 26.0


def label_of(loss: float, at_stake: float = 26.0) -> str | None:
    """The label of a loss (``None`` under the inaccuracy threshold); see :data:`LABELS`."""
    out = None
    for name, share in LABELS:
        if loss >= share * at_stake - 1e-9:
            out = name
    return out


def _seed(record_seed: object, index: int, salt: str) -> int:
    digest = hashlib.sha256(f"review|{record_seed}|{index}|{salt}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


@dataclass(slots=True)
class _Tally:
    """Per option: its value on each deal, summed points, and counts of the events reasons talk about."""

    values: list[float] = field(default_factory=list)
    points: float = 0.0
    took: dict[int, int] = field(default_factory=dict)  # big card -> deals on which we took it
    givers: dict[tuple[int, int], int] = field(default_factory=dict)  # (card, giver) -> deals
    moon_by: dict[int, int] = field(default_factory=dict)  # other side's shooter -> deals
    own_moon: int = 0

    @property
    def n(self) -> int:
        return len(self.values)

    def mean(self) -> float:
        return sum(self.values) / len(self.values) if self.values else -math.inf

    def mean_points(self) -> float:
        return self.points / len(self.values) if self.values else 0.0


class _Valuer:
    """Plays options out on sampled deals and keeps the tallies reasons need."""

    def __init__(self, obs: Observation, base: int) -> None:
        self.obs = obs
        self.me = obs.seat
        self.rules = obs.rules
        self.scorer = Scorer(obs)
        self.base = base
        vals = obs.card_values
        self.big_set = {c for c in obs.rules.deck if vals[c] >= 5}
        self.my_team = obs.rules.team_of(obs.seat)
        self.belief = Belief(obs, False)

    def finish(self, d: Deal, tally: _Tally) -> None:
        """Value a played-out hand for us and note the events."""
        shooter = d.shooter
        v, p = self.scorer.outcome(d, self.me)
        tally.values.append(v)
        tally.points += p
        if shooter is not None:
            if shooter == self.me:
                tally.own_moon += 1
            elif self.rules.team_of(shooter) != self.my_team:
                tally.moon_by[shooter] = tally.moon_by.get(shooter, 0) + 1
        if self.big_set:
            for t in d.tricks:
                if t.winner != self.me:
                    continue
                for s, c in t.plays:
                    if c in self.big_set:
                        tally.took[c] = tally.took.get(c, 0) + 1
                        tally.givers[(c, s)] = tally.givers.get((c, s), 0) + 1

    def world(self, i: int, watch: tuple[int, float]) -> tuple[World, int]:
        """Deal number ``i`` of this decision (the same for every option) and the seat it lets shoot (-1: none)."""
        rng = random.Random(self.base + i)
        w = self.belief.sample(rng)
        seat, chance = watch
        if seat >= 0 and rng.random() < chance:
            return self.belief.tilt(w, seat), seat
        return w, -1


def _race(
    count: int, keep: set[int], budget: int, run: Callable[[list[int], int], None], tallies: list[_Tally]
) -> None:
    """Score ``count`` options on up to ``budget`` deals, dropping the ones clearly behind as it goes.

    ``run(alive, i)`` plays deal ``i`` for the options ``alive``.  As in the
    expert's race, every option sees the first ``budget // RACE_ROUNDS``
    deals; after each round an option whose paired deficit to the leader is
    beyond ``RACE_Z`` standard errors drops out, except those in ``keep``
    (the chosen one), so the chosen and the best option are always compared
    on the whole budget.
    """
    alive = list(range(count))
    step = max(1, budget // RACE_ROUNDS)
    done = 0
    while done < budget:
        n = min(step, budget - done)
        for i in range(done, done + n):
            run(alive, i)
        done += n
        if len(alive) > 1:
            lead = max(alive, key=lambda k: sum(tallies[k].values))
            alive = [k for k in alive if k == lead or k in keep or not _behind(tallies[lead], tallies[k])]


def _behind(lead: _Tally, other: _Tally) -> bool:
    n = min(lead.n, other.n)
    diffs = [lead.values[j] - other.values[j] for j in range(n)]
    mean = sum(diffs) / n
    var = sum((x - mean) ** 2 for x in diffs) / max(n - 1, 1)
    return mean > 0 and mean * mean * n > RACE_Z * RACE_Z * var


def _watch(obs: Observation) -> tuple[int, float]:
    threat, level = standard.moon_alarm(View(obs), WATCH)
    return (-1, 0.0) if threat is None else (threat, level)


# -------------------------------------------------------------- per kind
def value_cards(obs: Observation, chosen: int | None, worlds: int, base: int) -> tuple[list[list[int]], list[_Tally]]:
    """The legal cards in classes that play the same, and each class's tally over ``worlds`` sampled deals.

    ``chosen`` is the card played (its class always sees the whole budget,
    while classes clearly worse than the best drop out of the race);
    ``None`` values every class on the whole budget (the analysis board).

    When the ``standard`` player would play for the moon here (nobody else
    has a point and the seat's cards can take the rest: the expert then
    follows that plan), each card is also played with a plan to shoot, and
    keeps the plan with the better mean (a plan is chosen, not guessed per
    deal).  Elsewhere the seat's own moon is left to the playouts, as in the
    expert's search: a plan to shoot from any hand overrates the moon,
    since the playouts' defenders are weaker than real ones.
    """
    legal = legal_cards(obs)
    groups = equivalent_classes(obs, legal)
    moves = [g[0] for g in groups]
    val = _Valuer(obs, base)
    plans = [-1, obs.seat] if standard.shooting(View(obs), legal) else [-1]
    k = len(moves)
    tallies = [_Tally() for _ in range(k * len(plans))]
    watch = _watch(obs)

    def run(alive: list[int], i: int) -> None:
        w, watched = val.world(i, watch)
        start = Deal.from_observation(obs, w.hands, w.kitty)
        ctx = Context(start)
        for o in alive:
            d = start.clone()
            d.play_card(moves[o % k])
            play_out(d, ctx, plans[o // k], DEFEND_SHARE, watched)
            val.finish(d, tallies[o])

    if chosen is None:
        keep = set(range(len(tallies)))
    else:
        ci = next(i for i, g in enumerate(groups) if chosen in g)
        keep = {p * k + ci for p in range(len(plans))}
    _race(len(tallies), keep, worlds, run, tallies)
    best = []
    for mi in range(k):
        mine = [tallies[p * k + mi] for p in range(len(plans))]
        most = max(t.n for t in mine)
        best.append(max((t for t in mine if t.n == most), key=lambda t: t.mean()))
    return groups, best


def _value_pass(
    obs: Observation, chosen: tuple[int, ...], worlds: int, base: int
) -> tuple[list[list[int]], list[_Tally]]:
    """Candidate passes (the expert's, plus the chosen one) and their tallies."""
    cands = _pass_candidates(obs, list(obs.hand), obs.rules.pass_count, 8)
    mine = sorted(chosen)
    if mine not in cands:
        cands.append(mine)
    val = _Valuer(obs, base)
    tallies = [_Tally() for _ in cands]
    r = obs.rules
    n = r.players
    off = r.pass_offset(obs.pass_direction)

    def run(alive: list[int], i: int) -> None:
        w, _ = val.world(i, (-1, 0.0))
        theirs = their_passes(obs, w)
        for o in alive:
            hands = [list(h) for h in w.hands]
            passes = list(theirs)
            passes[obs.seat] = cands[o]
            for s in range(n):
                for c in passes[s]:
                    hands[s].remove(c)
            for s in range(n):
                hands[(s + off) % n].extend(passes[s])
            d = Deal.at_play(r, hands, w.kitty, obs.dealer, obs.penalty_suit, obs.declarer)
            play_out(d, Context(d))
            val.finish(d, tallies[o])

    _race(len(cands), {cands.index(mine)}, worlds, run, tallies)
    return cands, tallies


def _value_declare(obs: Observation, chosen: int, worlds: int, base: int) -> list[_Tally]:
    val = _Valuer(obs, base)
    tallies = [_Tally() for _ in range(4)]

    def run(alive: list[int], i: int) -> None:
        w, _ = val.world(i, (-1, 0.0))
        for suit in alive:
            d = Deal.at_play(obs.rules, w.hands, w.kitty, obs.dealer, suit, obs.seat)
            play_out(d, Context(d))
            val.finish(d, tallies[suit])

    _race(4, {chosen}, worlds, run, tallies)
    return tallies


def _value_bid(obs: Observation, chosen: int, worlds: int, base: int) -> tuple[list[int], list[_Tally]]:
    """Bids (no bid, the lowest raise, the ``standard`` player's and the chosen one) and their tallies.

    On each sampled deal the auction goes on after our bid with the later
    seats bidding as the ``standard`` player would with their sampled hands;
    its winner names the suit as ``standard`` does and pays the high bid
    into the pool, and the hand is played out.
    """
    legal = sorted(int(a.value) for a in obs.legal if a.kind is Kind.BID and isinstance(a.value, int))
    raises = [b for b in legal if b > 0]
    options = sorted({0, chosen, standard.bid(obs), *raises[:1]} & set(legal))
    val = _Valuer(obs, base)
    tallies = [_Tally() for _ in options]
    r = obs.rules

    def run(alive: list[int], i: int) -> None:
        w, _ = val.world(i, (-1, 0.0))
        for o in alive:
            d = Deal(r, [list(h) for h in w.hands], list(w.kitty), obs.dealer, "hold", chips=list(obs.chips))
            for seat, amount in obs.bids:
                d.apply(Action(Kind.BID, seat, value=amount))
            d.apply(Action(Kind.BID, obs.seat, value=options[o]))
            while d.phase == "bid":
                s = d.turn
                seen = dataclasses.replace(obs, seat=s, hand=tuple(sorted(w.hands[s])), legal=tuple(d.legal_actions(s)))
                d.apply(Action(Kind.BID, s, value=standard.bid(seen)))
            if d.phase == "declare":
                s = d.turn
                seen = dataclasses.replace(obs, seat=s, hand=tuple(sorted(w.hands[s])))
                d.apply(Action(Kind.DECLARE, s, value=standard.declare(seen)))
            play_out(d, Context(d))
            val.scorer.bid = d.high_bid if d.declarer is not None else 0
            val.finish(d, tallies[o])

    _race(len(options), {options.index(chosen)}, worlds, run, tallies)
    return options, tallies


def _value_moon(game: Game, obs: Observation) -> list[float]:
    """Exact value of each moon choice (every card is known by then)."""
    scorer = Scorer(obs)
    out = []
    for choice in MOON_CHOICES:
        d = game.deal.clone()
        d.moon_choice = choice
        out.append(scorer.value(d, obs.seat))
    return out


def _hindsight(game: Game, obs: Observation, moves: list[int], chosen_i: int) -> Hindsight:
    """Each card on the real deal, all hands known, then the fast policy for every seat."""
    scorer = Scorer(obs)
    true = game.deal.clone()
    ctx = Context(true)
    vals = []
    for m in moves:
        d = true.clone()
        d.play_card(m)
        play_out(d, ctx, -1, DEFEND_SHARE)
        vals.append(scorer.outcome(d, obs.seat)[0])
    bi = max(range(len(moves)), key=lambda i: (vals[i], i == chosen_i))
    return Hindsight(Action.play(obs.seat, moves[bi]), vals[chosen_i], vals[bi])


# ------------------------------------------------------------------ reasons
#: Reasons naming the event that made the difference, for a card or a suit ...
_TEMPLATES = {
    "moon": N_("{chosen} let {seat} shoot the moon on {worse}% of the sampled deals ({better}% after {best})"),
    "given": N_("{chosen} let {seat} give you {card} on {worse}% of the sampled deals ({better}% after {best})"),
    "took": N_("after {chosen} you took {card} on {worse}% of the sampled deals ({better}% after {best})"),
    "own_moon": N_(
        "{best} kept your moon alive: you shot it on {better}% of the sampled deals ({worse}% after {chosen})"
    ),
    "chips": N_("{best} was better: about {best_chips:+.1f} chips expected against {chosen_chips:+.1f}"),
    "points": N_("{best} was better: about {best_points:.1f} points expected against {chosen_points:.1f}"),
    "game": N_("{best} was better for the game as a whole"),
}
#: ... and for a pass.
_PASS_TEMPLATES = {
    "moon": N_(
        "passing {chosen} let {seat} shoot the moon on {worse}% of the sampled deals ({better}% after passing {best})"
    ),
    "given": N_(
        "passing {chosen} let {seat} give you {card} on {worse}% of the sampled deals ({better}% after passing {best})"
    ),
    "took": N_(
        "after passing {chosen} you took {card} on {worse}% of the sampled deals ({better}% after passing {best})"
    ),
    "own_moon": N_(
        "passing {best} kept your moon alive: you shot it on {better}% of the sampled deals "
        "({worse}% after passing {chosen})"
    ),
    "chips": N_("passing {best} was better: about {best_chips:+.1f} chips expected against {chosen_chips:+.1f}"),
    "points": N_("passing {best} was better: about {best_points:.1f} points expected against {chosen_points:.1f}"),
    "game": N_("passing {best} was better for the game as a whole"),
}

#: ... and for a bid (``{best}`` and ``{chosen}`` are amounts; 0 is no bid).
_BID_TEMPLATES = {
    **_TEMPLATES,
    "chips": N_("a bid of {best} was better: about {best_chips:+.1f} chips expected against {chosen_chips:+.1f}"),
    "points": N_("a bid of {best} was better: about {best_points:.1f} points expected against {chosen_points:.1f}"),
    "game": N_("a bid of {best} was better for the game as a whole"),
}


def _pct(k: int, n: int) -> int:
    return round(100 * k / n) if n else 0


def _why(
    obs: Observation,
    kind: Kind,
    chosen: Action,
    best: Action,
    tc: _Tally,
    tb: _Tally,
    loss: float,
    at_stake: float,
) -> tuple[Reason, ...]:
    """Why the best option was better, naming the event that made the difference when there is one."""
    if chosen == best or label_of(loss, at_stake) is None:
        if chosen == best:
            return (Reason(N_("the best choice")),)
        return (Reason(N_("about as good as the best choice")),)
    what = _subject(chosen)
    alt = _subject(best)
    texts = _PASS_TEMPLATES if kind is Kind.PASS else _BID_TEMPLATES if kind is Kind.BID else _TEMPLATES
    out: list[Reason] = []
    n_c, n_b = max(tc.n, 1), max(tb.n, 1)
    # another side's moon
    for seat in sorted(tc.moon_by, key=lambda s: -tc.moon_by[s]):
        gap = tc.moon_by[seat] / n_c - tb.moon_by.get(seat, 0) / n_b
        if gap >= EVENT_GAP / 2:
            out.append(
                Reason(
                    texts["moon"],
                    {
                        "chosen": what,
                        "best": alt,
                        "seat": Seat(seat),
                        "worse": _pct(tc.moon_by[seat], n_c),
                        "better": _pct(tb.moon_by.get(seat, 0), n_b),
                    },
                )
            )
            break
    # big penalty cards taken
    for card in sorted(tc.took, key=lambda c: -tc.took[c]):
        gap = tc.took[card] / n_c - tb.took.get(card, 0) / n_b
        if gap < EVENT_GAP:
            continue
        params: dict[str, Any] = {
            "chosen": what,
            "best": alt,
            "card": CARDS[card],
            "worse": _pct(tc.took[card], n_c),
            "better": _pct(tb.took.get(card, 0), n_b),
        }
        # A seat is named ("let seat 3 give you Q♠ on 40%...") only when its own giving makes the difference,
        # with its own shares: the card taken from anyone is not what that seat did, and when the card came
        # from several seats the plain "you took it" is what is true.
        gave = {
            s: k / n_c - tb.givers.get((card, s), 0) / n_b
            for (c, s), k in tc.givers.items()
            if c == card and s != obs.seat
        }
        giver = max(gave, key=lambda s: (gave[s], -s), default=None)
        if giver is not None and gave[giver] >= EVENT_GAP:
            params["seat"] = Seat(giver)
            params["worse"] = _pct(tc.givers[(card, giver)], n_c)
            params["better"] = _pct(tb.givers.get((card, giver), 0), n_b)
            out.append(Reason(texts["given"], params))
        else:
            out.append(Reason(texts["took"], params))
        break
    # our own moon
    gap = tb.own_moon / n_b - tc.own_moon / n_c
    if gap >= EVENT_GAP and not out:
        out.append(
            Reason(
                texts["own_moon"],
                {"chosen": what, "best": alt, "better": _pct(tb.own_moon, n_b), "worse": _pct(tc.own_moon, n_c)},
            )
        )
    chips = obs.rules.settlement in ("chips_1887", "chips_pool")
    # The hand's points (or chips) explain the loss only when the better option takes fewer of them; when it
    # takes as many or more, it is better for the game (the points given to the leader, the game's end), and
    # "better: about 13.5 points expected against 13.0" would read as the opposite of what it means.
    if tb.mean_points() > tc.mean_points() - 0.05:
        out.append(Reason(texts["game"], {"best": alt, "chosen": what}))
    elif chips:
        out.append(
            Reason(
                texts["chips"],
                {"best": alt, "chosen": what, "best_chips": -tb.mean_points(), "chosen_chips": -tc.mean_points()},
            )
        )
    else:
        out.append(
            Reason(
                texts["points"],
                {"best": alt, "chosen": what, "best_points": tb.mean_points(), "chosen_points": tc.mean_points()},
            )
        )
    if kind is Kind.PLAY:
        out.extend(describe(obs, best)[1:])
    return tuple(out)


def _subject(a: Action) -> Any:
    """How a reason names an option: the card, the passed cards, the suit."""
    if a.kind is Kind.PLAY:
        return CARDS[a.cards[0]]
    if a.kind is Kind.PASS:
        return tuple(CARDS[c] for c in a.cards)
    if a.kind is Kind.DECLARE:
        assert isinstance(a.value, int)
        return Suit(a.value)
    if a.kind is Kind.BID:
        assert isinstance(a.value, int)
        return a.value
    return str(a.value)


# ------------------------------------------------------------------- review
def _reviewed(record: dict[str, Any], seats: Sequence[int] | None) -> set[int]:
    n = rules_of(record).players
    if seats is None:
        return set(range(n))
    for s in seats:
        if not isinstance(s, int) or isinstance(s, bool) or not 0 <= s < n:
            raise ValueError(f"seat must be a number from 0 to {n - 1}, not {s!r}")
    return set(seats)


def _is_choice(game: Game, action: Action) -> bool:
    """Whether the action answers a real choice the review values (not a forced card)."""
    if action.kind is Kind.BID:
        return sum(1 for a in game.legal_actions(action.seat) if a.kind is Kind.BID) > 1
    if action.kind is Kind.PLAY:
        obs = game.observation(action.seat)
        return len(equivalent_classes(obs, legal_cards(obs))) > 1
    return True


def _before_each(record: dict[str, Any]) -> Iterator[tuple[int, Action, Game]]:
    """Each legal action of the record with the game just before it (the same game, advanced in place).

    An illegal action stops the replay with the :class:`RecordError` that
    ``corazones replay`` gives (``action #k (...) is illegal: ...``).
    """
    game = Game(rules_of(record), seed_of(record))
    for i, raw in enumerate(record["actions"]):
        action = action_of(raw, i + 1)
        if game.is_legal(action):
            yield i, action, game
        try:
            game.apply(action)
        except CorazonesError as e:
            raise RecordError(
                N_("action #{number} ({action}) is illegal: {error}"), number=i + 1, action=action.describe(), error=e
            ) from None


def count_decisions(record: dict[str, Any], seats: Sequence[int] | None = None) -> int:
    """How many decisions :func:`review_record` will value (for a progress bar)."""
    record = check_shape(record)
    who = _reviewed(record, seats)
    return sum(1 for _, action, game in _before_each(record) if action.seat in who and _is_choice(game, action))


def review_record(
    record: dict[str, Any],
    seats: Sequence[int] | None = None,
    *,
    worlds: int = WORLDS,
    pass_worlds: int = PASS_WORLDS,
    hindsight: bool = True,
    progress: Callable[[int, int], None] | None = None,
    only: Collection[int] | None = None,
) -> Review:
    """Review every decision of ``seats`` (default: every seat) in a game record.

    ``worlds`` and ``pass_worlds`` are the budget (sampled deals per option);
    ``progress(done, total)`` is called after each valued decision.
    ``only`` limits the review to those action numbers (0-based, as
    :func:`decision_indexes` lists them): a long review may be split into
    parts and the parts' decisions joined with :func:`assemble`, with the
    same result, since every decision's deals depend on its number alone.
    The record is replayed with every action checked before any decision is
    valued (``RecordError`` names the first bad one); ``ValueError`` names a
    bad seat or budget.
    """
    if worlds < 1 or pass_worlds < 1:
        raise ValueError(f"worlds and pass_worlds must be at least 1, not {worlds} and {pass_worlds}")
    record = check_shape(record)
    who = _reviewed(record, seats)
    # The whole record is replayed first (a fraction of a second): an illegal action at its end is said
    # at once, not after the minutes of search spent on every decision before it.
    todo = {i for i in decision_indexes(record, sorted(who)) if only is None or i in only}
    total = len(todo)
    seed = seed_of(record)
    out: list[DecisionReview] = []
    for i, action, game in _before_each(record):
        if i in todo:
            out.append(_review_one(game, action, i, seed, worlds, pass_worlds, hindsight))
            if progress is not None:
                progress(len(out), total)
    return assemble(record, sorted(who), out, worlds, pass_worlds)


def decision_indexes(record: dict[str, Any], seats: Sequence[int] | None = None) -> list[int]:
    """The action numbers (0-based) of the decisions :func:`review_record` values."""
    record = check_shape(record)
    who = _reviewed(record, seats)
    return [i for i, action, game in _before_each(record) if action.seat in who and _is_choice(game, action)]


def assemble(
    record: dict[str, Any], seats: Sequence[int], decisions: Sequence[DecisionReview], worlds: int, pass_worlds: int
) -> Review:
    """A :class:`Review` of ``seats`` from reviewed decisions (in any order; parts of one review joined)."""
    rules = rules_of(record)
    out = sorted(decisions, key=lambda d: d.index)
    at_stake = stake(rules)
    return Review(
        tuple(out),
        tuple(_summary(s, [d for d in out if d.seat == s]) for s in sorted(seats)),
        worlds,
        pass_worlds,
        at_stake,
        "chips" if rules.settlement in ("chips_1887", "chips_pool") else "points",
    )


def _summary(seat: int, ds: list[DecisionReview]) -> SeatSummary:
    total = sum(d.loss for d in ds)
    labels = {name: sum(1 for d in ds if d.label == name) for name, _ in LABELS}
    worst = tuple(sorted((d for d in ds if d.loss > 0), key=lambda d: (-d.loss, d.index))[:3])
    return SeatSummary(seat, len(ds), total / len(ds) if ds else 0.0, total, labels, worst)


def _review_one(
    game: Game, action: Action, index: int, seed: object, worlds: int, pass_worlds: int, hindsight: bool
) -> DecisionReview:
    obs = game.observation(action.seat)
    at_stake = stake(obs.rules, obs.penalty_suit)
    base = _seed(seed, index, action.kind.value)
    hand = obs.hand_index + 1
    seat = action.seat
    if action.kind is Kind.MOON:
        vals = _value_moon(game, obs)
        ci = MOON_CHOICES.index(str(action.value))
        bi = max(range(len(vals)), key=lambda k: (round(vals[k], 9), k == ci))
        chosen_v, best_v = vals[ci], vals[bi]
        best = Action(Kind.MOON, seat, value=MOON_CHOICES[bi])
        loss = max(0.0, best_v - chosen_v)
        why: tuple[Reason, ...]
        if bi == ci or label_of(loss, at_stake) is None:
            why = (Reason(N_("the best choice")),) if bi == ci else (Reason(N_("about as good as the best choice")),)
        else:
            why = describe(obs, best)
        return DecisionReview(
            index, hand, None, seat, Kind.MOON, action, best, chosen_v, best_v, 0.0, 0.0,
            label_of(loss, at_stake), why, 2, 0,
        )  # fmt: skip
    if action.kind is Kind.PLAY:
        groups, tallies = value_cards(obs, action.cards[0], worlds, base)
        options: list[Action] = [Action.play(seat, g[0]) for g in groups]
        chosen_opt = next(i for i, g in enumerate(groups) if action.cards[0] in g)
        n = worlds
    elif action.kind is Kind.PASS:
        cands, tallies = _value_pass(obs, action.cards, pass_worlds, base)
        options = [Action.pass_cards(seat, c) for c in cands]
        chosen_opt = cands.index(sorted(action.cards))
        n = pass_worlds
    elif action.kind is Kind.BID:
        assert isinstance(action.value, int)
        amounts, tallies = _value_bid(obs, action.value, worlds, base)
        options = [Action(Kind.BID, seat, value=b) for b in amounts]
        chosen_opt = amounts.index(action.value)
        n = worlds
    else:  # DECLARE
        assert isinstance(action.value, int)
        tallies = _value_declare(obs, action.value, worlds, base)
        options = [Action(Kind.DECLARE, seat, value=s) for s in range(4)]
        chosen_opt = action.value
        n = worlds
    # the best among the options scored on the whole budget (the race's survivors)
    most = max(t.n for t in tallies)
    finalists = [k for k in range(len(options)) if tallies[k].n == most]
    bi = max(finalists, key=lambda k: (round(tallies[k].mean(), 9), k == chosen_opt, -k))
    tc, tb = tallies[chosen_opt], tallies[bi]
    loss = max(0.0, tb.mean() - tc.mean())
    best = action if bi == chosen_opt else options[bi]
    why = _why(obs, action.kind, action, best, tc, tb, loss, at_stake)
    look = None
    if hindsight and action.kind is Kind.PLAY:
        look = _hindsight(game, obs, [a.cards[0] for a in options], chosen_opt)
        if look.best.cards[0] == options[chosen_opt].cards[0]:
            look = Hindsight(action, look.chosen_value, look.best_value)
    return DecisionReview(
        index,
        hand,
        len(obs.tricks) + 1 if action.kind is Kind.PLAY else None,
        seat,
        action.kind,
        action,
        best,
        tc.mean(),
        tb.mean(),
        tc.mean_points(),
        tb.mean_points(),
        label_of(loss, at_stake),
        why,
        len(options),
        n,
        look,
    )


def format_action(a: Action, card: Callable[[int], str] = card_str) -> str:
    """A short English-free rendering of an option: the card, the passed cards, the suit letter or the moon choice."""
    if a.kind in (Kind.PLAY, Kind.PASS):
        return " ".join(card(c) for c in a.cards)
    return str(a.to_json()[a.kind.value])
