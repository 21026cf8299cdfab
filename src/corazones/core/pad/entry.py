"""What the table reports for one hand (:class:`Entry`), the pad's limits and its one error (:class:`PadError`).

Nothing here is computed: an entry is checked and scored by
:mod:`corazones.core.pad.scoring` when it is added to a sheet.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from corazones.core import limits
from corazones.core.cards import HEARTS, parse_card
from corazones.core.errors import N_, CardError, CorazonesError
from corazones.core.limits import show

#: Limits of a pad: a bigger sheet, name or chip count is refused.
MAX_HANDS: Final = limits.MAX_HANDS  # as many as a game may have
MAX_NAME: Final = limits.MAX_NAME_LENGTH  # the one name limit
MAX_CHIPS: Final = 1_000_000
#: Default revoke penalty under the 1887 rules, in chips (agree another with ``revoke_penalty``).
DEFAULT_REVOKE_PENALTY: Final = 13
#: What a revoker made to avoid taking all the hearts pays each opponent (RULES.md §4).
REVOKE_TO_AVOID_ALL: Final = 8


class PadError(CorazonesError, ValueError):
    """A row, pad option or saved pad that cannot be accepted.

    ``template`` is an English sentence with ``{placeholders}`` and ``params``
    fills them; a face shows ``translate(template).format(**params)``.
    ``str(error)`` is the English sentence.  A parameter may itself be a
    :class:`PadError` (the reason a later hand no longer adds up): a face
    translates it the same way before filling the outer template.
    """


@dataclass(frozen=True, slots=True)
class Revoke:
    """A revoke recorded on a hand: who revoked, and whether it was to avoid taking all the hearts."""

    seat: int
    to_avoid_all: bool = False


@dataclass(frozen=True, slots=True)
class Entry:
    """One hand as the table reports it (nothing computed).

    Quick way: ``counts`` (counted cards per seat) and ``cards`` (each named
    card with the seats that took its copies).  Points way: ``points`` per
    seat.  ``shooters`` names who shot the moon (needed in the points way when
    a shooter also took a bonus card), ``moon`` is the shooter's choice.
    Auction hands add ``suit`` (the penalty suit named), ``declarer`` and ``bid``.
    """

    counts: tuple[int, ...] | None = None
    cards: tuple[tuple[int, tuple[int, ...]], ...] = ()
    points: tuple[int, ...] | None = None
    shooters: tuple[int, ...] = ()
    moon: str | None = None
    suit: int = HEARTS
    declarer: int | None = None
    bid: int = 0
    revokes: tuple[Revoke, ...] = ()
    note: str = ""

    @classmethod
    def quick(
        cls,
        counts: Sequence[int],
        cards: Mapping[str | int, int | Sequence[int]] | None = None,
        **more: Any,
    ) -> Entry:
        """A quick-way entry: ``Entry.quick([3, 4, 6, 0], {"QS": 2})``."""
        named: list[tuple[int, tuple[int, ...]]] = []
        for name, who in (cards or {}).items():
            card = to_card(name)
            seats = (who,) if isinstance(who, int) else tuple(who)
            named.append((card, seats))
        return cls(counts=tuple(counts), cards=tuple(sorted(named)), **more)

    @classmethod
    def by_points(cls, points: Sequence[int], **more: Any) -> Entry:
        """A points-way entry: ``Entry.by_points([13, 0, 13, 0])``."""
        return cls(points=tuple(points), **more)


def to_card(name: str | int) -> int:
    """A card given by number (0..51) or written (``QS``, ``Q♠``); :class:`PadError` if it is neither."""
    if isinstance(name, int) and not isinstance(name, bool) and 0 <= name < 52:
        return name
    try:
        return parse_card(name)  # type: ignore[arg-type]
    except CardError:
        raise PadError(N_("{text} is not a card; write rank then suit, e.g. QS or Q♠"), text=show(name)) from None
