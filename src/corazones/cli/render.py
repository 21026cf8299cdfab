"""Plain-text rendering shared by the line-mode game and ``corazones replay``.

Kept apart from both so that a trick or a hand result reads the same
wherever it is shown; ``lang`` picks the message table of :mod:`i18n`.
"""

from __future__ import annotations

from collections.abc import Sequence

from corazones.cli.i18n import t
from corazones.core.cards import CARDS, SUIT_LETTERS, card_str, format_cards
from corazones.core.deal import Trick
from corazones.core.observation import HandResult


def cards_text(cards: Sequence[int], glyphs: bool = True) -> str:
    return format_cards(cards, glyphs=glyphs) or "-"


def card_text(card: int, glyphs: bool = True) -> str:
    return CARDS[card].glyph() if glyphs else card_str(card)


def trick_text(tr: Trick, names: Sequence[str], glyphs: bool = True, lang: str = "en") -> str:
    plays = "  ".join(f"{names[s]}:{card_text(c, glyphs)}" for s, c in tr.plays)
    who = t(lang, "annulled") if tr.winner is None else t(lang, "won_by", who=names[tr.winner])
    return f"{plays}   -> {who}"


def seat_values(names: Sequence[str], values: Sequence[int], signed: bool = False) -> str:
    """``seat 0 3, seat 1 0, ...`` (with a sign for hand deltas)."""
    return ", ".join(f"{names[s]} {v:+d}" if signed else f"{names[s]} {v}" for s, v in enumerate(values))


def hand_result_text(h: HandResult, names: Sequence[str], lang: str = "en", glyphs: bool = True) -> str:
    parts = [t(lang, "hand_over", n=h.index + 1)]
    if h.kitty:
        owner = names[h.kitty_owner] if h.kitty_owner is not None else t(lang, "nobody")
        parts.append(t(lang, "kitty_to", cards=cards_text(h.kitty, glyphs), who=owner))
    if h.declarer is not None:
        parts.append(t(lang, "penalty_suit", suit=SUIT_LETTERS[h.penalty_suit], who=names[h.declarer], bid=h.bid))
    if h.shooter is not None and h.moon_choice is not None:
        parts.append(t(lang, "moon_shot", who=names[h.shooter], choice=t(lang, h.moon_choice)))
    parts.append(
        t(lang, "hand_row", row=seat_values(names, h.scores, signed=True), totals=seat_values(names, h.totals))
    )
    if any(h.chips_delta) or h.pool:
        parts.append(t(lang, "chips_row", row=seat_values(names, h.chips_delta, signed=True), pool=h.pool))
    return "\n".join(parts)
