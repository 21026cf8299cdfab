"""Plain-text rendering shared by the line-mode game and ``corazones replay``."""

from __future__ import annotations

from corazones.core.cards import CARDS, SUIT_LETTERS, card_str, format_cards
from corazones.core.deal import Trick
from corazones.core.observation import HandResult


def cards_text(cards: tuple[int, ...] | list[int], glyphs: bool = True) -> str:
    return format_cards(cards, glyphs=glyphs) or "-"


def trick_text(t: Trick, names: list[str], glyphs: bool = True) -> str:
    plays = "  ".join(f"{names[s]}:{CARDS[c].glyph() if glyphs else card_str(c)}" for s, c in t.plays)
    who = "annulled" if t.winner is None else f"won by {names[t.winner]}"
    return f"{plays}   -> {who}"


def hand_result_text(h: HandResult, names: list[str]) -> str:
    parts = [f"Hand {h.index + 1} over."]
    if h.kitty:
        owner = names[h.kitty_owner] if h.kitty_owner is not None else "nobody"
        parts.append(f"Kitty {cards_text(h.kitty)} went to {owner}.")
    if h.declarer is not None:
        parts.append(f"Penalty suit {SUIT_LETTERS[h.penalty_suit]} named by {names[h.declarer]} (bid {h.bid}).")
    if h.shooter is not None:
        parts.append(f"{names[h.shooter]} shot the moon ({h.moon_choice}).")
    row = ", ".join(f"{names[s]} {h.scores[s]:+d}" for s in range(len(names)))
    tot = ", ".join(f"{names[s]} {h.totals[s]}" for s in range(len(names)))
    parts.append(f"Hand: {row}.  Totals: {tot}.")
    if any(h.chips_delta):
        chips = ", ".join(f"{names[s]} {h.chips_delta[s]:+d}" for s in range(len(names)))
        parts.append(f"Chips: {chips}; pool {h.pool}.")
    return "\n".join(parts)
