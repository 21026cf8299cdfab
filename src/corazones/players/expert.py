"""``expert``: search over the hidden cards (perfect-information Monte Carlo).

For a card to play, the expert draws deals consistent with everything it has
seen (:class:`~corazones.players.belief.Belief`), rebuilds each one as a :class:`~corazones.core.deal.Deal`
and, for every legal card, plays the hand to its end with the fast mask policy
of :mod:`corazones.players.rollout` for every seat
(:mod:`corazones.players.search` holds that per-deal work, compiled with the
engine).  All cards are tried on the same sampled deals, so their comparison
is not blurred by the luck of the sample.  Cards that are interchangeable (no
unseen card ranks between them, same value) are tried once.  (Weighing each
deal by how well the policy explains the others' cards so far measured no
better than the plain mean; so did reading what sensible discards reveal,
``infer=True``, dealing the hidden cards as the pass suggests,
``pass_prior=True``, and playing the playouts with the weights the policy's
own duel set, ``policy="duel"``, which are therefore off by default.)  When the ``standard``
player would play for the moon (nobody else has a point and its cards can
take the rest), the expert follows that plan without searching: the
playouts cannot tell a sure moon from a likely one.  Optionally (``shoot=True``) each card is also
tried with a plan to shoot the moon, and the better plan kept; it is off by
default because the playouts' defenders are weaker than real ones, so it
overrates the moon.

Moon defence.  ``standard``'s moon alarm (a seat alone has taken the points
so far, or has won every trick from the start; set here for the search, from
a lone taker's first point and a seat's second trick, see ``WATCH``) names a
seat and a level between 0 and 1.  On that share of the sampled deals the seat holds the high cards of its
suits (:meth:`~corazones.players.belief.Belief.tilt`: a real shooter has
them), plays for the moon, and the others defend against it from the start
(``watch`` in :func:`~corazones.players.rollout.play_out`); on the rest it
is an ordinary seat.  So the search sees what letting a shot through costs
and values the card that stops it (a king of the shooter's long suit, the
last high heart), without paying for moons nobody is shooting.
``watch=False`` turns this off.

Each finished playout is scored for the whole game, not just the hand
(:class:`~corazones.players.search.Scorer`): the hand's points after the moon
rule (the shooter of a playout picks the better moon option for itself),
points given to the match leader count a little in our favour, and when the
hand can end the game the playout also counts whether we would win or lose
it.  A moon is priced by the points it moves and nothing more, which for
another seat's moon is about a seventh of what it costs a defender at the
table (the shooter mostly subtracts 26 from itself, and other seats' points
weigh 0.15 of ours, ``others_weight``).  ``moon_charge`` adds a share of the moon's points to
every playout that ends in another side's moon, and ``stoppers`` has the
playouts' defenders keep their high cards under the shooter's; against a
pair of ``moonshot`` players half a moon's charge with stoppers cut the
moons suffered from 14.8% to 8.6% of 500 deals, but cost 0.37 points a deal
against ``standard`` (400 boards; see ``docs/bots.md``), so both are off by
default.  Chip settlements score the chips won or lost.

The pass is simulated the same way: eight sensible candidates (the
``standard`` player's pass, the quick rule's, and one-card changes to them)
are each played out on ``pass_worlds`` deals, the other seats passing as the
``standard`` player would with their sampled hands; ``pass_worlds=0`` passes
as ``standard`` does.  Telling passes
apart needs far more deals than a move (at 24 deals it chose worse than the
standard pass, at 300 clearly better).  Naming the penalty suit is simulated
over the four suits (``choose_declare``).  Bids are the ``standard``
player's, and the moon choice is :func:`~corazones.players.base.best_moon_choice`.

Budgets.  ``worlds`` (and ``pass_worlds``) sampled deals per option is the
iteration budget: with the same seed and no time limit hit, the expert makes
exactly the same moves.  The budget is spent as a race: every option is
scored on the first quarter of the deals, and after each quarter an option
whose deficit to the leader, paired over the same deals, is beyond chance
drops out.  An obvious move thus costs a quarter of the budget and a close
call gets all of it (with ``shoot=True``, each card sees the whole budget
under both plans).  While the moon watch names a seat the budget is
``WATCH_WORLDS`` times larger: a stopper's worth shows only on the few deals
where that seat shoots.  ``time_limit`` (seconds of wall clock, ``None`` for
none) stops sampling early; then the moves may depend on the machine's speed.
The defaults keep a move well under a second on one core with the compiled
build (see ``bench/expert.py``); pure Python is about five times slower, so
there the time limit cuts the search more often.

Both cores.  ``workers=2`` evaluates every other deal in a second process (a
persistent pool created on first use and shut down with :func:`close_pools`
or at exit).  The answer is the same as with one worker.  The arena already
runs one bot per process, so the registry's ``expert`` uses ``workers=1``;
an interactive face playing one human against bots may pass ``workers=2``.

A tree instead of playouts.  ``tree=True`` chooses each card by one search
tree shared by every sampled deal (:meth:`ExpertBot._tree`,
:func:`~corazones.players.search.tree_deal`): the others' replies and our own
later cards are chosen where the tree has seen a position often enough,
and played out by the policy elsewhere.  Head to head it was level with
the flat search for 70% more time, so it is off (``docs/bots.md``).
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

from corazones.core.cards import card_str
from corazones.core.deal import PLAY
from corazones.core.observation import Observation
from corazones.players import standard
from corazones.players.base import Bot, legal_cards
from corazones.players.belief import Belief
from corazones.players.heuristics import View
from corazones.players.pass_prior import pass_prior
from corazones.players.rollout import POLICIES, pass_choice
from corazones.players.search import (
    OTHERS_WEIGHT,
    Row,
    Scorer,
    TreeNode,
    eval_auction,
    eval_pass,
    eval_pass_plans,
    eval_plans,
    eval_play,
    tree_deal,
)


@dataclass(frozen=True, slots=True)
class SearchResult:
    """What a search found: the move, every candidate's mean value and how many deals it saw."""

    choice: int
    values: dict[int, float]
    points: dict[int, float]
    worlds: int
    #: the card follows the ``standard`` player's plan to shoot the moon (no search)
    moon: bool = False


# ---------------------------------------------------------------- evaluation
def _evaluate(
    kind: str,
    obs: Observation,
    idx: list[int],
    base: int,
    args: tuple[Any, ...],
    infer: bool,
    deadline: float | None,
    watch: tuple[int, float] = (-1, 0.0),
    style: tuple[float, bool, str, float] = (0.0, False, "hand", OTHERS_WEIGHT),
    prior: bool = False,
) -> list[Row]:
    """Score deals number ``idx`` (drawn from ``random.Random(base + i)``) with the evaluator ``kind``.

    It goes through the deals in order and stops after the one that passes
    ``deadline``.  It runs in this process or in a helper process, which
    rebuilds the belief from the observation.  All options are scored on the
    same deals, so their comparison is not blurred by the luck of the sample.
    ``watch`` is a seat suspected of shooting the moon and the chance that
    it is: on that share of the deals it holds the high cards of its suits
    (:meth:`Belief.tilt`) and the playouts let it shoot while the others
    defend (the evaluator's ``watch``); on the rest it is an ordinary seat.
    ``style`` is the scorer's ``(moon_charge, stoppers)``, the name of the
    playouts' weights (:data:`POLICIES`) and the scorer's ``others_weight``; ``prior`` deals
    the hidden cards as the pass suggests (:func:`pass_prior`).
    """
    per_deal = _EVALUATORS[kind]
    belief = Belief(obs, infer, pass_prior(obs) if prior else None)
    charge, stoppers, policy, others = style
    scorer = Scorer(obs, charge, stoppers, POLICIES[policy], others)
    out = []
    seat, chance = watch
    for i in idx:
        rng = random.Random(base + i)
        world = belief.sample(rng)
        if seat >= 0 and rng.random() < chance:
            out.append(per_deal(obs, scorer, belief.tilt(world, seat), *args, seat))
        else:
            out.append(per_deal(obs, scorer, world, *args))
        if deadline is not None and time.monotonic() > deadline:
            break
    return out


#: Per-deal evaluators by name (a name crosses to helper processes).
_EVALUATORS: dict[str, Callable[..., Row]] = {
    "play": eval_play,
    "pass": eval_pass,
    "auction": eval_auction,
    "plans": eval_plans,
    "pass_plans": eval_pass_plans,
}
_POOLS: dict[int, Executor] = {}
#: Rounds of a race (:meth:`ExpertBot._race`): all options see the first ``budget // RACE_ROUNDS`` deals.
RACE_ROUNDS = 4
#: Standard errors of paired deficit after which an option drops out of a race.
RACE_Z = 2.0
#: When the playouts treat a seat as shooting the moon (:meth:`ExpertBot._watch`).  The share of the points
#: counts from the first point a lone taker has (a seat that alone took the Q♠ is a shooter on five deals in
#: six, one that took one heart on one in sixteen), since a playout shooter plays every card high and a
#: false alarm misleads the whole search, where a heuristic defender only pays for the one card.  Control
#: counts from the second trick a seat has won from the start, a quarter more each trick: a shooter
#: leads its winners at once, and by the time it has won three tricks a defender has often thrown it
#: the Q♠ (see ``docs/bots.md``).
WATCH = standard.Params(defend_lo=0.0, defend_hi=0.6, control_from=2, control_step=0.25)
#: Times the sampled deals of a card while the watch names a seat.  Whether a card stops a moon shows on
#: the few tilted deals where the seat shoots: at 400 deals the search missed stoppers that 1,600 found,
#: and the moons suffered against shooters fell by a quarter (see ``docs/bots.md``).
WATCH_WORLDS = 4
#: Exploration of the tree search (``ExpertBot(tree=True)``): UCB1's constant, in units of the deal's penalty points.
TREE_EXPLORE = 0.3
#: Visits below which a position of the tree below the root is a leaf, played out by the policy (0: never).  With
#: every position choosing its cards (0, exploring at 0.7) the tree search was a point a deal worse than the flat
#: one; with 40 (and 0.3) it was level with it, -0.02 points a deal (-0.35 to +0.31) over 1,000 boards, for 70%
#: more time, so the tree is off by default (``docs/bots.md``).
TREE_FOLLOW = 40
#: Extra cost of a playout that ends with another side's moon, as a share of the moon's points (:class:`Scorer`).
#: Off: half a moon cut the moons suffered against ``moonshot`` players by 40% and cost 0.37 points a deal
#: against ``standard`` (see ``docs/bots.md``).
MOON_CHARGE = 0.0
#: Whether the playouts' defenders, unable to beat the shooter's card, keep their high cards (``rollout.Context``).
#: Off: alone it let 28 moons of 200 deals through against ``moonshot`` players, against 29, and measured -0.23
#: points a deal against ``standard``.
STOPPERS = False
#: Whether the sampled deals follow what the pass tells (:mod:`corazones.players.pass_prior`).
#: Off: it places the high cards far better, but measured +0.06 points a deal (-0.25 to +0.37) head to head
#: over 1,000 boards and +0.07 against ``standard`` over 400 (see ``docs/bots.md``).
PASS_PRIOR = False
#: The weights the playouts play by (``rollout.POLICIES``).  ``"duel"``, set by the policy's duel, makes a
#: better player but measured no stronger search: +0.12 points a deal (-0.10 to +0.34) head to head over 2,000
#: boards, +0.11 against ``standard`` over 200 (see ``docs/bots.md``).
PLAYOUT_POLICY = "hand"


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


def _best_plan(rows: list[Row], moves: int, plans: int) -> list[Row]:
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
        worlds: int = 400,
        time_limit: float | None = 0.8,
        workers: int = 1,
        pass_worlds: int = 800,
        pass_candidates: int = 8,
        infer: bool = False,
        shoot: bool = False,
        watch: bool = True,
        solve: int = 0,
        moon_charge: float = MOON_CHARGE,
        stoppers: bool = STOPPERS,
        pass_prior: bool = PASS_PRIOR,
        policy: str = PLAYOUT_POLICY,
        others_weight: float = OTHERS_WEIGHT,
        tree: bool = False,
        tree_explore: float = TREE_EXPLORE,
        tree_follow: int = TREE_FOLLOW,
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
        self.pass_candidates = pass_candidates
        self.infer = infer
        self.auction_worlds = 200
        self.shoot = shoot
        self.watch = watch
        if solve < 0:
            raise ValueError(f"solve must be 0 (off) or the cards a hand may hold, not {solve}")
        self.solve = solve
        if moon_charge < 0:
            raise ValueError(f"moon_charge must be a share of the moon's points, 0 or more, not {moon_charge}")
        if policy not in POLICIES:
            raise ValueError(f"policy must be one of {', '.join(sorted(POLICIES))}, not {policy!r}")
        if others_weight < 0:
            raise ValueError(
                f"others_weight must be 0 or more (0.15: another's point is 0.15 of ours), not {others_weight}"
            )
        #: the scorer's extra cost of another side's moon, whether the playouts' defenders keep stoppers,
        #: the name of the weights the playouts' policy plays by, and the weight of others' points
        self.style = (float(moon_charge), stoppers, policy, float(others_weight))
        #: search the cards by a tree over every sampled deal (:meth:`_tree`) instead of one playout per card and deal
        self.tree = tree
        if tree_explore <= 0:
            raise ValueError(f"tree_explore must be positive (UCB1's constant, in penalty points), not {tree_explore}")
        #: the tree's exploration (UCB1's constant, in units of the deal's penalty points)
        self.tree_explore = tree_explore
        if tree_follow < 0:
            raise ValueError(f"tree_follow must be 0 or more visits, not {tree_follow}")
        #: visits below which a position of the tree (not the root) is a leaf, played out by the policy
        self.tree_follow = tree_follow
        #: deal the hidden cards as the pass suggests (each seat kept its safe cards and was passed dangerous ones)
        self.pass_prior = pass_prior
        self.last: SearchResult | None = None
        self.last_reason = ""

    # ------------------------------------------------------------- search
    def _deadline(self) -> float | None:
        return None if self.time_limit is None else time.monotonic() + self.time_limit

    def _run(
        self,
        kind: str,
        obs: Observation,
        count: int,
        args: tuple[Any, ...],
        infer: bool = False,
        *,
        start: int = 0,
        base: int | None = None,
        deadline: float | None = None,
        watch: tuple[int, float] = (-1, 0.0),
    ) -> list[Row]:
        """Evaluate deals ``start .. start+count-1`` with evaluator ``kind``, split over the workers, in order.

        Deal ``i`` is drawn from ``random.Random(base + i)`` whoever evaluates
        it, so the answer does not depend on the workers.  Each worker gets
        every ``k``-th deal; when the time limit cuts a worker short, results
        stop at the first deal that was not finished, so the deals used are
        always a prefix of the sample.
        """
        if deadline is None:
            deadline = self._deadline()
        if base is None:
            base = self.rng.getrandbits(64)
        items = list(range(start, start + count))
        style = self.style
        prior = self.pass_prior
        if self.workers <= 1 or count < 2 * self.workers:
            return _evaluate(kind, obs, items, base, args, infer, deadline, watch, style, prior)
        ex = _pool(self.workers)
        k = self.workers
        chunks = [items[i::k] for i in range(k)]
        futures = [
            ex.submit(_evaluate, kind, obs, ch, base, args, infer, deadline, watch, style, prior) for ch in chunks[1:]
        ]
        parts = [_evaluate(kind, obs, chunks[0], base, args, infer, deadline, watch, style, prior)]
        parts += [f.result() for f in futures]
        out: list[Row] = []
        for i in range(count):
            part = parts[i % k]
            j = i // k
            if j >= len(part):
                break
            out.append(part[j])
        return out

    def _race(
        self,
        kind: str,
        obs: Observation,
        options: list[Any],
        rest: tuple[Any, ...],
        budget: int,
        infer: bool,
        watch: tuple[int, float] = (-1, 0.0),
    ) -> tuple[list[float], list[float], list[int]]:
        """Mean value, mean points and deal count of every option, with more deals for the close ones.

        All options are first scored on ``budget // RACE_ROUNDS`` deals; then,
        round after round, an option whose paired deficit to the leader is
        clearly more than chance (``RACE_Z`` standard errors) drops out and
        the rest go on to the next deals, up to ``budget`` deals each.  A
        clear choice thus costs a fraction of the budget and a close one gets
        all of it.  Deals are numbered as in :meth:`_run`, so with no time
        limit hit the result is exactly reproducible.
        """
        k = len(options)
        if k == 1:
            return [0.0], [0.0], [0]
        step = max(1, budget // RACE_ROUNDS)
        base = self.rng.getrandbits(64)
        deadline = self._deadline()
        alive = list(range(k))
        cols: list[list[float]] = [[] for _ in range(k)]
        pts: list[list[float]] = [[] for _ in range(k)]
        done = 0
        while done < budget and len(alive) > 1:
            n = min(step, budget - done)
            sub = [options[i] for i in alive]
            rows = self._run(kind, obs, n, (sub, *rest), infer, start=done, base=base, deadline=deadline, watch=watch)
            for vals, ps in rows:
                for j, i in enumerate(alive):
                    cols[i].append(vals[j])
                    pts[i].append(ps[j])
            done += len(rows)
            if len(rows) < n or (deadline is not None and time.monotonic() > deadline):
                break
            alive = _survivors(alive, cols, done)
        means = [sum(c) / len(c) if c else -math.inf for c in cols]
        mean_p = [sum(c) / len(c) if c else 0.0 for c in pts]
        return means, mean_p, [len(c) for c in cols]

    def search(self, obs: Observation) -> SearchResult:
        """Evaluate every distinct legal card of ``obs`` (a play decision) on sampled deals."""
        legal = legal_cards(obs)
        groups = equivalent_classes(obs, legal)
        moves = [g[0] for g in groups]
        prior = self._policy_card(obs)
        if len(moves) == 1:
            return SearchResult(moves[0] if prior not in groups[0] else prior, {}, {}, 0)
        view = View(obs)
        if standard.shooting(view, legal):
            # a moon the standard player would play for is nearly sure: follow its plan
            return SearchResult(standard.shoot_card(view, legal), {}, {}, 0, moon=True)
        watch = self._watch(view)
        if self.shoot and may_shoot(obs):
            plans = [-1, obs.seat]
            rows = _best_plan(
                self._run("play", obs, self.worlds, (moves, plans, self.solve), self.infer, watch=watch), len(moves), 2
            )
            means, mean_p, counts = _means(rows, len(moves))
        else:
            budget = self.worlds * (WATCH_WORLDS if watch[0] >= 0 else 1)
            if self.tree:
                means, mean_p, counts = self._tree(obs, moves, budget, watch)
            else:
                means, mean_p, counts = self._race("play", obs, moves, ([-1], self.solve), budget, self.infer, watch)
        return _pick(moves, means, mean_p, counts, groups, prior)

    def _tree(
        self, obs: Observation, moves: list[int], budget: int, watch: tuple[int, float]
    ) -> tuple[list[float], list[float], list[int]]:
        """Mean value, mean points and visits of every card by a search tree over ``budget`` sampled deals.

        Each sampled deal gets as many descents of one shared tree as there
        are cards to choose from (:func:`~corazones.players.search.tree_deal`),
        so the budget in playouts is the flat search's before any card drops
        out of its race.  The card with the most visits is the choice (the
        counts make it the only finalist of :func:`_pick`).  In this process
        only, whatever ``workers`` says; the moon watch deals as
        :func:`_evaluate` does.
        """
        base = self.rng.getrandbits(64)
        deadline = self._deadline()
        belief = Belief(obs, self.infer, pass_prior(obs) if self.pass_prior else None)
        charge, stoppers, policy, others = self.style
        scorer = Scorer(obs, charge, stoppers, POLICIES[policy], others)
        root = TreeNode(-1)
        seat, chance = watch
        for i in range(budget):
            rng = random.Random(base + i)
            world = belief.sample(rng)
            shooter = seat if seat >= 0 and rng.random() < chance else -1
            if shooter >= 0:
                world = belief.tilt(world, seat)
            tree_deal(obs, scorer, world, root, moves, len(moves), self.tree_explore, rng, shooter, self.tree_follow)
            if deadline is not None and time.monotonic() > deadline:
                break
        kids = [root.children.get(m) for m in moves]
        visits = [k.visits if k is not None else 0 for k in kids]
        means = [k.total / k.visits if k is not None and k.visits else -math.inf for k in kids]
        mean_p = [k.points / k.visits if k is not None and k.visits else 0.0 for k in kids]
        return means, mean_p, visits

    def _watch(self, view: View) -> tuple[int, float]:
        """The seat that may be shooting the moon (-1: none) and the chance that it is: ``standard``'s alarm.

        On that share of the sampled deals the seat holds the high cards of
        its suits, plays for the moon and the others defend at once, so the
        search sees what a shot costs and values the card that stops it.
        Left to the playouts' own watch (a seat with half the points), the
        others started defending too late and the search let real moons
        through.  A seat that shot in every playout (the first version of
        this defence) made every seat that had taken the Q♠ a shooter.
        """
        if not self.watch:
            return -1, 0.0
        threat, level = standard.moon_alarm(view, WATCH)
        return (-1, 0.0) if threat is None else (threat, level)

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
        candidates = _pass_candidates(obs, hand, count, self.pass_candidates)
        if len(candidates) == 1 or self.pass_worlds <= 0:
            self.last_reason = "passes as the standard player does: its most dangerous cards"
            return candidates[0]
        means, mean_p, counts = self._race("pass", obs, candidates, (), self.pass_worlds, False)
        res = _pick(list(range(len(candidates))), means, mean_p, counts, None, 0)
        self.last_reason = (
            f"passes {' '.join(card_str(c) for c in candidates[res.choice])}: "
            f"about {res.points[res.choice]:.1f} points expected over {res.worlds} deals"
        )
        return candidates[res.choice]

    def _auction_values(self, obs: Observation, suits: list[int], declarer: int | None) -> list[float]:
        options = [(suit, declarer) for suit in suits]
        rows = self._run("auction", obs, self.auction_worlds, (options,))
        res = _pick(list(range(len(suits))), *_means(rows, len(suits)), None, 0)
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


def _means(rows: list[Row], k: int) -> tuple[list[float], list[float], list[int]]:
    """Mean value and mean points of each of ``k`` options over ``rows``, and the deal count."""
    n = len(rows)
    tv = [0.0] * k
    tp = [0.0] * k
    for vals, pts in rows:
        for i in range(k):
            tv[i] += vals[i]
            tp[i] += pts[i]
    return [v / max(n, 1) for v in tv], [p / max(n, 1) for p in tp], [n] * k


def _survivors(alive: list[int], cols: list[list[float]], n: int) -> list[int]:
    """The options of ``alive`` not clearly behind the leader over their ``n`` shared deals.

    An option drops out when its paired deficit to the leader exceeds
    ``RACE_Z`` standard errors of that deficit.
    """
    lead = max(alive, key=lambda i: sum(cols[i]))
    top = cols[lead]
    keep = []
    for i in alive:
        if i == lead:
            keep.append(i)
            continue
        col = cols[i]
        diffs = [top[j] - col[j] for j in range(n)]
        mean = sum(diffs) / n
        var = sum((x - mean) ** 2 for x in diffs) / max(n - 1, 1)
        if mean <= 0 or mean * mean * n <= RACE_Z * RACE_Z * var:
            keep.append(i)
    return keep


def _pick(
    moves: list[int],
    means: list[float],
    mean_p: list[float],
    counts: list[int],
    groups: list[list[int]] | None,
    prior: int,
) -> SearchResult:
    """The best option among those scored on the most deals; ties go to the policy's choice, then the lower card."""
    most = max(counts) if counts else 0
    mean_v = {m: means[i] for i, m in enumerate(moves)}
    pts = {m: mean_p[i] for i, m in enumerate(moves)}
    pri = 0
    if groups is not None:
        for i, g in enumerate(groups):
            if prior in g:
                pri = i
    finalists = [i for i in range(len(moves)) if counts[i] == most]
    best = max(finalists, key=lambda i: (round(means[i], 9), i == pri, -i))
    choice = moves[best]
    if groups is not None:
        for i, g in enumerate(groups):
            for c in g[1:]:
                mean_v[c] = mean_v[moves[i]]
                pts[c] = pts[moves[i]]
        if prior in groups[best]:
            choice = prior
    return SearchResult(choice, mean_v, pts, most)


def _pass_candidates(obs: Observation, hand: list[int], count: int, limit: int) -> list[list[int]]:
    """Up to ``limit`` sensible passes: ``standard``'s, the quick rule's, and one-card changes to either.

    The standard player's pass comes first, so it wins ties; a change swaps
    one card of a pass for one of the next most dangerous cards the quick
    rule sees in the hand.
    """
    vals = obs.card_values
    ranked = pass_choice(hand, len(hand), vals, obs.penalty_suit)
    theirs = sorted(standard.pass_cards(obs))
    out = [theirs]
    main = sorted(ranked[:count])
    if main not in out:
        out.append(main)
    for base in list(out):
        alts = [c for c in ranked if c not in base][:3]
        for alt in alts:
            for k in range(count):
                cand = sorted([*base[:k], *base[k + 1 :], alt])
                if cand not in out and len(out) < limit:
                    out.append(cand)
    return out


def _reason(obs: Observation, res: SearchResult) -> str:
    if not res.values:
        if res.moon:
            return f"{card_str(res.choice)}: shooting the moon, it keeps winning tricks"
        return f"{card_str(res.choice)} is the only sensible card"
    pts = res.points
    best = pts[res.choice]
    alts = sorted((v, m) for m, v in pts.items() if res.values[m] != res.values[res.choice])
    text = f"{card_str(res.choice)}: about {best:.1f} points expected over {res.worlds} playouts"
    if alts:
        v, m = alts[0]
        text += f" (next best {card_str(m)}: {v:.1f})"
    return text


__all__ = ["PLAY", "ExpertBot", "Scorer", "SearchResult", "equivalent_classes"]
