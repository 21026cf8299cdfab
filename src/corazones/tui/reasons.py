"""Why a card cannot be played now, in a few words, from the observation alone.

The engine answers only "legal or not"; the player wants the rule that
forbids the card.  The rules are checked in the order the engine applies
them (follow suit, the first lead, the declarer's first lead, the penalty
suit not broken, the discard order, no points on the first trick).
"""

from __future__ import annotations

from corazones.core.cards import SUIT_LETTERS
from corazones.core.observation import Observation
from corazones.core.rules import discard_group_mask
from corazones.tui.texts import _, card_text, suit_name


def why_not(obs: Observation, card: int) -> str | None:
    """None if ``card`` may be played now, else the reason it may not (in the current language)."""
    legal = {a.cards[0] for a in obs.legal}
    if card in legal:
        return None
    if obs.decision is None or obs.turn != obs.seat:
        return _("It is not your turn.")
    suit = card // 13
    hand = obs.hand
    if obs.trick:
        led = obs.trick[0][1] // 13
        if suit != led and any(c // 13 == led for c in hand):
            return _("You must follow suit: play {suit}.").format(suit=suit_name(led))
        for token in obs.rules.discard_order:
            mask = discard_group_mask(token)
            if any(mask >> c & 1 for c in hand) and not mask >> card & 1:
                what = (
                    suit_name(SUIT_LETTERS.index(token))
                    if token in SUIT_LETTERS
                    else _("a card of rank {rank}").format(rank=token)
                )
                return _("When you cannot follow suit you must discard {what}.").format(what=what)
            if any(mask >> c & 1 for c in hand):
                break
        if not obs.tricks and obs.rules.no_points_first_trick and obs.card_values[card] != 0:
            return _("No penalty cards on the first trick while you hold another card.")
        return _("{card} may not be played now.").format(card=card_text(card))
    if not obs.tricks and len(legal) == 1 and obs.rules.first_lead == "lowest_club":
        return _("The first trick is led with {card}.").format(card=card_text(next(iter(legal))))
    pen = obs.penalty_suit
    if suit == pen and not obs.tricks and obs.rules.auction and obs.declarer == obs.seat:
        return _("The declarer may not lead the penalty suit to the first trick.")
    if suit == pen and obs.rules.must_break_hearts and not obs.hearts_broken:
        return _("{suit} may not be led until one has been played.").format(suit=suit_name(pen).capitalize())
    return _("{card} may not be played now.").format(card=card_text(card))
