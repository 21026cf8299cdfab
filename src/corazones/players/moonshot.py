"""``moonshot``: the expert's search, with its own moon as a plan it weighs at every decision.

The rule-of-thumb ``shooter`` goes for the moon whenever its hand looks like
a moon hand and plays it in the open; a defender that reads those rules
reads it.  ``moonshot`` shoots only when the search says it pays, and a
defence measured against it is measured against a player that keeps its plan
hidden and changes course.

Every decision is the expert's search (:class:`~corazones.players.expert.ExpertBot`:
sampled deals consistent with ``observation(seat)``, every option played to
the end of the hand), with two plans for each option while a moon is still
open to it (no other seat or side has a penalty point): play safe, or play
the rest of the hand for the moon.  Each (option, plan) pair is raced on the
same deals and the best pair wins, so a plan is chosen on its mean over the
deals, not guessed deal by deal, and it is chosen again at every card: the
plan is kept while the search finds it worth more than playing safe and
dropped as soon as it is not (a defender's card that takes a point closes it
for good).

Valued properly.  The moon is scored by the points it moves (the
expert's :class:`~corazones.players.search.Scorer`, the shooter taking the
better moon option), and a failed moon by the points it took.  What decides
is who defends in the playouts: ``moon_share`` is the share of the points
the shooter must hold before the others defend (0.5 by default, about where
the playouts' defenders wake up against any moon).  Defending from the
first card (0) was tried and dropped: before the shooter has a point, the
playouts' defenders give their points to whoever else wins a trick, so the
"moon" plan became a way to be spared points rather than a moon (it was
chosen on most deals and shot none in 26); from a quarter of the points it
shot one in 27, from half three in 28 (see ``docs/bots.md``).

The pass.  With a hand that has high cards enough to dream of it (a quarter
of them jack or better), the expert's candidate passes, plus the
rule-of-thumb shooter's moon pass (:func:`~corazones.players.shooter.moon_pass`),
are each played out under both plans, and the best (pass, plan) pair is
passed: a pass that sets a moon up is chosen when the moon after it is worth
more than the safest pass played safe.

Everything else (bids, the penalty suit, the moon choice, variants without a
moon) is the expert's, with the defence it was first measured with: no
charge for another seat's moon and playout defenders that shed their
highest card under the shooter's (``moon_charge=0``, ``stoppers=False``), so
that a change to the expert's defence is measured against the same shooter.
"""

from __future__ import annotations

from typing import Any

from corazones.core.cards import card_str
from corazones.core.observation import Observation
from corazones.players import shooter, standard
from corazones.players.base import legal_cards
from corazones.players.expert import (
    WATCH_WORLDS,
    ExpertBot,
    SearchResult,
    _pass_candidates,
    equivalent_classes,
)
from corazones.players.heuristics import RANK_OF, View

#: Share of the hand's cards that must be jack or better before a pass is weighed under the moon plan.
PASS_HIGH_SHARE = 0.25


class MoonshotBot(ExpertBot):
    """The expert's search with its own moon as a second plan for every option; see the module text."""

    name = "moonshot"

    def __init__(self, seed: int | str | None = None, *, moon_share: float = 0.5, **kwargs: Any) -> None:
        # the sparring partner's own defence stays the one it was measured with
        kwargs.setdefault("moon_charge", 0.0)
        kwargs.setdefault("stoppers", False)
        super().__init__(seed, **kwargs)
        if not 0.0 <= moon_share <= 1.0:
            raise ValueError(f"moon_share must be between 0 and 1, not {moon_share}")
        self.moon_share = moon_share
        #: whether the last decision chose the moon plan
        self.aiming = False

    # ------------------------------------------------------------- play
    def search(self, obs: Observation) -> SearchResult:
        """The expert's search over (card, plan) pairs while a moon is open, else the expert's own."""
        self.aiming = False
        legal = legal_cards(obs)
        groups = equivalent_classes(obs, legal)
        moves = [g[0] for g in groups]
        view = View(obs)
        if len(moves) == 1 or not shooter.moon_on(view) or standard.shooting(view, legal):
            res = super().search(obs)
            self.aiming = res.moon
            return res
        me = obs.seat
        watch = self._watch(view)
        options = [(m, -1) for m in moves] + [(m, me) for m in moves]
        budget = self.worlds * (WATCH_WORLDS if watch[0] >= 0 else 1)
        means, mean_p, counts = self._race("plans", obs, options, (self.moon_share,), budget, self.infer, watch)
        most = max(counts)
        # ties go to playing safe (listed first), then to the lower card
        best = max((i for i in range(len(options)) if counts[i] == most), key=lambda i: (round(means[i], 9), -i))
        move, plan = options[best]
        self.aiming = plan == me
        values: dict[int, float] = {}
        points: dict[int, float] = {}
        for i, (m, _plan) in enumerate(options):
            if counts[i] == most and (m not in values or means[i] > values[m]):
                values[m], points[m] = means[i], mean_p[i]
        points[move] = mean_p[best]
        values[move] = means[best]
        for g in groups:
            for c in g[1:]:
                if g[0] in values:
                    values[c], points[c] = values[g[0]], points[g[0]]
        choice = move
        if not self.aiming:
            prior = self._policy_card(obs)
            for g in groups:
                if move in g and prior in g:
                    choice = prior
        return SearchResult(choice, values, points, most, moon=self.aiming)

    def choose_play(self, obs: Observation) -> int:
        card = super().choose_play(obs)
        if self.aiming and self.last is not None and self.last.values:
            self.last_reason = f"{card_str(card)}: playing for the moon, worth more than playing safe here"
        return card

    # ------------------------------------------------------------- pass
    def choose_pass(self, obs: Observation) -> list[int]:
        """The best (pass, plan) pair when the hand has high cards enough for a moon, else the expert's pass."""
        self.aiming = False
        r = obs.rules
        hand = list(obs.hand)
        view = View(obs)
        high = sum(1 for c in hand if RANK_OF[c] >= 9)
        to = obs.pass_to
        if (
            self.pass_worlds <= 0
            or not shooter.moon_on(view)
            or high < PASS_HIGH_SHARE * len(hand)
            or (to is not None and view.is_partner(to))
        ):
            return super().choose_pass(obs)
        candidates = _pass_candidates(obs, hand, r.pass_count, self.pass_candidates)
        moon = shooter.moon_pass(view, r.pass_count, shooter.Plan(pass_losers=6, pass_pen=3, pass_high=1))
        if moon is not None and moon not in candidates:
            candidates.append(moon)
        me = obs.seat
        options = [(c, -1) for c in candidates] + [(c, me) for c in candidates]
        means, _mean_p, counts = self._race("pass_plans", obs, options, (self.moon_share,), self.pass_worlds, False)
        most = max(counts)
        best = max((i for i in range(len(options)) if counts[i] == most), key=lambda i: (round(means[i], 9), -i))
        cand, plan = options[best]
        self.aiming = plan == me
        self.last_reason = (
            f"passes {' '.join(card_str(c) for c in cand)}"
            + (" to set up a moon" if self.aiming else "")
            + f": worth {means[best]:+.1f} over {counts[best]} deals"
        )
        return cand


__all__ = ["MoonshotBot"]
