"""A fast card-play policy working directly on :class:`~corazones.core.deal.Deal` masks.

Search (the ``expert``) plays thousands of hands to their end for every
decision, so the policy that plays them cannot afford observations: it reads
the deal's bit masks and answers in a few microseconds.  It is a plain
"stay out of trouble" player for every variant, driven only by the card
values of the rules in force:

* following suit, it prices each card as the standard player does, in masks:
  the chance it takes the trick (later seats beat it when they hold a higher
  card and cannot or will not duck) times the points the trick will carry,
  minus what keeping the card would cost later; so it ducks with its highest
  loser, sheds high cards on safe early rounds and takes clean tricks with
  a dangerous card (A♠ over an unseen Q♠) when it is last;
* void in the suit led, it dumps the costliest card (Q♠, then high penalty
  cards, then high cards guarding a big penalty card still out, then high
  cards of short suits); it never gives a partner points nor throws away a
  bonus card (Omnibus J♦);
* leading, it picks the lowest card of the suit where it is least likely to
  win, flushes Q♠ when it holds no spade above it, and avoids leading from a
  suit in which it guards a big penalty card.

A seat that has taken every penalty point so far with much of the total in
hand tries to take the rest (shooting the moon), and the others then try to
stop it: they give points to any other seat that wins a trick, and on the
shooter's tricks they throw their lowest card, keeping the high ones that can
still win a trick off it.  Following the shooter's suit with nothing that
beats its card, they shed their highest card, unless the searched position
asks them to keep their stoppers (``Context(d, stoppers=True)``, an
``expert`` option): then they play their lowest, as they do when void.  The
policy never looks at another seat's hand: it only uses cards that are gone
and its own hand, like a player at the table (the deal it plays is itself a
sample of the hidden cards).
"""

from __future__ import annotations

from corazones.core.cards import SUIT_MASK
from corazones.core.deal import PLAY, Deal
from corazones.core.native import is_compiled_file, warn_if_stale
from corazones.core.simulate import popcount

_SUIT_OF = tuple(c // 13 for c in range(52))
_RANK_OF = tuple(c % 13 for c in range(52))
_BELOW = tuple((1 << c) - 1 for c in range(52))  # cards with a lower index
_SUIT_BELOW = tuple(_BELOW[c] & SUIT_MASK[_SUIT_OF[c]] for c in range(52))
_SUIT_ABOVE = tuple(SUIT_MASK[_SUIT_OF[c]] & ~_BELOW[c] & ~(1 << c) for c in range(52))
#: chance a card wins a later trick with ``k`` cards out below it that can be played under it (1 - 0.6 ** k)
_WIN_LO = tuple(1.0 - 0.6**k for k in range(60))


def _low(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


def _high(mask: int) -> int:
    return mask.bit_length() - 1


class Policy:
    """The weights of the policy's judgement, apart from its rules, so that one build can play two policies.

    :data:`HAND` holds the weights set by hand, which every playout uses.
    :data:`DUEL` holds those set by playing the policy against itself, two
    seats against two in duplicate, one weight at a time (``bench/duel.py``):
    a better player in every preset, but the ``expert`` searching with it
    measured no stronger (``docs/bots.md``, "The playouts' weights").
    """

    __slots__ = (
        "climb",
        "dump",
        "flush",
        "guard_discard",
        "guard_lead",
        "guard_share",
        "high_pow",
        "high_pows",
        "own_big",
        "pen_lead",
    )

    def __init__(
        self,
        *,
        climb: float,
        high_pow: float,
        guard_share: float,
        dump: float,
        guard_discard: int,
        guard_lead: float,
        flush: float,
        own_big: float,
        pen_lead: float,
    ) -> None:
        #: chance a later seat holding a card above and one below overtakes a clean trick anyway
        self.climb = climb
        #: chance a card wins a later trick, per card of its suit out above it ...
        self.high_pow = high_pow
        #: ... and its powers: the chance with ``k`` cards out above it
        self.high_pows = tuple(high_pow**k for k in range(60))
        #: how much each low card of a big penalty card's suit we hold makes it less likely to fall under ours
        self.guard_share = guard_share
        #: share of a void seat's worst card counted on a trick we win
        self.dump = dump
        #: void, how much more eager we are to throw a high card over a big penalty card still out (A♠ over Q♠)
        self.guard_discard = guard_discard
        #: leading, the risk of a suit where we guard a big penalty card still out
        self.guard_lead = guard_lead
        #: leading, the bonus of a low card that may flush out a big penalty card we cannot be caught with
        self.flush = flush
        #: leading, the risk of a suit where we hold the big penalty card
        self.own_big = own_big
        #: leading, the risk of the penalty suit
        self.pen_lead = pen_lead


#: The weights set by hand: what the playouts use (:data:`POLICY`).
HAND = Policy(
    climb=0.35,
    high_pow=0.5,
    guard_share=0.22,
    dump=1.0,
    guard_discard=120,
    guard_lead=0.6,
    flush=0.35,
    own_big=0.5,
    pen_lead=0.15,
)
#: The weights set by the policy's duel (``bench/duel.py``): 0.67 points a deal better than :data:`HAND` there
#: (40,000 fresh boards), better in every preset; the ``expert`` searching with them measured +0.12 points a deal
#: (-0.10 to +0.34) head to head over 2,000 boards, so they are not the default.
DUEL = Policy(
    climb=0.48,
    high_pow=0.65,
    guard_share=0.35,
    dump=0.5,
    guard_discard=192,
    guard_lead=0.3,
    flush=0.9,
    own_big=1.28,
    pen_lead=0.075,
)
#: The weights every playout uses unless told otherwise.
POLICY = HAND
#: The weights by name (a name crosses to helper processes and the command line).
POLICIES: dict[str, Policy] = {"hand": HAND, "duel": DUEL}


class Context:
    """Per-deal constants the policy needs (computed once per searched position)."""

    __slots__ = (
        "big",
        "bonus_mask",
        "climb",
        "dump",
        "flush",
        "guard_discard",
        "guard_lead",
        "guard_share",
        "high_pows",
        "kitty_mask",
        "own_big",
        "partner",
        "pen_lead",
        "pen_mask",
        "pen_order",
        "stoppers",
        "teams",
        "values",
        "zero_mask",
    )

    def __init__(self, d: Deal, stoppers: bool = False, policy: Policy | None = None) -> None:
        #: defenders following the shooter's suit under its card keep their high cards (see :func:`choose`)
        self.stoppers = stoppers
        # the weights are copied, not referred to: each is one attribute read on the hot path
        p = POLICY if policy is None else policy
        self.climb = p.climb
        self.high_pows = p.high_pows
        self.guard_share = p.guard_share
        self.dump = p.dump
        self.guard_discard = p.guard_discard
        self.guard_lead = p.guard_lead
        self.flush = p.flush
        self.own_big = p.own_big
        self.pen_lead = p.pen_lead
        vals = d.values
        self.values = vals
        self.pen_mask = sum(1 << c for c in range(52) if vals[c] > 0)
        self.bonus_mask = sum(1 << c for c in range(52) if vals[c] < 0)
        self.zero_mask = ((1 << 52) - 1) & ~self.pen_mask
        # penalty cards, costliest first (what a void seat throws)
        self.pen_order = tuple(sorted((c for c in range(52) if vals[c] > 0), key=lambda c: (-vals[c], -c)))
        # "big" penalty cards: worth a lot more than a heart (Q♠, A♠/K♠ in Black Maria, queens)
        self.big = tuple(c for c in range(52) if vals[c] >= 5 and _SUIT_OF[c] != d.penalty_suit)
        m = 0
        for c in d.kitty:
            m |= 1 << c
        self.kitty_mask = m
        r = d.rules
        self.teams = tuple(r.team_of(s) for s in range(d.n))
        self.partner = r.partnership


def unplayed_mask(d: Deal, ctx: Context) -> int:
    """Cards not yet played (in some hand or the kitty), one bit per card."""
    m = ctx.kitty_mask
    for h in d.h1:
        m |= h
    return m


def choose(d: Deal, ctx: Context, moon: int = -1, defend: bool = True, shooting: bool = True) -> int:
    """The card the seat to move plays.

    ``moon`` is the seat that may be shooting (-1: nobody); ``defend`` says
    whether the others have seen enough to try to stop it, ``shooting``
    whether that seat itself plays for it yet.
    """
    seat = d.turn
    if moon == seat and not shooting:
        moon = -1
    legal = d.legal_mask(seat)
    if not legal & (legal - 1):
        return _low(legal)
    h = d.h1[seat]
    out = unplayed_mask(d, ctx) & ~h  # cards someone else may hold
    vals = ctx.values
    cards = d.trick_cards
    if not cards:
        if moon == seat:
            return _lead_high(legal, out, ctx)
        return _lead(d, legal, h, out, ctx)
    led = _SUIT_OF[cards[0]]
    win = -1
    wseat = -1
    pts = 0
    for i, c in enumerate(cards):
        pts += vals[c]
        if _SUIT_OF[c] == led and c > win:
            win = c
            wseat = d.trick_seats[i]
    for c in d.pending:
        pts += vals[c]
    last = len(cards) == d.n - 1
    if legal & SUIT_MASK[led]:
        if moon >= 0 and (defend or moon == seat):
            if moon == seat:
                return _high(legal)
            if wseat == moon and (pts > 0 or _has_pen_left(out, ctx)):
                above = legal & ~_BELOW[win]
                if above:
                    return _high(above)
                if ctx.stoppers:
                    # nothing beats the shooter's card: keep the high ones, which may win a later trick off it
                    return _low(legal)
        return _follow(d, legal, win, wseat, pts, last, out, ctx, seat)
    if moon >= 0 and defend and moon != seat:
        if wseat != moon:
            # the current winner is not the shooter: give it points so the moon fails
            pen = legal & ctx.pen_mask
            if pen:
                return _high_value(pen, vals)
        else:
            # the shooter takes this trick: keep the high cards that can still win a trick off it
            # (throwing the highest heart here let playouts' moons succeed that real defenders stop)
            return _lowest_rank(legal, ctx)
    if moon == seat:
        # the shooter keeps its penalty cards and throws away losers
        clean = legal & ~ctx.pen_mask
        if clean:
            return _low(clean)
    return _discard(d, legal, h, wseat, out, ctx, seat)


def _lowest_rank(mask: int, ctx: Context) -> int:
    """The card of ``mask`` least able to win a trick: the lowest rank, a penalty-free one on ties."""
    best = -1
    key = 10**9
    m = mask
    while m:
        low = m & -m
        c = low.bit_length() - 1
        m ^= low
        k = _RANK_OF[c] * 2 + (ctx.pen_mask >> c & 1)
        if k < key:
            key, best = k, c
    return best


def _has_pen_left(out: int, ctx: Context) -> bool:
    return bool(out & ctx.pen_mask)


def _high_value(mask: int, vals: tuple[int, ...]) -> int:
    best = -1
    bv = -(10**9)
    m = mask
    while m:
        low = m & -m
        c = low.bit_length() - 1
        m ^= low
        v = vals[c] * 16 + _RANK_OF[c]
        if v > bv:
            bv, best = v, c
    return best


def _follow(d: Deal, legal: int, win: int, wseat: int, pts: int, last: bool, out: int, ctx: Context, seat: int) -> int:
    vals = ctx.values
    if ctx.partner and wseat >= 0 and ctx.teams[wseat] == ctx.teams[seat] and last:
        # partner wins: stay under if possible, shed the highest safe card
        below = legal & _BELOW[win]
        if below:
            return _high(below)
    below = legal & _BELOW[win]
    if pts < 0 and last:
        above = legal & ~_BELOW[win] & ~(1 << win)
        if above:
            return _high(above)
    if not ctx.partner and pts >= 0 and not d.two_decks:
        return _priced_follow(d, legal, win, pts, out, ctx, seat)
    if below:
        if pts <= 0:
            # a clean trick: take it with a high card if that costs nothing
            above = legal & ~_BELOW[win] & ctx.zero_mask
            if above:
                hi = _high(above)
                if last:
                    return hi
                if _safe_high(d, hi, out, ctx):
                    return hi
        return _high(below)
    # every card we hold in the suit beats the trick
    clean = legal & ctx.zero_mask
    if last:
        if clean:
            return _high(clean)
        return _min_value(legal, vals, prefer_high=True)
    if clean:
        hi = _high(clean)
        if pts <= 0 and _safe_high(d, hi, out, ctx):
            # an early round of the suit: everybody still follows, get rid of the high card
            return hi
        return _low(clean)
    return _min_value(legal, vals, prefer_high=False)


def _priced_follow(d: Deal, legal: int, win: int, pts: int, out: int, ctx: Context, seat: int) -> int:
    """Following suit, the card with the lowest price: points taken now minus the risk of keeping it.

    A card that wins now is priced at the chance no later seat beats it (they
    beat it when they hold a higher card and cannot or choose not to duck)
    times the points the trick will carry: those on it, what a void seat
    throws, and a big penalty card dropped under it.
    """
    if not legal & (~_BELOW[win] | ctx.bonus_mask):
        # every card ducks: the keep risk grows with the rank, so shed the highest
        return _high(legal)
    vals = ctx.values
    n = d.n
    h = d.h1[seat]
    k = n - 1 - len(d.trick_cards)
    left = popcount(h)
    avg = (d.pos_total - sum(d.pos)) / (left if left > 0 else 1)
    suit = _SUIT_OF[win]
    suit_out = out & SUIT_MASK[suit]
    q = 1.0 - 1.0 / (n - 1)  # chance one card out is not in a given seat
    dump = 0.0
    if k:
        p_void = q ** popcount(suit_out)
        dump = ctx.dump * p_void * _max_pen(out & ~SUIT_MASK[suit], ctx) * k
    best = -1
    bcost = 10.0**9
    # of the cards that duck only the highest can be best (the keep risk grows with the rank)
    # and of those that win now, the lowest and the highest (the middle ones are seldom better)
    over = legal & ~_BELOW[win]
    m = legal & ctx.bonus_mask  # a bonus card is always weighed
    if over:
        m |= (over & -over) | 1 << _high(over)
    duck = legal & _BELOW[win] & ~ctx.bonus_mask
    if duck:
        m |= 1 << _high(duck)
    while m:
        low = m & -m
        c = low.bit_length() - 1
        m ^= low
        v = vals[c]
        cost = -0.7 * _keep_risk(c, h, out, avg, ctx)
        if c > win:
            e = float(pts + v)
            p_win = 1.0
            if k:
                above = popcount(out & _SUIT_ABOVE[c])
                if above:
                    p_high = 1.0 - q**above
                    p_low = 1.0 - q ** popcount(out & _SUIT_BELOW[c])
                    vol = ctx.climb if pts + v <= 0 else 0.0
                    p_win = (1.0 - p_high * (1.0 - p_low + p_low * vol)) ** k
                e += dump
                for b in ctx.big:
                    if b < c and _SUIT_OF[b] == suit and out >> b & 1:
                        e += vals[b] * k / (n - 1)
            cost += p_win * e
        if cost < bcost:
            bcost, best = cost, c
    return best


def _max_pen(mask: int, ctx: Context) -> float:
    """The largest penalty among the cards of ``mask`` (what a void seat throws)."""
    for c in ctx.pen_order:
        if mask >> c & 1:
            return float(ctx.values[c])
    return 0.0


def _safe_high(d: Deal, card: int, out: int, ctx: Context) -> bool:
    """Whether a high ``card`` can win a clean trick without risk: every later seat will follow suit.

    On a first trick without points nothing can be thrown on it; otherwise the
    suit must be long enough outside for the later seats to follow, and no big
    penalty card of the suit may be out under it.
    """
    if d.trick_no == 0 and d.rules.no_points_first_trick:
        return True
    to_play = d.n - 1 - len(d.trick_cards)
    return popcount(out & SUIT_MASK[_SUIT_OF[card]]) >= 2 * to_play + 1 and not _guards_big(card, out, ctx)


def _guards_big(card: int, out: int, ctx: Context) -> bool:
    """Whether ``card`` ranks above a big penalty card of its suit still out (A♠ over Q♠)."""
    for b in ctx.big:  # noqa: SIM110 - a plain loop is faster on this hot path
        if _SUIT_OF[b] == _SUIT_OF[card] and b < card and out >> b & 1:
            return True
    return False


def _min_value(mask: int, vals: tuple[int, ...], prefer_high: bool) -> int:
    """The card of ``mask`` with the lowest value; ties go to the highest (or lowest) card."""
    best = -1
    key = (10**9, 0)
    m = mask
    while m:
        low = m & -m
        c = low.bit_length() - 1
        m ^= low
        k = (vals[c], -c if prefer_high else c)
        if k < key:
            key, best = k, c
    return best


def _discard(d: Deal, legal: int, h: int, wseat: int, out: int, ctx: Context, seat: int) -> int:
    vals = ctx.values
    to_partner = ctx.partner and wseat >= 0 and ctx.teams[wseat] == ctx.teams[seat]
    best = -1
    bscore = -(10**9)
    m = legal
    while m:
        low = m & -m
        c = low.bit_length() - 1
        m ^= low
        v = vals[c]
        r = _RANK_OF[c]
        if v > 0:
            score = (-200 + r) if to_partner else 200 + v * 8 + r
        elif v < 0:
            score = -300 + r
        else:
            suit_len = popcount(h & SUIT_MASK[_SUIT_OF[c]])
            score = 2 * r + (8 - 2 * suit_len if suit_len <= 3 else 0)
            if _guards_big(c, out, ctx):
                score += ctx.guard_discard
        if score > bscore:
            bscore, best = score, c
    return best


def _keep_risk(c: int, h: int, out: int, avg: float, ctx: Context) -> float:
    """Points that keeping ``c`` is expected to cost later (the standard player's future risk).

    The chance it wins a later trick times ``avg`` (points a trick carries),
    the big penalty cards of its suit still out that may fall under it, and
    its own penalty for the share we would end up taking.
    """
    vals = ctx.values
    hi = popcount(out & _SUIT_ABOVE[c])
    pw = ctx.high_pows[hi] * _WIN_LO[popcount(out & _SUIT_BELOW[c])]
    risk = pw * avg
    for b in ctx.big:
        if b < c and _SUIT_OF[b] == _SUIT_OF[c] and out >> b & 1:
            g = 1.0 - ctx.guard_share * popcount(h & _SUIT_BELOW[b])
            risk += vals[b] * pw * 0.5 * (g if g > 0.2 else 0.2)
    v = vals[c]
    if v > 0:
        keep = 0.25 + 0.75 * pw
        if v >= 5:
            if hi:
                guard = 0.9 - 0.15 * popcount(h & _SUIT_BELOW[c])
                if guard > keep:
                    keep = guard
            else:
                keep = 0.95
        risk += v * keep
    elif v < 0:
        risk += v * (0.3 + 0.6 * pw)
    return risk


def _lead(d: Deal, legal: int, h: int, out: int, ctx: Context) -> int:
    vals = ctx.values
    pen_suit = d.penalty_suit
    best = -1
    bkey = 10.0**9
    for s in range(4):
        mine = legal & SUIT_MASK[s]
        if not mine:
            continue
        c = _low(mine)
        suit_out = out & SUIT_MASK[s]
        n_out = popcount(suit_out)
        below = popcount(suit_out & _BELOW[c])
        above = n_out - below
        if n_out == 0:
            risk = 1.5  # nobody can follow: they will dump on us
        elif above == 0:
            risk = 1.2
        else:
            risk = below / n_out
        for b in ctx.big:
            if _SUIT_OF[b] != s:
                continue
            if out >> b & 1:
                if h & _SUIT_ABOVE[b] & SUIT_MASK[s]:
                    risk += ctx.guard_lead  # we guard it: do not lead into it
                elif c < b:
                    risk -= ctx.flush  # flush the big card out
            elif h >> b & 1:
                risk += ctx.own_big
        if s == pen_suit:
            risk += ctx.pen_lead
        risk += 0.02 * vals[c] - 0.01 * popcount(h & SUIT_MASK[s])
        if risk < bkey:
            bkey, best = risk, c
    return best


def _lead_high(legal: int, out: int, ctx: Context) -> int:
    """The shooter leads a sure winner if it has one, else its highest card."""
    for s in range(4):
        mine = legal & SUIT_MASK[s]
        if mine:
            hi = _high(mine)
            if not out & SUIT_MASK[s] & ~_BELOW[hi]:
                return hi
    clean = legal & ~ctx.pen_mask
    return _high(clean) if clean else _high(legal)


def moon_candidate(d: Deal) -> int:
    """The seat that could still take every penalty point (-1 if none or already two takers)."""
    if d.rules.moon == "off" or d.pos_total <= 0:
        return -1
    taker = -1
    for s in range(d.n):
        if d.pos[s]:
            if taker >= 0:
                return -1
            taker = s
    return taker


def play_out(
    d: Deal,
    ctx: Context,
    shoot: int = -1,
    defend_share: float = 2 / 3,
    watch: int = -1,
    seats: list[Context] | None = None,
) -> None:
    """Play ``d`` to the end of the hand with :func:`choose` for every seat.

    ``shoot`` is a seat that tries to shoot the moon from the start; otherwise a
    seat starts trying when it has taken two thirds of the penalty points and
    nobody else has any.  The others defend once that seat alone has
    ``defend_share`` of the points.  ``watch`` is a seat already suspected of
    shooting from what was seen before the playout (it alone has taken
    points): it plays for the moon from the start and the others defend
    against it at once, while it still has every point.  A hand that ends
    with a moon choice is left in the ``moon`` phase for the caller to settle.
    ``seats`` gives each seat its own context (weights: ``bench/duel.py``
    plays two policies against each other); otherwise every seat uses ``ctx``.
    """
    moon = shoot if shoot >= 0 else watch
    most = (d.pos_total * 2 + 2) // 3
    guard = defend_share * d.pos_total
    pos = d.pos
    check = True
    defend = False
    shooting = moon >= 0
    while d.phase == PLAY:
        if check:  # points only move when a trick ends
            if moon >= 0 and pos[moon] != sum(pos):
                moon = -1
            if moon < 0 and d.pos_total > 0:
                t = moon_candidate(d)
                if t >= 0 and (pos[t] >= most or pos[t] >= guard):
                    moon = t
                    shooting = pos[t] >= most
            if moon >= 0 and pos[moon] >= most:
                shooting = True
            defend = moon >= 0 and (pos[moon] >= guard or moon == watch)
        d.play_card(choose(d, ctx if seats is None else seats[d.turn], moon, defend, shooting))
        check = not d.trick_cards


def pass_choice(hand: list[int], count: int, vals: tuple[int, ...], penalty_suit: int) -> list[int]:
    """A quick pass: big penalty cards short of guards, cards above them, high penalty cards, voids.

    Works on any card values, so it serves every variant; the expert uses it
    for its own pass when nothing better is available and for the other
    seats' passes when it simulates a pass.
    """
    mine = 0
    for c in hand:
        mine |= 1 << c
    big = [c for c in range(52) if vals[c] >= 5 and _SUIT_OF[c] != penalty_suit]
    suit_len = [sum(1 for c in hand if _SUIT_OF[c] == s) for s in range(4)]
    scored = []
    for i, c in enumerate(hand):
        r = _RANK_OF[c]
        s = _SUIT_OF[c]
        v = vals[c]
        guards = popcount(mine & _SUIT_BELOW[c])
        if v < 0:
            score = -100.0
        elif c in big:
            score = 100.0 + v if guards < 4 else r - 5.0
        elif v > 0:
            score = 2.0 * r + v - 6.0
        else:
            score = 1.5 * r
            for b in big:
                if _SUIT_OF[b] == s and c > b and popcount(mine & _SUIT_BELOW[b]) < 4:
                    score += 25.0
            if suit_len[s] <= 3:
                score += (4 - suit_len[s]) * 2.5
        scored.append((score, -i, c))
    scored.sort(reverse=True)
    return [c for _, _, c in scored[:count]]


def heuristic_play(d: Deal) -> int:
    """The card :func:`choose` plays for the seat to move, with the moon watch of :func:`play_out`."""
    ctx = Context(d)
    moon = moon_candidate(d)
    if moon >= 0 and d.pos[moon] < (d.pos_total * 2 + 2) // 3:
        moon = -1
    return choose(d, ctx, moon, True)


if is_compiled_file(__file__):  # compiled build (setup.py): warn if this source changed since
    warn_if_stale(__name__)
