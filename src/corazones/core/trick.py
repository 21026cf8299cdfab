"""The record of a completed trick.

It lives apart from :mod:`corazones.core.deal` so that it stays an ordinary
frozen dataclass when the optional compiled build compiles ``deal`` (a
compiled frozen dataclass cannot be unpickled, and observations holding
tricks travel between processes).  ``Trick`` is still importable from
``corazones.core.deal`` and ``corazones.core``.
"""

from __future__ import annotations

from dataclasses import dataclass

from corazones.core.cards import card_str


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
