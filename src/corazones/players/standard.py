"""``standard``: a strong heuristic player for every variant and player count.

It counts cards, tracks the voids shown and the cards it passed, and prices
every legal card as *what playing it costs now* (the chance it wins this
trick times the points expected in it) minus *what keeping it would cost
later* (:func:`~corazones.players.heuristics.future_risk`).  From that one
rule follow the classic moves: duck with the highest card that still loses,
throw the most dangerous card on a trick someone else takes, win a forced
trick with the highest card, never lead the A♠ or K♠ into an unseen Q♠.  On
top of it sit a few plans the price cannot see: flushing out the Q♠ with low
spades, stopping an opponent's moon (:func:`moon_threat`: one seat with every
point so far, or with every trick from the start), shooting the moon with a
hand that can take every trick, and the match situation near the target.

Every decision is a plain function of an :class:`Observation`
(:func:`play`, :func:`pass_cards`, :func:`bid`, :func:`declare`,
:func:`moon`), deterministic and fast, so stronger players can call it for
move ordering or playouts.  :class:`Params` holds the few weights.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from mypy_extensions import mypyc_attr

from corazones.core.actions import Kind
from corazones.core.native import is_compiled_file, warn_if_stale
from corazones.core.observation import Observation
from corazones.players.base import Bot, best_moon_choice, legal_cards
from corazones.players.heuristics import (
    BIG_PENALTY,
    RANK_OF,
    SUIT_OF,
    View,
    future_risk,
    losers,
)


@dataclass(frozen=True, slots=True)
class Params:
    """Weights of the standard player (the defaults are the measured best)."""

    #: chance a seat takes a trick without points on purpose rather than ducking
    volunteer: float = 0.35
    #: weight of the future danger of a card against its cost now
    future_w: float = 0.7
    #: chance a big penalty card still out is thrown under a high card of its suit we keep (A♠ under Q♠)
    catch: float = 0.5
    #: reward for leading a low card of a suit whose big penalty card (Q♠) is out
    flush_bonus: float = 1.2
    #: cost of leading a suit in which we hold its big penalty card while higher cards are out
    guard_lead: float = 1.5
    #: one opponent's share of the penalties at which moon defence starts, and where it is total
    #: (0.5 and 0.9 let 7.6% of deals end in a moon against a shooter pair, these 4.3%; they cost 0.2
    #: points per deal against players who seldom shoot: see docs/bots.md)
    defend_lo: float = 0.15
    defend_hi: float = 0.5
    #: tricks in a row one opponent must have won from the start before it counts as a moon threat ...
    control_from: int = 3
    #: ... and how much more alarming each further trick it wins is (share of the full defence)
    control_step: float = 0.1
    #: added alarm when the seat that passed to us gave us only low cards (a moon hand keeps its high ones)
    low_pass: float = 0.1
    #: weight of stopping a moon against the points it costs
    defend_w: float = 1.0
    #: share of the moon's worth at stake when our best penalty-suit card would be given to the shooter
    keep_stopper: float = 0.5
    #: tricks we may still lose and yet set out to shoot the moon
    shoot_losers: int = 1
    #: chance of winning the current trick that counts as holding control for a moon
    shoot_control: float = 0.7
    #: guards short of the table before we keep our big penalty card in the pass
    qs_shift: int = 0
    #: value of emptying a short suit in the pass
    void_bonus: float = 2.5


DEFAULT = Params()

# desire to pass a card by rank (2 ... A), before penalties and plans
_PASS_RANK = (0.0, 0.0, 0.0, 0.0, 0.1, 0.2, 0.4, 0.7, 1.1, 1.6, 2.3, 3.1, 4.0)


# ================================================================== play
def play(obs: Observation, params: Params = DEFAULT) -> int:
    """The card the standard player plays in ``obs``."""
    cards = legal_cards(obs)
    if len(cards) == 1:
        return cards[0]
    v = View(obs)
    if shooting(v, cards, params):
        return shoot_card(v, cards)
    costs = card_costs(v, cards, params)
    return min(cards, key=lambda c: (costs[c], c))


def ranked_plays(obs: Observation, params: Params = DEFAULT) -> list[tuple[float, int]]:
    """Every legal card with its estimated cost, best first (for move ordering in search)."""
    cards = legal_cards(obs)
    v = View(obs)
    costs = card_costs(v, cards, params)
    return sorted((costs[c], c) for c in cards)


def card_costs(v: View, cards: list[int], params: Params = DEFAULT) -> dict[int, float]:
    """Estimated cost, in points for our side, of playing each of ``cards`` now."""
    vals = v.vals
    avg = (v.unseen_penalty() + sum(vals[c] for c in v.obs.hand if vals[c] > 0)) / v.tricks_left()
    threat, defend = moon_threat(v, params)
    me_w, gift = match_weights(v)
    winner = v.current_winner()
    led = v.led
    pos_in_trick = any(vals[c] > 0 for c in v.trick_cards) or any(vals[c] > 0 for c in v.pending)
    out: dict[int, float] = {}
    stopper = -1
    if threat is not None:
        # our highest penalty-suit card is the one that can still win a trick off the shooter
        pen = [c for c in v.suits[v.obs.penalty_suit] if vals[c] > 0]
        stopper = pen[-1] if pen else -1
    for c in cards:
        fr = params.future_w * future_risk(v, c, avg, params.catch)
        cost = -fr
        if led >= 0 and SUIT_OF[c] != led:
            cost += _given_away(v, c, winner, threat, defend, gift, c == stopper, params)
            out[c] = cost
            continue
        pw = v.p_win(c, params.volunteer)
        if pw > 0.0:
            e = v.points_if_win(c) * me_w
            if threat is not None:
                sure = pos_in_trick or vals[c] > 0
                e -= defend * (1.0 if sure else min(1.0, max(0.0, e) / 1.5))
            cost += pw * e
        if pw < 1.0 and led >= 0:
            cost += (1.0 - pw) * _given_away(v, c, winner, threat, defend, gift, c == stopper, params)
        if led < 0:
            cost += _lead_plan(v, c, params)
        out[c] = cost
    return out


def _given_away(
    v: View,
    card: int,
    winner: int | None,
    threat: int | None,
    defend: float,
    gift: list[float],
    stopper: bool,
    params: Params,
) -> float:
    """Cost of letting ``card`` fall on a trick another seat (now ``winner``) takes.

    Against a moon, a penalty card given to anyone but the shooter stops it;
    given to the shooter it is one chance fewer, and our best penalty-suit
    card is the chance that counts most.  A trick that already carries a
    penalty stops the moon without our card, so adding to it earns nothing
    (a partner's trick with three hearts in it was given the Q♠ for that).
    Under ``moon_needs = team`` the shooter's partner is the shooter's side.
    """
    val = v.vals[card]
    if not val or winner is None or winner == v.me:
        return 0.0
    cost = 0.0
    if v.is_partner(winner):
        cost += val * 0.8
    if threat is not None and val > 0:
        r = v.rules
        if winner != threat and not (r.moon_needs == "team" and r.team_of(winner) == r.team_of(threat)):
            vals = v.vals
            if not any(vals[c] > 0 for c in v.trick_cards) and not any(vals[c] > 0 for c in v.pending):
                cost -= defend * 0.8
        else:
            cost += val + defend * (params.keep_stopper if stopper else 0.1)
    return cost - val * gift[winner]


def _lead_plan(v: View, card: int, params: Params) -> float:
    """Adjustments to a lead the one-trick price misses: flush the Q♠ out, keep our Q♠ guarded."""
    vals = v.vals
    suit = SUIT_OF[card]
    mine = v.suits[suit]
    adj = 0.0
    for x in range(suit * 13, suit * 13 + 13):
        if vals[x] < BIG_PENALTY:
            continue
        out = v.unseen(x)
        if out and x > card and (not mine or mine[-1] < x):
            adj -= params.flush_bonus * vals[x] / 13.0  # drive the big card out
        if v.hand_cnt[x] and x > card and any(v.unseen(y) for y in range(x + 1, suit * 13 + 13)):
            adj += params.guard_lead * vals[x] / 13.0  # our own guard would shrink
    return adj


# ============================================================ moon: threat and shot
def moon_threat(v: View, params: Params = DEFAULT) -> tuple[int | None, float]:
    """The opponent who may be shooting the moon, and what stopping it is worth to us.

    The worth is the alarm's level (:func:`moon_alarm`) times the moon's swing.
    """
    who, level = moon_alarm(v, params)
    return who, level * v.pos_total * params.defend_w


def moon_alarm(v: View, params: Params = DEFAULT) -> tuple[int | None, float]:
    """The opponent who may be shooting the moon, and the level of alarm, from 0 to 1.

    Three signs, taken together: a seat (or side, when the moon needs a team)
    that alone has taken every positive penalty point so far is a threat in
    proportion to its share; a seat that has won every trick from the start
    has control of the high cards, more alarming with every trick; and a seat
    that passed us only low cards kept its high ones.  Without the control sign the
    defence woke up only once the shooter had half the points, when the Q♠
    had often been thrown on its tricks already.
    """
    r = v.rules
    if r.moon == "off" or v.pos_total <= 0:
        return None, 0.0
    pos = v.positive()
    if not any(pos):
        who = _in_control(v, params)
        if who is None:
            return None, 0.0
        taken = 0
    elif r.moon_needs == "team":
        sides = {r.team_of(s) for s in range(v.n) if pos[s] > 0}
        if len(sides) != 1:
            return None, 0.0
        side = sides.pop()
        if side == r.team_of(v.me):
            return None, 0.0
        seats = [s for s in range(v.n) if r.team_of(s) == side]
        taken = sum(pos[s] for s in seats)
        who = max(seats, key=lambda s: (pos[s], -s))
    else:
        takers = [s for s in range(v.n) if pos[s] > 0]
        if len(takers) != 1 or takers[0] == v.me or v.is_partner(takers[0]):
            return None, 0.0
        who = takers[0]
        taken = pos[who]
    if v.kitty_owner is not None and v.obs.kitty_size and r.team_of(v.kitty_owner) != r.team_of(who):
        return None, 0.0
    share = taken / v.pos_total
    level = (share - params.defend_lo) / (params.defend_hi - params.defend_lo)
    level = max(level, _control_level(v, who, params))
    if level <= 0.0:
        return None, 0.0
    return who, min(1.0, level)


def _in_control(v: View, params: Params) -> int | None:
    """The opponent that has won every trick so far, when there are enough of them to matter."""
    tricks = v.obs.tricks
    if len(tricks) < params.control_from:
        return None
    who = tricks[0].winner
    if who is None or who == v.me or v.is_partner(who) or any(t.winner != who for t in tricks):
        return None
    return who


def _control_level(v: View, who: int, params: Params) -> float:
    """Alarm from ``who``'s grip on the tricks and from what it passed us."""
    level = 0.0
    tricks = v.obs.tricks
    run = 0
    for t in tricks:
        if t.winner != who:
            break
        run += 1
    if run >= params.control_from and run == len(tricks):
        level += params.control_step * (run - params.control_from + 1)
    got = v.obs.received
    if got and v.obs.received_from == who and all(RANK_OF[c] <= 7 and v.vals[c] <= 0 for c in got):
        level += params.low_pass
    return level


def shooting(v: View, cards: list[int], params: Params = DEFAULT) -> bool:
    """Whether to play for the moon now: nobody else has a penalty and our cards can take the rest."""
    r = v.rules
    if r.moon == "off" or v.pos_total <= 0:
        return False
    pos = v.positive()
    mine = {v.me, *v.team} if r.moon_needs == "team" else {v.me}
    if any(pos[s] > 0 for s in range(v.n) if s not in mine):
        return False
    if v.kitty_owner is not None and v.obs.kitty_size and v.kitty_owner not in mine:
        return False
    vals = v.vals
    total, pen = losers(v)
    if pen:
        return False  # a penalty card of ours would lose a trick: the moon is gone
    taken = sum(pos[s] for s in mine)
    committed = taken * 2 >= v.pos_total
    points_on_table = any(vals[c] > 0 for c in v.trick_cards) or any(vals[c] > 0 for c in v.pending)
    control = not v.trick or any(v.wins_now(c) and v.p_win(c, 1.0) >= params.shoot_control for c in cards)
    if not control:
        # another seat leads the next trick: only a hand with nothing left to lose goes on
        return not points_on_table and committed and total == 0
    return total <= params.shoot_losers + (1 if committed else 0)


def shoot_card(v: View, cards: list[int]) -> int:
    """The card that best keeps a moon going: win every trick, never give a penalty away."""
    vals = v.vals
    if not v.trick:
        # lead the surest winner; among sure ones, draw the penalty suit first
        def lead_key(c: int) -> tuple[float, int, int, int]:
            return (
                v.p_win(c, 1.0),
                1 if vals[c] > 0 else 0,
                len(v.suits[SUIT_OF[c]]),
                c % 13,
            )

        return max(cards, key=lead_key)
    if SUIT_OF[cards[0]] == v.led:
        win = [c for c in cards if v.wins_now(c)]
        if win:
            if not v.after:
                return min(win)
            return max(win, key=lambda c: (v.p_win(c, 1.0), c))
        return min(cards)
    # void: throw a card that carries nothing and is least likely to be a winner later
    return min(cards, key=lambda c: (vals[c] > 0, vals[c] < 0, v.higher_lower(c)[0] == 0, RANK_OF[c], c))


# ====================================================================== match
def match_weights(v: View) -> tuple[float, list[float]]:
    """How much our own points hurt, and what a point given to each seat is worth to us.

    Only near the end of a points game does it matter: the leader (lowest
    score) wants the game to end, so points pushed onto the seat about to
    reach the target are welcome; a trailing player avoids points a little
    more and prefers them to fall on the leader.
    """
    r = v.rules
    n = v.n
    gift = [0.0] * n
    if r.settlement != "points" or r.target is None:
        return 1.0, gift
    obs = v.obs
    live = [obs.scores[s] + obs.points_taken[s] for s in range(n)]
    totals = [sum(live[s] for s in team) for team in r.teams]
    me_side = r.team_of(v.me)
    if max(totals) + v.pos_total * 0.5 < r.target:
        return 1.0, gift
    mine = totals[me_side]
    others = [t for i, t in enumerate(totals) if i != me_side]
    if mine < min(others):
        for s in range(n):
            if r.team_of(s) != me_side and totals[r.team_of(s)] + v.pos_total * 0.5 >= r.target:
                gift[s] = 0.3
        return 1.0, gift
    best = min(others)
    for s in range(n):
        if r.team_of(s) != me_side and totals[r.team_of(s)] == best:
            gift[s] = 0.3
    return 1.15, gift


# ====================================================================== pass
def pass_cards(obs: Observation, params: Params = DEFAULT) -> list[int]:
    """The cards the standard player passes in ``obs`` (exactly ``rules.pass_count`` of them)."""
    k = obs.rules.pass_count
    v = View(obs)
    hand = sorted(obs.hand)
    if k >= len(hand):
        return hand[:k]
    plan = moon_pass(v, k)
    if plan is not None:
        return plan
    scores = [pass_score(v, c, params.qs_shift) for c in hand]
    to = obs.pass_to
    if to is not None and v.is_partner(to):
        # the receiver is our partner: give the cards that hurt nobody much
        order = sorted(range(len(hand)), key=lambda i: (abs(scores[i]), -hand[i]))
        return [hand[i] for i in order[:k]]
    order = sorted(range(len(hand)), key=lambda i: (-scores[i], -hand[i]))
    best = order[:k]
    # float starts: the compiled build keeps a sum of floats a float only when it starts as one
    best_value = sum((scores[i] for i in best), 0.0)
    for suit in range(4):
        idx = [i for i, c in enumerate(hand) if SUIT_OF[c] == suit]
        if not idx or len(idx) > k or any(v.vals[hand[i]] > 0 for i in idx) or any(scores[i] < -0.5 for i in idx):
            continue
        rest = [i for i in order if i not in idx][: k - len(idx)]
        value = sum((scores[i] for i in idx), 0.0) + sum((scores[i] for i in rest), 0.0) + params.void_bonus
        if value > best_value:
            best, best_value = idx + rest, value
    return [hand[i] for i in best]


def pass_score(v: View, card: int, shift: int = 0) -> float:
    """How much we want to be rid of ``card`` before play (higher: pass it)."""
    vals = v.vals
    suit = SUIT_OF[card]
    rank = RANK_OF[card]
    mine = v.suits[suit]
    val = vals[card]
    if val < 0:
        return -10.0 + val * 0.1  # a bonus card: keep it
    base = suit * 13
    if val >= BIG_PENALTY:
        if not any(v.unseen(x) for x in range(card + 1, base + 13)):
            return val + _PASS_RANK[rank] * 0.1  # nothing can beat it: no guard protects it
        guards = sum(1 for c in mine if c < card and vals[c] < BIG_PENALTY)
        g = max(0, guards - shift)
        f = (1.0, 0.9, 0.55, 0.2)[g] if g < 4 else 0.08
        return val * f + _PASS_RANK[rank] * 0.1
    score = _PASS_RANK[rank] + 0.35 * val
    for x in range(base, base + 13):
        vx = vals[x]
        if vx >= BIG_PENALTY and x < card and not v.hand_cnt[x]:
            guards = sum(1 for c in mine if c < x)
            score += vx * ((0.5, 0.5, 0.35, 0.18)[guards] if guards < 4 else 0.08)
        elif vx >= BIG_PENALTY and x > card and v.hand_cnt[x]:
            score -= 1.2  # a guard of our own big penalty card
        elif vx < 0 and x < card:
            score -= 0.8  # helps capture the bonus card
    if len(mine) >= 6 and val <= 0:
        score *= 0.7  # long suits are led late when the others are void: a little less urgent
    return score


def moon_pass(v: View, k: int) -> list[int] | None:
    """If passing ``k`` weak cards leaves a hand that takes every trick, those cards; else None."""
    r = v.rules
    if r.moon == "off" or v.pos_total <= 0:
        return None
    vals = v.vals
    if sum(1 for c in v.obs.hand if vals[c] > 0 and RANK_OF[c] >= 9) < 3:
        return None
    suits = [list(s) for s in v.suits]
    give: list[int] = []
    for _ in range(k):
        _, pen = losers(v, suits)
        if pen:
            return None
        cands = [c for s in suits for c in s if vals[c] == 0]  # penalties and bonus cards stay
        if not cands:
            return None
        c = min(cands, key=lambda x: (RANK_OF[x], -len(suits[SUIT_OF[x]])))
        suits[SUIT_OF[c]].remove(c)
        give.append(c)
    total, _ = losers(v, suits)
    return sorted(give) if total == 0 else None


# ============================================================== auction and moon
#: how likely a card of each rank is to take a trick of its suit (an ace surely, a two hardly)
_RANK_RISK: tuple[float, ...] = tuple(float(r + 1) ** 1.5 / 10.0 for r in range(13))


def suit_as_penalty(hand: Sequence[int], suit: int) -> float:
    """How good ``suit`` is for us as the auction's penalty suit (higher is better).

    Low cards of the penalty suit are ammunition: we can always play under a
    lead of it, and when void elsewhere we throw them on other seats' tricks.
    High ones win tricks and take penalties.  A void gives neither, which
    measured worse than a long suit of low cards.
    """
    low = sum(1 for c in hand if SUIT_OF[c] == suit and RANK_OF[c] <= 5)
    high = sum((_RANK_RISK[RANK_OF[c]] for c in hand if SUIT_OF[c] == suit and RANK_OF[c] >= 8), 0.0)
    return low - 0.5 * high


def declare(obs: Observation) -> int:
    """The penalty suit to name: the one we hold most low and fewest high cards of."""
    return max(range(4), key=lambda s: (suit_as_penalty(obs.hand, s), -s))


def bid(obs: Observation) -> int:
    """The auction bid: the lowest raise while naming the suit is worth more to us than it costs.

    Naming the suit is worth about two chips with an ordinary hand, more with
    a long run of low cards in one suit and when a large pool carries over;
    a bid never risks more than a quarter of our chips.
    """
    raises = sorted(int(a.value) for a in obs.legal if a.kind is Kind.BID and isinstance(a.value, int) and a.value > 0)
    if not raises:
        return 0
    best = max(suit_as_penalty(obs.hand, s) for s in range(4))
    worth = 1 + (best >= 2.0) + (best >= 4.0) + obs.pool // 8
    worth = min(worth, max(1, obs.chips[obs.seat] // 4))
    return raises[0] if raises[0] <= worth else 0


def moon(obs: Observation) -> str:
    """The moon choice: whichever leaves our side best placed (see :func:`best_moon_choice`)."""
    return best_moon_choice(obs)


@mypyc_attr(allow_interpreted_subclasses=True)  # compiled, it stays open to subclasses (``shooter``, tuned players)
class StandardBot(Bot):
    """The standard heuristic player; ``params`` tunes its weights."""

    name = "standard"

    def __init__(self, seed: int | str | None = None, params: Params = DEFAULT) -> None:
        super().__init__(seed)
        self.params = params

    def choose_play(self, obs: Observation) -> int:
        return play(obs, self.params)

    def choose_pass(self, obs: Observation) -> list[int]:
        return pass_cards(obs, self.params)

    def choose_bid(self, obs: Observation) -> int:
        return bid(obs)

    def choose_declare(self, obs: Observation) -> int:
        return declare(obs)

    def choose_moon(self, obs: Observation) -> str:
        return moon(obs)


if is_compiled_file(__file__):  # compiled build (setup.py): warn if this source changed since
    warn_if_stale(__name__)
