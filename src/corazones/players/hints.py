"""Hints for the terminal and web faces: the move a level would make, and why.

:func:`suggest` asks a fresh bot of the chosen level for its move on the
observation and explains it in a short sentence.  The explanation says what
the move does at the table (ducks under the winning card, dumps the Q♠ on
another seat's trick, leads low...), and, for the searching ``expert``, how
many points it expects from the move and from the next best one.
"""

from __future__ import annotations

from corazones.core.actions import Action, Kind
from corazones.core.cards import SUIT_NAMES, card_str
from corazones.core.observation import Observation
from corazones.players.registry import make_player


def suggest(obs: Observation, level: str = "expert", seed: int | str | None = 0) -> tuple[Action, str]:
    """The action ``level`` would take on ``obs`` and a one-line reason for it.

    Raises ``ValueError`` when the observing seat has nothing to decide or
    the level is unknown.
    """
    if obs.decision is None:
        raise ValueError(f"seat {obs.seat} has no decision to make now, so there is nothing to suggest")
    bot = make_player(level, seed)
    action = bot.act(obs)
    why = describe(obs, action)
    extra = getattr(bot, "last_reason", "")
    if extra and action.kind is Kind.PLAY:
        # the expert's figures follow the plain description
        why = f"{why}; {extra.split(': ', 1)[-1]}"
    elif extra:
        why = extra
    return action, why


def describe(obs: Observation, action: Action) -> str:
    """What ``action`` does in the position of ``obs``, in a few words."""
    k = action.kind
    vals = obs.card_values
    if k is Kind.PASS:
        cards = " ".join(card_str(c) for c in action.cards)
        pen = [c for c in action.cards if vals[c] > 0]
        if pen:
            return f"pass {cards}: gets rid of penalty cards ({' '.join(card_str(c) for c in pen)})"
        return f"pass {cards}: high cards that would win tricks"
    if k is Kind.BID:
        return "no bid" if not action.value else f"bid {action.value}: this hand can name a cheap penalty suit"
    if k is Kind.DECLARE:
        assert isinstance(action.value, int)
        return f"name {SUIT_NAMES[action.value]}: the suit this hand can best keep out of"
    if k is Kind.MOON:
        if action.value == "add_to_others":
            return "add the points to every opponent: that leaves this side best placed"
        return "subtract the points from your own score: that leaves this side best placed"
    card = action.cards[0]
    name = card_str(card)
    suit = card // 13
    gone = {c for t in obs.tricks for _, c in t.plays} | set(obs.hand)
    unseen_above = [c for c in range(card + 1, suit * 13 + 13) if c not in gone and c in obs.rules.deck]
    mine_in_suit = [c for c in obs.hand if c // 13 == suit]
    if not obs.trick:
        if vals[card] > 0:
            return f"lead {name}: a penalty card, but the other leads are worse"
        if not unseen_above:
            return f"lead {name}: nobody can beat it, a safe trick to take"
        if card == min(mine_in_suit):
            return f"lead {name}: low in {SUIT_NAMES[suit]}, unlikely to win the trick"
        return f"lead {name}: {len(unseen_above)} unseen {SUIT_NAMES[suit]} can beat it"
    led = obs.trick[0][1] // 13
    win_card = max((c for _, c in obs.trick if c // 13 == led), default=-1)
    win_seat = next((s for s, c in obs.trick if c == win_card), -1)
    pts = sum(vals[c] for _, c in obs.trick)
    last = len(obs.trick) == obs.rules.players - 1
    if suit != led:
        if vals[card] > 0:
            pts_text = f"{vals[card]} point" + ("s" if vals[card] != 1 else "")
            return f"discard {name} ({pts_text}) on seat {win_seat}'s trick"
        return f"discard {name}: a card that could win a trick later"
    if card < win_card:
        lower = [a.cards[0] for a in obs.legal if a.cards[0] // 13 == led and a.cards[0] < win_card]
        if lower and card == max(lower):
            return f"duck under {card_str(win_card)} with {name}, the highest card that still loses"
        return f"duck under {card_str(win_card)} with {name}"
    if last:
        what = f"takes {pts} points" if pts > 0 else "takes a trick without points"
        return f"win with {name}: last to play, {what}"
    return f"play {name}: cannot stay under {card_str(win_card)}"
