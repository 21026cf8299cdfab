"""``expert``: search over the hidden cards (perfect-information Monte Carlo).

For a card to play, the expert draws deals consistent with everything it has
seen (:class:`~corazones.players.belief.Belief`, which also reads what sensible
discards reveal), rebuilds each one as a :class:`~corazones.core.deal.Deal`
and, for every legal card, plays the hand to its end with the fast mask policy
of :mod:`corazones.players.rollout` for every seat (with ``reply=True`` the
other seats first finish the trick on the table as the ``standard`` player
would; that costs time and measured no better).  All cards are tried on the same sampled
deals, so their comparison is not blurred by the luck of the sample.  Cards
that are interchangeable (no unseen card ranks between them, same value) are
tried once.  Optionally (``shoot=True``) each card is also tried with a plan
to shoot the moon, and the better plan kept; it is off by default because
the playouts' defenders are weaker than real ones, so it overrates the moon.

Each finished playout is scored for the whole game, not just the hand
(:class:`Scorer`): the hand's points after the moon rule (the shooter of a
playout picks the better moon option for itself), points given to the match
leader count a little in our favour, and when the hand can end the game the
playout also counts whether we would win or lose it.  Chip settlements score
the chips won or lost.

Naming the penalty suit is simulated the same way over the four suits
(``choose_declare``).  The pass is the ``standard`` player's; with
``pass_worlds > 0`` a few candidate passes are simulated instead, which needs
far more deals than a move to tell passes apart (at 24 deals it chose worse
than the standard pass).  Bids are the ``standard`` player's, and the moon
choice is :func:`~corazones.players.base.best_moon_choice`.

Budgets.  ``worlds`` sampled deals per decision is the iteration budget: with
the same seed and no time limit hit, the expert makes exactly the same moves.
``time_limit`` (seconds of wall clock, ``None`` for none) stops sampling
early; then the moves may depend on the machine's speed.  The defaults keep
a move well under a second on one core (see ``bench/expert.py``).

Both cores.  ``workers=2`` evaluates every other deal in a second process (a
persistent pool created on first use and shut down with :func:`close_pools`
or at exit).  The answer is the same as with one worker.  The arena already
runs one bot per process, so the registry's ``expert`` uses ``workers=1``;
an interactive face playing one human against bots may pass ``workers=2``.
"""

from __future__ import annotations

import atexit
import math
import random
import time
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

from corazones.core.actions import MOON_CHOICES, Action, Kind
from corazones.core.cards import card_str, mask_cards
from corazones.core.deal import MOON, PLAY, Deal
from corazones.core.observation import Observation
from corazones.core.scoring import settle_chips_1887, settle_chips_pool
from corazones.players import standard
from corazones.players.base import Bot, legal_cards
from corazones.players.belief import Belief
from corazones.players.rollout import Context, pass_choice, play_out

#: Weight of points that other sides take, relative to our own (shared out by match standing).
OTHERS_WEIGHT = 0.15
#: Share of the penalty points one seat must have taken before the playouts' others defend against a moon
#: (more than half, when careful players start to worry; waiting for two thirds overrated moons).
DEFEND_SHARE = 0.51
#: What winning (or losing) the game is worth, in hand points, when a playout ends it.
GAME_WEIGHT = 30.0


@dataclass(frozen=True, slots=True)
class SearchResult:
    """What a search found: the move, every candidate's mean value and how many deals it saw."""

    choice: int
    values: dict[int, float]
    points: dict[int, float]
    worlds: int


class Scorer:
    """The value of a finished hand for one seat, in the light of the whole game."""

    __slots__ = ("bid", "final", "match", "pool", "rules", "settlement", "target", "teams")

    def __init__(self, obs: Observation) -> None:
        r = obs.rules
        self.rules = r
        self.settlement = r.settlement
        self.teams = r.teams
        self.match = [sum(obs.scores[s] for s in t) for t in r.teams]
        self.target = r.target
        self.final = r.hands is not None and obs.hand_index + 1 >= r.hands
        self.pool = obs.pool
        bids = [b for _, b in obs.bids if b]
        # while bidding, the bid is weighed by the caller; afterwards it is paid by the declarer
        self.bid = max(bids) if bids and obs.declarer is not None and obs.phase != "bid" else 0

    def settle_moon(self, d: Deal) -> None:
        """A playout that ended with the moon choice: the shooter takes the better option."""
        if d.phase != MOON:
            return
        shooter = d.turn
        best = MOON_CHOICES[0]
        bv = -math.inf
        for choice in MOON_CHOICES:
            d.moon_choice = choice
            v = self.value(d, shooter)
            if v > bv:
                bv, best = v, choice
        d.moon_choice = best
        d.phase = "done"

    def hand_points(self, d: Deal, seat: int) -> float:
        """Points (or chips lost) of ``seat``'s side in this hand: lower is better."""
        if self.settlement == "chips_1887":
            return -settle_chips_1887(d.pts, self.pool).delta[seat]
        if self.settlement == "chips_pool":
            return -settle_chips_pool(d.pen_count, self.pool, self.bid, d.declarer).delta[seat]
        hs = d.hand_scores()
        return float(sum(hs[s] for s in self.teams[self.rules.team_of(seat)]))

    def value(self, d: Deal, seat: int) -> float:
        """Higher is better for ``seat``."""
        if self.settlement == "chips_1887":
            return float(settle_chips_1887(d.pts, self.pool).delta[seat])
        if self.settlement == "chips_pool":
            return float(settle_chips_pool(d.pen_count, self.pool, self.bid, d.declarer).delta[seat])
        hs = d.hand_scores()
        teams = self.teams
        me = self.rules.team_of(seat)
        hand = [sum(hs[s] for s in t) for t in teams]
        after = [self.match[i] + hand[i] for i in range(len(teams))]
        u = -float(hand[me])
        others = [i for i in range(len(teams)) if i != me]
        if not others:
            return u
        # points dumped on the side best placed to win help us more than on the others
        best_other = min(self.match[i] for i in others)
        wsum = 0.0
        acc = 0.0
        for i in others:
            w = 2.0 if self.match[i] == best_other else 1.0
            wsum += w
            acc += w * hand[i]
        u += OTHERS_WEIGHT * len(others) * acc / wsum
        ends = self.final or (self.target is not None and max(after) >= self.target)
        if ends:
            low = min(after)
            if after[me] == low:
                if sum(1 for a in after if a == low) == 1 or self.rules.tie_break == "shared":
                    u += GAME_WEIGHT
            else:
                u -= GAME_WEIGHT
        return u


# ---------------------------------------------------------------- evaluation
# Each evaluator scores deals number ``idx`` (drawn from ``random.Random(base + i)``)
# in order and stops after the deal that passes ``deadline``; it runs in this
# process or in a helper process, which rebuilds the belief from the observation.


def _eval_play(
    obs: Observation,
    idx: list[int],
    base: int,
    task: tuple[list[int], list[int], bool, bool],
    deadline: float | None,
) -> list[tuple[list[float], list[float]]]:
    """For each deal: every (plan, move)'s value and our hand points after it.

    A plan is the seat the playout lets shoot the moon from the start (-1: play
    safe, the usual plan; our own seat: try to take every penalty card).
    """
    moves, plans, infer, reply = task
    belief = Belief(obs, infer)
    scorer = Scorer(obs)
    me = obs.seat
    out = []
    for i in idx:
        w = belief.sample(random.Random(base + i))
        start = Deal.from_observation(obs, w.hands, w.kitty)
        ctx = Context(start)
        vals = []
        pts = []
        for plan in plans:
            for m in moves:
                d = start.clone()
                d.play_card(m)
                if reply:
                    _answer_trick(obs, d)
                play_out(d, ctx, plan, DEFEND_SHARE)
                scorer.settle_moon(d)
                vals.append(scorer.value(d, me))
                pts.append(scorer.hand_points(d, me))
        out.append((vals, pts))
        if deadline is not None and time.monotonic() > deadline:
            break
    return out


def _answer_trick(obs: Observation, d: Deal) -> None:
    """The other seats finish the trick on the table as the ``standard`` player would.

    The cards played right after ours decide who takes the trick, so they are
    worth a careful player's judgement; later tricks use the fast policy.
    Each seat judges from what it would see in this sampled deal.
    """
    me = obs.seat
    while d.trick_cards and d.phase == PLAY and d.turn != me:
        d.play_card(standard.play(_seat_view(obs, d, d.turn)))


def _seat_view(obs: Observation, d: Deal, seat: int) -> Observation:
    """What ``seat`` would observe in the sampled deal ``d`` (its own pass is not modelled)."""
    legal = d.legal_mask(seat)
    return Observation(
        seat=seat,
        rules=obs.rules,
        hand_index=obs.hand_index,
        dealer=obs.dealer,
        phase=PLAY,
        to_act=(seat,),
        decision=Kind.PLAY,
        legal=tuple(Action(Kind.PLAY, seat, (c,)) for c in mask_cards(legal)),
        hand=tuple(d.hand(seat)),
        hand_sizes=tuple(d.hand_count(s) for s in range(d.n)),
        pass_direction=obs.pass_direction,
        pass_to=None,
        passed=None,
        received=None,
        received_from=None,
        bids=obs.bids,
        declarer=d.declarer,
        penalty_suit=d.penalty_suit,
        tricks=tuple(d.tricks),
        trick_leader=d.leader,
        trick=tuple(zip(d.trick_seats, d.trick_cards)),
        turn=seat,
        hearts_broken=d.broken,
        points_taken=tuple(d.pts),
        kitty_size=len(d.kitty),
        kitty_owner=d.kitty_owner,
        scores=obs.scores,
        chips=obs.chips,
        pool=obs.pool,
        history=obs.history,
        game_over=False,
        winners=(),
    )


def _play_from_start(
    obs: Observation, scorer: Scorer, hands: list[list[int]], kitty: list[int], suit: int, declarer: int | None
) -> tuple[float, float]:
    d = Deal.at_play(obs.rules, hands, kitty, obs.dealer, suit, declarer)
    play_out(d, Context(d))
    scorer.settle_moon(d)
    return scorer.value(d, obs.seat), scorer.hand_points(d, obs.seat)


def _eval_pass(
    obs: Observation, idx: list[int], base: int, candidates: list[list[int]], deadline: float | None
) -> list[tuple[list[float], list[float]]]:
    """For each deal: the hand played out after each candidate pass (the others pass by the quick rule)."""
    belief = Belief(obs)
    scorer = Scorer(obs)
    r = obs.rules
    n = r.players
    off = r.pass_offset(obs.pass_direction)
    count = r.pass_count
    vals_t = obs.card_values
    out = []
    for i in idx:
        w = belief.sample(random.Random(base + i))
        theirs = [pass_choice(w.hands[s], count, vals_t, obs.penalty_suit) for s in range(n)]
        vals = []
        pts = []
        for cand in candidates:
            hands = [list(h) for h in w.hands]
            passes = list(theirs)
            passes[obs.seat] = cand
            for s in range(n):
                for c in passes[s]:
                    hands[s].remove(c)
            for s in range(n):
                hands[(s + off) % n].extend(passes[s])
            v, p = _play_from_start(obs, scorer, hands, w.kitty, obs.penalty_suit, obs.declarer)
            vals.append(v)
            pts.append(p)
        out.append((vals, pts))
        if deadline is not None and time.monotonic() > deadline:
            break
    return out


def _eval_auction(
    obs: Observation, idx: list[int], base: int, options: list[tuple[int, int | None]], deadline: float | None
) -> list[tuple[list[float], list[float]]]:
    """For each deal: the hand played out under each (penalty suit, declarer) option."""
    belief = Belief(obs)
    scorer = Scorer(obs)
    out = []
    for i in idx:
        w = belief.sample(random.Random(base + i))
        vals = []
        pts = []
        for suit, declarer in options:
            v, p = _play_from_start(obs, scorer, w.hands, w.kitty, suit, declarer)
            vals.append(v)
            pts.append(p)
        out.append((vals, pts))
        if deadline is not None and time.monotonic() > deadline:
            break
    return out


_Row = tuple[list[float], list[float]]
_Evaluator = Callable[..., list[_Row]]
_POOLS: dict[int, Executor] = {}


def _pool(workers: int) -> Executor:
    ex = _POOLS.get(workers)
    if ex is None:
        import multiprocessing

        ex = ProcessPoolExecutor(max_workers=workers - 1, mp_context=multiprocessing.get_context("spawn"))
        _POOLS[workers] = ex
    return ex


@atexit.register
def close_pools() -> None:
    """Stop the helper processes (also run at interpreter exit)."""
    for ex in _POOLS.values():
        ex.shutdown(wait=True, cancel_futures=True)
    _POOLS.clear()


def may_shoot(obs: Observation) -> bool:
    """Whether trying to shoot the moon is worth simulating: nobody else has penalty points and the hand is high."""
    r = obs.rules
    if r.moon == "off" or not any(v > 0 for v in obs.card_values):
        return False
    vals = obs.card_values
    for t in obs.tricks:
        if t.winner is not None and t.winner != obs.seat and any(vals[c] > 0 for _, c in t.plays):
            return False
    high = sum(1 for c in obs.hand if c % 13 >= 9)
    return 5 * high >= 2 * len(obs.hand)


def _best_plan(rows: list[_Row], moves: int, plans: int) -> list[_Row]:
    """Keep, for each move, the plan with the best mean over all deals: a plan is chosen, not guessed per deal."""
    if not rows:
        return rows
    best = []
    for m in range(moves):
        means = [sum(r[0][p * moves + m] for r in rows) for p in range(plans)]
        best.append(max(range(plans), key=lambda p: (means[p], -p)))
    return [
        ([v[best[m] * moves + m] for m in range(moves)], [q[best[m] * moves + m] for m in range(moves)])
        for v, q in rows
    ]


def equivalent_classes(obs: Observation, cards: list[int]) -> list[list[int]]:
    """Group legal cards that play the same: same suit and value, no unseen card between them.

    Cards in the trick on the table still count as between (they decide who
    wins); with two decks identical cards cancel, so nothing is merged there.
    """
    if obs.rules.decks == 2:
        return [[c] for c in sorted(set(cards))]
    gone = 0
    for t in obs.tricks:
        for _, c in t.plays:
            gone |= 1 << c
    mine = 0
    for c in obs.hand:
        mine |= 1 << c
    vals = obs.card_values
    groups: list[list[int]] = []
    for c in sorted(set(cards)):
        if groups:
            prev = groups[-1][-1]
            if prev // 13 == c // 13 and vals[prev] == vals[c]:
                between = ((1 << c) - 1) & ~((1 << (prev + 1)) - 1)
                if not between & ~gone & ~mine:
                    groups[-1].append(c)
                    continue
        groups.append([c])
    return groups


class ExpertBot(Bot):
    """Searches over sampled deals; see the module text for budgets and workers."""

    name = "expert"

    def __init__(
        self,
        seed: int | str | None = None,
        *,
        worlds: int = 40,
        time_limit: float | None = 0.8,
        workers: int = 1,
        pass_worlds: int = 0,
        infer: bool = True,
        shoot: bool = False,
        reply: bool = False,
    ) -> None:
        super().__init__(seed)
        if worlds < 1:
            raise ValueError(f"worlds must be at least 1, not {worlds}")
        if workers < 1:
            raise ValueError(f"workers must be at least 1, not {workers}")
        if time_limit is not None and time_limit <= 0:
            raise ValueError(f"time_limit must be positive seconds or None, not {time_limit}")
        self.worlds = worlds
        self.time_limit = time_limit
        self.workers = workers
        self.pass_worlds = pass_worlds
        self.infer = infer
        self.auction_worlds = 32
        self.shoot = shoot
        self.reply = reply
        self.last: SearchResult | None = None
        self.last_reason = ""

    # ------------------------------------------------------------- search
    def _deadline(self) -> float | None:
        return None if self.time_limit is None else time.monotonic() + self.time_limit

    def _run(self, fn: _Evaluator, obs: Observation, count: int, extra: Any) -> list[_Row]:
        """Evaluate ``count`` sampled deals with ``fn``, split over the workers, results in deal order.

        Each worker gets every ``k``-th world; when the time limit cuts a worker
        short, results stop at the first world that was not finished, so the
        worlds used are always a prefix of the sample.
        """
        deadline = self._deadline()
        base = self.rng.getrandbits(64)
        items = list(range(count))
        if self.workers <= 1 or count < 2 * self.workers:
            return fn(obs, items, base, extra, deadline)
        ex = _pool(self.workers)
        k = self.workers
        chunks = [items[i::k] for i in range(k)]
        futures = [ex.submit(fn, obs, ch, base, extra, deadline) for ch in chunks[1:]]
        parts = [fn(obs, chunks[0], base, extra, deadline)] + [f.result() for f in futures]
        out: list[_Row] = []
        for i in range(count):
            part = parts[i % k]
            j = i // k
            if j >= len(part):
                break
            out.append(part[j])
        return out

    def search(self, obs: Observation) -> SearchResult:
        """Evaluate every distinct legal card of ``obs`` (a play decision) on sampled deals."""
        legal = legal_cards(obs)
        groups = equivalent_classes(obs, legal)
        moves = [g[0] for g in groups]
        prior = self._policy_card(obs)
        if len(moves) == 1:
            return SearchResult(moves[0] if prior not in groups[0] else prior, {}, {}, 0)
        plans = [-1, obs.seat] if self.shoot and may_shoot(obs) else [-1]
        rows = self._run(_eval_play, obs, self.worlds, (moves, plans, self.infer, self.reply))
        if len(plans) > 1:
            rows = _best_plan(rows, len(moves), len(plans))
        return self._pick(moves, rows, groups, prior)

    def _pick(self, moves: list[int], rows: list[_Row], groups: list[list[int]] | None, prior: int) -> SearchResult:
        n = len(rows)
        tv = [0.0] * len(moves)
        tp = [0.0] * len(moves)
        for vals, pts in rows:
            for i in range(len(moves)):
                tv[i] += vals[i]
                tp[i] += pts[i]
        mean_v = {m: tv[i] / max(n, 1) for i, m in enumerate(moves)}
        mean_p = {m: tp[i] / max(n, 1) for i, m in enumerate(moves)}
        pri = 0
        if groups is not None:
            for i, g in enumerate(groups):
                if prior in g:
                    pri = i
        # ties go to the policy's own choice, then to the lower card
        best = max(range(len(moves)), key=lambda i: (round(mean_v[moves[i]], 9), i == pri, -i))
        choice = moves[best]
        if groups is not None:
            for i, g in enumerate(groups):
                for c in g[1:]:
                    mean_v[c] = mean_v[moves[i]]
                    mean_p[c] = mean_p[moves[i]]
            if prior in groups[best]:
                choice = prior
        return SearchResult(choice, mean_v, mean_p, n)

    def _policy_card(self, obs: Observation) -> int:
        """The ``standard`` player's card for ``obs``: the search's tie-break."""
        return standard.play(obs)

    # ---------------------------------------------------------- decisions
    def choose_play(self, obs: Observation) -> int:
        res = self.search(obs)
        self.last = res
        self.last_reason = _reason(obs, res)
        return res.choice

    def choose_pass(self, obs: Observation) -> list[int]:
        r = obs.rules
        hand = list(obs.hand)
        count = r.pass_count
        candidates = _pass_candidates(obs, hand, count)
        if len(candidates) == 1 or self.pass_worlds <= 0:
            self.last_reason = "passes as the standard player does: its most dangerous cards"
            return candidates[0]
        rows = self._run(_eval_pass, obs, self.pass_worlds, candidates)
        idx = list(range(len(candidates)))
        res = self._pick(idx, rows, None, 0)
        self.last_reason = (
            f"passes {' '.join(card_str(c) for c in candidates[res.choice])}: "
            f"about {res.points[res.choice]:.1f} points expected over {res.worlds} deals"
        )
        return candidates[res.choice]

    def _auction_values(self, obs: Observation, suits: list[int], declarer: int | None) -> list[float]:
        options = [(suit, declarer) for suit in suits]
        rows = self._run(_eval_auction, obs, self.auction_worlds, options)
        res = self._pick(list(range(len(suits))), rows, None, 0)
        return [res.values[i] for i in range(len(suits))]

    def choose_declare(self, obs: Observation) -> int:
        vals = self._auction_values(obs, [0, 1, 2, 3], obs.seat)
        best = max(range(4), key=lambda s: (vals[s], s == 3))
        self.last_reason = f"names the suit it expects to cost it least ({vals[best]:+.1f} chips)"
        return best

    def choose_bid(self, obs: Observation) -> int:
        """The ``standard`` player's bid: the value of naming the suit is judged from the hand alone."""
        self.last_reason = "bids as the standard player does"
        return standard.bid(obs)

    def close(self) -> None:
        """Stop helper processes this bot's searches started."""
        close_pools()


def _pass_candidates(obs: Observation, hand: list[int], count: int) -> list[list[int]]:
    """A handful of sensible passes: the quick heuristic's, variations of it, ``standard``'s."""
    vals = obs.card_values
    main = pass_choice(hand, count, vals, obs.penalty_suit)
    out = [sorted(main)]
    theirs = sorted(standard.pass_cards(obs))
    if theirs in out:
        out.remove(theirs)
    out.insert(0, theirs)  # ties go to the standard player's pass
    # swap the last chosen card for each of the next best ones
    ranked = pass_choice(hand, len(hand), vals, obs.penalty_suit)
    for alt in ranked[count : count + 3]:
        for k in range(count):
            cand = sorted([*main[:k], *main[k + 1 :], alt])
            if cand not in out and len(out) < 6:
                out.append(cand)
    return out


def _reason(obs: Observation, res: SearchResult) -> str:
    if not res.values:
        return f"{card_str(res.choice)} is the only sensible card"
    pts = res.points
    best = pts[res.choice]
    alts = sorted((v, m) for m, v in pts.items() if res.values[m] != res.values[res.choice])
    text = f"{card_str(res.choice)}: about {best:.1f} points expected over {res.worlds} sampled deals"
    if alts:
        v, m = alts[0]
        text += f" (next best {card_str(m)}: {v:.1f})"
    return text


__all__ = ["PLAY", "ExpertBot", "Scorer", "SearchResult", "equivalent_classes"]
