"""Which cards a hand is entered with, derived from the rules' card values (never from a preset's name)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from corazones.core.cards import CARDS, HEARTS, RANK_LETTERS, SUIT_GLYPHS
from corazones.core.rules import Rules


@dataclass(frozen=True, slots=True)
class Layout:
    """Which penalty cards a hand is entered with, for one rule set and penalty suit.

    ``counted`` are the interchangeable cards (same value, the penalty suit's
    usual value) entered as a count per player; ``named`` are every other card
    that carries points, each entered with who took it (``copies`` takers with
    two decks).
    """

    suit: int
    counted: tuple[int, ...]
    counted_value: int
    counted_in_play: int
    named: tuple[tuple[int, int, int], ...]  # (card, value, copies in play)
    pen_total: int
    pos_total: int
    reachable: frozenset[int]
    reachable_bonus: frozenset[int]
    whole_suit: bool

    @property
    def counted_name(self) -> str:
        """``♥`` for a whole suit, else the suit glyph and the ranks counted (``♥ 2-10``)."""
        if not self.counted:
            return ""
        glyph = SUIT_GLYPHS[self.suit]
        ranks = sorted(c % 13 for c in self.counted)
        if self.whole_suit:
            return glyph
        runs: list[list[int]] = []
        for r in ranks:
            if runs and r == runs[-1][-1] + 1:
                runs[-1].append(r)
            else:
                runs.append([r])
        parts = [RANK_LETTERS[u[0]] if len(u) < 3 else f"{RANK_LETTERS[u[0]]}-{RANK_LETTERS[u[-1]]}" for u in runs]
        parts = [p for u, p in zip(runs, parts) for p in ([p] if len(u) != 2 else [RANK_LETTERS[x] for x in u])]
        return f"{glyph} " + " ".join(parts)

    def card_named(self, card: int) -> tuple[int, int] | None:
        """(value, copies) of a named card, or ``None`` if ``card`` is not one."""
        for c, v, k in self.named:
            if c == card:
                return v, k
        return None


def layout(rules: Rules, suit: int = HEARTS) -> Layout:
    """The entry layout of ``rules`` with ``suit`` as the penalty suit (cached per rules and suit)."""
    return _layout(rules, suit)


@lru_cache(maxsize=256)
def _layout(rules: Rules, suit: int) -> Layout:
    values = rules.card_values(suit)
    in_play = Counter(rules.deck)
    suit_cards = [c for c in sorted(in_play) if c // 13 == suit and values[c] != 0]
    by_value = Counter(values[c] for c in suit_cards)
    counted: tuple[int, ...] = ()
    counted_value = 0
    if by_value:
        value, how_many = by_value.most_common(1)[0]
        # a value shared by most of the suit makes those cards interchangeable: count them
        if how_many * 2 > 13:
            counted = tuple(c for c in suit_cards if values[c] == value)
            counted_value = value
    counted_set = set(counted)
    named = tuple(
        (c, values[c], in_play[c]) for c in sorted(in_play, key=_display_order) if values[c] and c not in counted_set
    )
    every = [values[c] for c in rules.deck if values[c]]
    return Layout(
        suit=suit,
        counted=counted,
        counted_value=counted_value,
        counted_in_play=sum(in_play[c] for c in counted),
        named=named,
        pen_total=sum(every),
        pos_total=sum(v for v in every if v > 0),
        reachable=_subset_sums(every),
        reachable_bonus=_subset_sums([v for v in every if v < 0]),
        whole_suit=bool(counted) and len(counted) == len({c for c in in_play if c // 13 == suit}),
    )


def _display_order(card: int) -> tuple[int, int]:
    """Named cards in the order a player looks for them: spades, hearts, diamonds, clubs; high first."""
    return ((2, 3, 1, 0).index(card // 13), -(card % 13))


def _subset_sums(values: Sequence[int]) -> frozenset[int]:
    sums = {0}
    for v in values:
        sums |= {s + v for s in sums}
    return frozenset(sums)


def glyph(card: int) -> str:
    """A card as players write it: ``Q♠``."""
    return CARDS[card].glyph()
