"""Scoring options of a decision on one sampled deal: the hot loop of the ``expert``'s search.

:class:`~corazones.players.expert.ExpertBot` draws deals consistent with what
it has seen and, on each, plays every option to the end of the hand with the
fast policy of :mod:`corazones.players.rollout`.  This module holds that
per-deal work and the value of a finished hand (:class:`Scorer`), apart from
the bot's budgets and processes, because it runs thousands of times per
decision: the install compiles it with mypyc (``setup.py``) together with the
engine and the policy, so the whole playout loop runs as native code.

Each evaluator returns a row: every option's value (higher is better) and
our hand points after it (for reasons shown to players).
"""

from __future__ import annotations

import dataclasses
import math
import random

from corazones.core.actions import MOON_CHOICES
from corazones.core.cards import mask_cards
from corazones.core.deal import MOON, PLAY, Deal
from corazones.core.native import is_compiled_file, warn_if_stale
from corazones.core.observation import Observation
from corazones.core.scoring import settle_chips_1887, settle_chips_pool
from corazones.players import standard
from corazones.players.belief import World
from corazones.players.rollout import Context, Policy, choose, play_out

#: Weight of points that other sides take, relative to our own (shared out by match standing).
OTHERS_WEIGHT = 0.15
#: Share of the penalty points one seat must have taken before the playouts' others defend against a moon
#: (more than half, when careful players start to worry; waiting for two thirds overrated moons).
DEFEND_SHARE = 0.51
#: What winning (or losing) the game is worth, in hand points, when a playout ends it.
GAME_WEIGHT = 30.0

#: One deal's evaluation: every option's value and our hand points after it.
Row = tuple[list[float], list[float]]


class Scorer:
    """The value of a finished hand for one seat, in the light of the whole game."""

    __slots__ = (
        "bid",
        "final",
        "match",
        "moon_charge",
        "others_weight",
        "policy",
        "pool",
        "rules",
        "settlement",
        "stoppers",
        "target",
        "team",
        "teams",
        "weights",
    )

    def __init__(
        self,
        obs: Observation,
        moon_charge: float = 0.0,
        stoppers: bool = False,
        policy: Policy | None = None,
        others_weight: float = OTHERS_WEIGHT,
    ) -> None:
        r = obs.rules
        #: weight of the points other sides take, relative to our own (before the match standing shares it out)
        self.others_weight = others_weight
        #: the weights the playouts' policy plays by (:data:`~corazones.players.rollout.POLICY` when ``None``)
        self.policy = policy
        #: extra cost of a playout that ends with another side's moon, as a share of the moon's points
        self.moon_charge = moon_charge
        #: the playouts' defenders keep their stoppers when following the shooter's suit (``rollout.Context``)
        self.stoppers = stoppers
        self.rules = r
        self.settlement = r.settlement
        self.teams = r.teams
        self.match = [sum(obs.scores[s] for s in t) for t in r.teams]
        self.team = [r.team_of(s) for s in range(r.players)]
        self.weights = [self._weights(me) for me in range(len(r.teams))]
        self.target = r.target
        self.final = r.hands is not None and obs.hand_index + 1 >= r.hands
        self.pool = obs.pool
        bids = [b for _, b in obs.bids if b]
        # while bidding, the bid is weighed by the caller; afterwards it is paid by the declarer
        self.bid = max(bids) if bids and obs.declarer is not None and obs.phase != "bid" else 0

    def _weights(self, me: int) -> list[float]:
        """Per side, how much a point it takes is worth to side ``me`` (0 for ``me`` itself)."""
        others = [i for i in range(len(self.teams)) if i != me]
        out = [0.0] * len(self.teams)
        if not others:
            return out
        best_other = min(self.match[i] for i in others)
        w = [2.0 if self.match[i] == best_other else 1.0 for i in others]
        wsum = sum(w)
        for k, i in enumerate(others):
            out[i] = self.others_weight * len(others) * w[k] / wsum
        return out

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

    def outcome(self, d: Deal, seat: int) -> tuple[float, float]:
        """(value for ``seat``, points or chips lost by its side) of a finished playout, moon settled first."""
        self.settle_moon(d)
        chips = self._chips(d, seat)
        if chips is not None:
            return chips, -chips
        hand = self._side_points(d)
        me = self.team[seat]
        return self._value(hand, me) - self._charge(d, me), float(hand[me])

    def value(self, d: Deal, seat: int) -> float:
        """Higher is better for ``seat``."""
        chips = self._chips(d, seat)
        if chips is not None:
            return chips
        me = self.team[seat]
        return self._value(self._side_points(d), me) - self._charge(d, me)

    def _charge(self, d: Deal, me: int) -> float:
        """``moon_charge`` times the moon's points when another side shot the moon in ``d``, else 0."""
        if d.shooter is None or self.moon_charge == 0.0 or self.team[d.shooter] == me:
            return 0.0
        return self.moon_charge * d.pos_total

    def values(self, d: Deal) -> list[float]:
        """Every seat's :meth:`value` of the finished ``d``, the hand's points (or chips) worked out once."""
        deltas = self._chip_deltas(d)
        if deltas is not None:
            return [float(deltas[s]) for s in range(d.n)]
        hand = self._side_points(d)
        return [self._value(hand, self.team[s]) - self._charge(d, self.team[s]) for s in range(d.n)]

    def _chips(self, d: Deal, seat: int) -> float | None:
        """Chips ``seat`` wins in this hand under a chip settlement (``None`` when the rules score points)."""
        deltas = self._chip_deltas(d)
        return None if deltas is None else float(deltas[seat])

    def _chip_deltas(self, d: Deal) -> tuple[int, ...] | None:
        """Chips each seat wins in this hand under a chip settlement (``None`` when the rules score points)."""
        if self.settlement == "chips_1887":
            return settle_chips_1887(d.pts, self.pool).delta
        if self.settlement == "chips_pool":
            return settle_chips_pool(d.pen_count, self.pool, self.bid, d.declarer).delta
        return None

    def _side_points(self, d: Deal) -> list[int]:
        """Points each side took in this hand, after the moon rule."""
        hand = [0] * len(self.teams)
        for s, score in enumerate(d.hand_scores()):
            hand[self.team[s]] += score
        return hand

    def _value(self, hand: list[int], me: int) -> float:
        u = -float(hand[me])
        # points dumped on the side best placed to win help us more than on the others
        for i, w in enumerate(self.weights[me]):
            u += w * hand[i]
        after = [self.match[i] + hand[i] for i in range(len(hand))]
        if self.final or (self.target is not None and max(after) >= self.target):
            low = min(after)
            if after[me] == low:
                if after.count(low) == 1 or self.rules.tie_break == "shared":
                    u += GAME_WEIGHT
            else:
                u -= GAME_WEIGHT
        return u


def eval_play(
    obs: Observation, scorer: Scorer, w: World, moves: list[int], plans: list[int], solve: int = 0, watch: int = -1
) -> Row:
    """Every (plan, move)'s value and our hand points after it, on one deal.

    A plan is the seat the playout lets shoot the moon from the start (-1: play
    safe, the usual plan; our own seat: try to take every penalty card).
    ``watch`` is another seat suspected of shooting (see
    :func:`~corazones.players.rollout.play_out`): in every playout it plays
    for the moon and the others defend, so a card that stops it is valued.
    ``solve``: when no hand holds more than that many cards after the move,
    the rest of the deal is solved exactly (:func:`solve_rest`) instead of
    played out by the policy (0: never).
    """
    me = obs.seat
    start = Deal.from_observation(obs, w.hands, w.kitty)
    ctx = Context(start, scorer.stoppers, scorer.policy)
    vals: list[float] = []
    pts: list[float] = []
    for plan in plans:
        for m in moves:
            d = start.clone()
            d.play_card(m)
            if solve > 0 and solvable(d, solve):
                d = solve_rest(d, scorer)
            else:
                play_out(d, ctx, plan, DEFEND_SHARE, watch)
            v, p = scorer.outcome(d, me)
            vals.append(v)
            pts.append(p)
    return vals, pts


def solvable(d: Deal, cards: int) -> bool:
    """Whether the rest of ``d`` is small enough to solve: one deck, and no hand holds more than ``cards``."""
    if d.two_decks or d.phase != PLAY:
        return False
    return all(h.bit_count() <= cards for h in d.h1)


def solve_rest(d: Deal, scorer: Scorer) -> Deal:
    """The finished deal when every seat plays the rest of ``d`` perfectly for itself (max-n search).

    Each seat, seeing every hand of this sampled deal, plays the card that
    gives it the best value at the end (:meth:`Scorer.value` from its own
    seat: its side's points after the moon rule, or its chips); ties go to
    the lower card.  Exact for the sampled deal, where the policy's playout
    is a guess; the cost grows fast with the cards left, so the search only
    calls it for the last few tricks.  The moon phase, if reached, is left
    for the caller to settle as after a playout.
    """
    best, _vals = _max_n(d, scorer)
    return best


def _max_n(d: Deal, scorer: Scorer) -> tuple[Deal, list[float]]:
    if d.phase != PLAY:
        done = d.clone()
        scorer.settle_moon(done)
        return d, scorer.values(done)
    seat = d.turn
    m = d.legal_mask(seat)
    best_deal = d
    best: list[float] = []
    bv = -math.inf
    while m:
        low = m & -m
        c = low.bit_length() - 1
        m ^= low
        e = d.clone()
        e.play_card(c)
        leaf, vals = _max_n(e, scorer)
        if vals[seat] > bv:
            bv, best, best_deal = vals[seat], vals, leaf
    return best_deal, best


def eval_plans(
    obs: Observation, scorer: Scorer, w: World, options: list[tuple[int, int]], share: float, watch: int = -1
) -> Row:
    """Every (move, plan) option's value and our hand points after it, on one deal (the ``moonshot`` search).

    Unlike :func:`eval_play`, each option carries its own plan, so a race can
    drop a (move, plan) pair alone.  Against our own moon (plan: our seat) the
    playouts' others defend once we hold ``share`` of the points taken (0:
    from the start, as a table that watches a lone taker does), so the moon
    is valued against defenders, not against players who let it through.
    """
    me = obs.seat
    start = Deal.from_observation(obs, w.hands, w.kitty)
    ctx = Context(start, scorer.stoppers, scorer.policy)
    vals: list[float] = []
    pts: list[float] = []
    for m, plan in options:
        d = start.clone()
        d.play_card(m)
        play_out(d, ctx, plan, share if plan == me else DEFEND_SHARE, watch)
        v, p = scorer.outcome(d, me)
        vals.append(v)
        pts.append(p)
    return vals, pts


def play_from_start(
    obs: Observation,
    scorer: Scorer,
    hands: list[list[int]],
    kitty: list[int],
    suit: int,
    declarer: int | None,
    shoot: int = -1,
    share: float = 2 / 3,
) -> tuple[float, float]:
    """(value, our hand points) of the hand played out from its first lead (``shoot``: see :func:`play_out`)."""
    d = Deal.at_play(obs.rules, hands, kitty, obs.dealer, suit, declarer)
    play_out(d, Context(d, scorer.stoppers, scorer.policy), shoot, share)
    return scorer.outcome(d, obs.seat)


def their_passes(obs: Observation, w: World) -> list[list[int]]:
    """What every other seat passes on the sampled deal ``w``: the ``standard`` player's pass of its hand.

    Modelling the others' passes with the standard player, rather than the
    quicker rule the playouts use elsewhere, gives truer hands after the pass
    (what we receive above all); it measured better (paired difference
    -0.20 points per deal over 1,000 deals), though a pass then takes about 1.7 times as long.
    """
    n = obs.rules.players
    off = obs.rules.pass_offset(obs.pass_direction)
    out: list[list[int]] = []
    for s in range(n):
        if s == obs.seat:
            out.append([])
            continue
        seen = dataclasses.replace(obs, seat=s, hand=tuple(sorted(w.hands[s])), pass_to=(s + off) % n)
        out.append(standard.pass_cards(seen))
    return out


def hands_after_pass(w: World, theirs: list[list[int]], seat: int, cand: list[int], off: int) -> list[list[int]]:
    """The hands of deal ``w`` once ``seat`` passes ``cand`` and every other seat its card of ``theirs``."""
    n = len(w.hands)
    hands = [list(h) for h in w.hands]
    passes = list(theirs)
    passes[seat] = cand
    for s in range(n):
        for c in passes[s]:
            hands[s].remove(c)
    for s in range(n):
        hands[(s + off) % n].extend(passes[s])
    return hands


def eval_pass(obs: Observation, scorer: Scorer, w: World, candidates: list[list[int]]) -> Row:
    """The hand played out after each candidate pass (the others pass as :func:`their_passes`), on one deal."""
    off = obs.rules.pass_offset(obs.pass_direction)
    theirs = their_passes(obs, w)
    vals: list[float] = []
    pts: list[float] = []
    for cand in candidates:
        hands = hands_after_pass(w, theirs, obs.seat, cand, off)
        v, p = play_from_start(obs, scorer, hands, w.kitty, obs.penalty_suit, obs.declarer)
        vals.append(v)
        pts.append(p)
    return vals, pts


def eval_pass_plans(
    obs: Observation, scorer: Scorer, w: World, options: list[tuple[list[int], int]], share: float
) -> Row:
    """The hand played out after each (pass, plan) option, on one deal (the ``moonshot``'s pass).

    A plan of our own seat plays the hand for the moon from its first lead,
    the others defending once we hold ``share`` of the points taken; -1 plays
    it safe, as :func:`eval_pass` does.
    """
    off = obs.rules.pass_offset(obs.pass_direction)
    theirs = their_passes(obs, w)
    vals: list[float] = []
    pts: list[float] = []
    for cand, plan in options:
        hands = hands_after_pass(w, theirs, obs.seat, cand, off)
        if plan == obs.seat:
            v, p = play_from_start(obs, scorer, hands, w.kitty, obs.penalty_suit, obs.declarer, plan, share)
        else:
            v, p = play_from_start(obs, scorer, hands, w.kitty, obs.penalty_suit, obs.declarer)
        vals.append(v)
        pts.append(p)
    return vals, pts


def eval_auction(obs: Observation, scorer: Scorer, w: World, options: list[tuple[int, int | None]]) -> Row:
    """The hand played out under each (penalty suit, declarer) option, on one deal."""
    vals: list[float] = []
    pts: list[float] = []
    for suit, declarer in options:
        v, p = play_from_start(obs, scorer, w.hands, w.kitty, suit, declarer)
        vals.append(v)
        pts.append(p)
    return vals, pts


class TreeNode:
    """A position of :func:`tree_deal`'s search tree: the card that led to it and what followed it.

    The tree is the searching seat's (single-observer information-set
    search): a node is reached by the cards played since the decision, which
    every seat sees, so one node stands for every sampled deal in which those
    cards were played.  ``mover`` is the seat that played the card into the
    node; ``total`` sums that seat's values over the ``visits``, so each seat
    picks its own best card at its turn; ``avail`` counts the visits to the
    parent in which the card was legal (a card of a sampled hand is not
    legal in every sampled deal).  ``points`` sums the searching seat's hand
    points (read at the root's children only).
    """

    __slots__ = ("avail", "children", "mover", "points", "total", "visits")

    def __init__(self, mover: int) -> None:
        self.mover = mover
        self.visits = 0
        self.avail = 0
        self.total = 0.0
        self.points = 0.0
        self.children: dict[int, TreeNode] = {}


def tree_deal(
    obs: Observation,
    scorer: Scorer,
    w: World,
    root: TreeNode,
    moves: list[int],
    iterations: int,
    explore: float,
    rng: random.Random,
    watch: int = -1,
    follow: int = 0,
) -> None:
    """Run ``iterations`` descents of ``root``'s tree on one sampled deal, each finished by a playout.

    From the root every seat in turn plays the card of the tree with the
    best upper confidence bound for its own value (UCB1 counted over the
    visits in which the card was legal, ``explore`` times the spread, in
    units of the deal's penalty points); a card the tree has not tried yet
    is tried first (the playout policy's card before the others, which
    ``rng`` picks among), and the rest of the hand is played out by the
    policy, as the flat search does.  Unlike the flat search, our own later cards and the
    others' replies are chosen by what the tree has learnt over every
    sampled deal, not by the policy alone.  The root only tries ``moves``.
    A node below the root visited fewer than ``follow`` times is a leaf: the
    playout goes on from it, so a position the tree has seen too seldom to
    judge is played as the flat search's playouts play it (the policy, with
    its moon watch), and only well-visited positions choose their own cards.
    """
    me = obs.seat
    start = Deal.from_observation(obs, w.hands, w.kitty)
    ctx = Context(start, scorer.stoppers, scorer.policy)
    scale = explore * max(1.0, float(start.pos_total))
    root_mask = 0
    for m in moves:
        root_mask |= 1 << m
    for _ in range(iterations):
        d = start.clone()
        node = root
        path: list[TreeNode] = []
        while d.phase == PLAY:
            seat = d.turn
            legal = root_mask if node is root else d.legal_mask(seat)
            kids = node.children
            if node is not root and node.visits < follow:
                break  # seen too seldom to choose its own cards: the playout takes over from here
            cards = mask_cards(legal)
            untried = [c for c in cards if c not in kids]
            fresh = -1
            if untried:
                pc = choose(d, ctx)
                fresh = pc if pc in untried else untried[rng.randrange(len(untried))]
            best: TreeNode | None = None
            bc = -1
            bu = -math.inf
            for c in cards:
                ch = kids.get(c)
                if ch is None:
                    if c != fresh:
                        continue
                    ch = TreeNode(seat)
                    kids[c] = ch
                ch.avail += 1
                if fresh >= 0:
                    continue
                u = ch.total / ch.visits + scale * math.sqrt(math.log(ch.avail) / ch.visits)
                if u > bu:
                    bu, best, bc = u, ch, c
            if fresh >= 0:
                d.play_card(fresh)
                path.append(kids[fresh])
                break
            assert best is not None
            d.play_card(bc)
            path.append(best)
            node = best
        if d.phase == PLAY:
            play_out(d, ctx, -1, DEFEND_SHARE, watch)
        scorer.settle_moon(d)
        vals = scorer.values(d)
        for k in path:
            k.visits += 1
            k.total += vals[k.mover]
        path[0].points += scorer.outcome(d, me)[1]


if is_compiled_file(__file__):  # compiled build (setup.py): warn if this source changed since
    warn_if_stale(__name__)
