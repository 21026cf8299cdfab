"""When a player may claim the remaining tricks: decided from their observation alone.

The rule (docs/tui.md): a claim is certain when the claimant is on lead after
the first trick and every card left in their hand is the highest of its suit
among the cards they have not seen, with no unseen copy of it in a two-deck
game (a copy played to the same trick would cancel it).  Then whatever the
others hold, each lead wins its trick: nobody can follow higher and a
discard never wins.  Leading the other suits first and the penalty suit last
keeps every lead legal (once only the penalty suit is left it may be led,
broken or not).  An annulled trick (two pairs of twins) only carries its cards
to the next trick's winner, the claimant again, or to its leader when last.
"""

from __future__ import annotations

from collections import Counter

from corazones.core.actions import Kind
from corazones.core.observation import Observation


def unseen(obs: Observation) -> Counter[int]:
    """Cards the seat has not seen: the deck minus its hand and every card played face up."""
    left = Counter(obs.rules.deck)
    left.subtract(obs.hand)
    for t in obs.tricks:
        left.subtract(c for _, c in t.plays)
    left.subtract(c for _, c in obs.trick)
    return +left


def claim_is_certain(obs: Observation) -> bool:
    """True when ``obs.seat`` will take every remaining trick whatever the others hold (see the module doc)."""
    if obs.decision is not Kind.PLAY or obs.trick or not obs.tricks or not obs.hand:
        return False
    hidden = unseen(obs)
    for card in set(obs.hand):
        if hidden[card]:
            return False
        top = card // 13 * 13 + 12
        if any(hidden[c] for c in range(card + 1, top + 1)):
            return False
    return True


def claim_order(obs: Observation) -> list[int]:
    """The claimant's leads: other suits first, the penalty suit last, highest first within a suit."""
    return sorted(obs.hand, key=lambda c: (c // 13 == obs.penalty_suit, -c))
