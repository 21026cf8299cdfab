"""``shooter``: a player that goes for the moon whenever its hand makes it plausible.

It is a personality for games (a table where someone may shoot keeps the
others honest) and the sparring partner that measures moon defence: the
``standard`` player shoots only when its cards can take every trick, which
is rare, so defence against it is seldom tested.

The shooter reads its hand as a moon hand when, leading every suit from the
top and the others following low (:func:`~corazones.players.heuristics.losers`),
it would lose only a few tricks and few of them in suits that carry
penalties.  With such a hand it

* passes its weakest cards (the ones that would lose tricks), keeping its
  high hearts and spades and every penalty card;
* takes control early: it wins the tricks it can, leads its surest winners,
  draws the penalty suit and throws its losers when void;
* keeps going while no other seat has taken a penalty point, and gives up
  the plan, playing like ``standard``, once one has.

Everything else (a hand without a moon in it, bids, the penalty suit, the
moon choice) is the ``standard`` player's.
"""

from __future__ import annotations

from dataclasses import dataclass

from corazones.core.observation import Observation
from corazones.players import standard
from corazones.players.base import legal_cards
from corazones.players.heuristics import BIG_PENALTY, RANK_OF, SUIT_OF, View, losers
from corazones.players.standard import StandardBot


@dataclass(frozen=True, slots=True)
class Plan:
    """How bold the shooter is: the tricks it may still lose and yet play for the moon."""

    #: tricks the hand kept after the pass may lose (penalty suits included) for a moon pass
    pass_losers: int = 4
    #: of those, tricks lost in suits that carry penalties
    pass_pen: int = 2
    #: high penalty-suit cards (jack or better) a moon pass needs
    pass_high: int = 2
    #: during play: tricks the hand may still lose, and of them in penalty suits
    play_losers: int = 3
    play_pen: int = 1


BOLD = Plan()


def moon_on(v: View) -> bool:
    """Whether a moon is possible at all: the rules score one and no other seat (side) has a point."""
    r = v.rules
    if r.moon == "off" or v.pos_total <= 0:
        return False
    pos = v.positive()
    mine = {v.me, *v.team} if r.moon_needs == "team" else {v.me}
    if any(pos[s] > 0 for s in range(v.n) if s not in mine):
        return False
    return not (v.kitty_owner is not None and v.obs.kitty_size and v.kitty_owner not in mine)


def moon_pass(v: View, k: int, plan: Plan = BOLD) -> list[int] | None:
    """The ``k`` cards to pass for a moon if the hand kept makes one plausible, else None.

    Cards go one at a time, each time the one whose loss leaves the fewest
    losing tricks (then the lowest); penalty cards and bonus cards stay, as
    the moon needs them.
    """
    if not moon_on(v):
        return None
    vals = v.vals
    pen_suit = v.obs.penalty_suit
    high = sum(1 for c in v.obs.hand if SUIT_OF[c] == pen_suit and RANK_OF[c] >= 9)
    if high < plan.pass_high:
        return None
    suits = [list(s) for s in v.suits]
    give: list[int] = []
    for _ in range(k):
        cands = [c for s in suits for c in s if vals[c] == 0 or (0 < vals[c] < BIG_PENALTY and RANK_OF[c] < 6)]
        if not cands:
            return None

        def after(c: int) -> tuple[int, int, int, int]:
            suits[SUIT_OF[c]].remove(c)
            total, pen = losers(v, suits)
            suits[SUIT_OF[c]].append(c)
            suits[SUIT_OF[c]].sort()
            return (total + pen, vals[c] > 0, RANK_OF[c], c)

        best = min(cands, key=after)
        suits[SUIT_OF[best]].remove(best)
        give.append(best)
    total, pen = losers(v, suits)
    if total > plan.pass_losers or pen > plan.pass_pen:
        return None
    return sorted(give)


def going_for_it(v: View, plan: Plan = BOLD) -> bool:
    """Whether to play for the moon now: still possible, and the hand loses few tricks."""
    if not moon_on(v):
        return False
    total, pen = losers(v)
    if pen > plan.play_pen or total > plan.play_losers:
        return False
    if v.trick:
        # a penalty on a trick we cannot win ends the moon: then play it safe
        winning = [c for c in legal_cards(v.obs) if v.wins_now(c)]
        on_table = v.trick_points() > 0
        if on_table and not winning:
            return False
    return True


def play(obs: Observation, plan: Plan = BOLD) -> int:
    """The shooter's card: the moon plan while it holds, else the ``standard`` player's card."""
    cards = legal_cards(obs)
    if len(cards) == 1:
        return cards[0]
    v = View(obs)
    if going_for_it(v, plan):
        return standard.shoot_card(v, cards)
    return standard.play(obs)


def pass_cards(obs: Observation, plan: Plan = BOLD) -> list[int]:
    """The moon pass when the hand makes a moon plausible, else the ``standard`` player's pass."""
    k = obs.rules.pass_count
    if 0 < k < len(obs.hand):
        v = View(obs)
        to = obs.pass_to
        if to is None or not v.is_partner(to):
            give = moon_pass(v, k, plan)
            if give is not None:
                return give
    return standard.pass_cards(obs)


class ShooterBot(StandardBot):
    """Plays for the moon whenever its hand makes it plausible, otherwise as ``standard``."""

    name = "shooter"

    def __init__(self, seed: int | str | None = None, plan: Plan = BOLD) -> None:
        super().__init__(seed)
        self.plan = plan

    def choose_play(self, obs: Observation) -> int:
        return play(obs, self.plan)

    def choose_pass(self, obs: Observation) -> list[int]:
        return pass_cards(obs, self.plan)
