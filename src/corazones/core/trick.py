"""The record of a completed trick, and who wins one.

It lives apart from :mod:`corazones.core.deal` so that it stays an ordinary
frozen dataclass when the optional compiled build compiles ``deal`` (a
compiled frozen dataclass cannot be unpickled, and observations holding
tricks travel between processes).  ``Trick`` is still importable from
``corazones.core.deal`` and ``corazones.core``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from corazones.core.cards import card_str

_SUIT_OF = tuple(c // 13 for c in range(52))


@dataclass(frozen=True, slots=True)
class Trick:
    """A completed trick: who led, (seat, card) in play order, who won (None = annulled)."""

    leader: int
    plays: tuple[tuple[int, int], ...]
    winner: int | None

    def to_json(self) -> dict[str, object]:
        return {
            "leader": self.leader,
            "plays": [[s, card_str(c)] for s, c in self.plays],
            "winner": self.winner,
        }


def trick_winner(cards: Sequence[int], two_decks: bool, cancel_rule: str = "two_pairs") -> int | None:
    """Index in ``cards`` of the card winning the (possibly unfinished) trick; None if nothing wins.

    With two decks, identical cards cancel (neither can win) and two pairs
    annul the trick under ``cancel_whole_trick = two_pairs``.  The engine
    settles two-deck tricks with it, and bots call it on unfinished tricks to
    see, for instance, that playing the twin of the winning card makes it lose.
    """
    led = _SUIT_OF[cards[0]]
    if not two_decks:
        best = cards[0]
        wi = 0
        for i in range(1, len(cards)):
            c = cards[i]
            if c > best and _SUIT_OF[c] == led:
                best = c
                wi = i
        return wi
    counts: dict[int, int] = {}
    for c in cards:
        counts[c] = counts.get(c, 0) + 1
    pairs = sum(1 for v in counts.values() if v > 1)
    best = -1
    found: int | None = None
    for i, c in enumerate(cards):
        if _SUIT_OF[c] == led and counts[c] == 1 and c > best:
            best = c
            found = i
    if found is None or (pairs >= 2 and cancel_rule == "two_pairs"):
        return None
    return found
