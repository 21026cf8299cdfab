"""Score pad for games played with real cards: hands entered by people, scored like the engine's.

People at a kitchen table report each hand in one of two ways:

* the quick way — how many of the *counted* penalty cards each player took
  (the hearts, usually) and who took each *named* card (Q♠, J♦, Black Maria's
  spades, every spot-valued heart...).  Which cards are counted and which are
  named is derived from the rules' card values (:func:`layout`), never from
  the preset's name;
* the points way — each player's points for the hand, plus who shot the moon
  when that cannot be seen from the points.

Either way the row is checked against the rules in force and refused, with a
reason a player understands, when it cannot happen (:class:`PadError` carries
an English template and its parameters; the faces translate the template).
Hand scores, the moon, chips, the pool, the end of the game and the winners
come from :mod:`corazones.core.scoring`, the code the engine settles with.

The pad keeps only what was entered (:class:`Entry`); every total, chip count
and pool is recomputed from the first row, so undoing or editing any row
recomputes everything after it, and a saved pad holds no number that could
disagree with its rows.  JSON (strict reader with size limits) and CSV are
text in and text out: the core does no I/O.

The package in parts, each read at once: :mod:`~corazones.core.pad.entry`
(what is entered, the limits, :class:`PadError`), :mod:`~corazones.core.pad.layout`
(which cards are counted and which named), :mod:`~corazones.core.pad.scoring`
(one hand checked and scored into a :class:`Row`), :mod:`~corazones.core.pad.sheet`
(:class:`Pad`, the rows recomputed from the entries), :mod:`~corazones.core.pad.files`
(JSON and CSV) and :mod:`~corazones.core.pad.grammar` (a hand typed as one line,
the words every face reads).
"""

from corazones.core.pad.entry import (
    DEFAULT_REVOKE_PENALTY,
    MAX_CHIPS,
    MAX_HANDS,
    MAX_NAME,
    REVOKE_TO_AVOID_ALL,
    Entry,
    PadError,
    Revoke,
)
from corazones.core.pad.files import (
    FORMAT,
    MAX_TEXT,
    VERSION,
    entry_from_json,
    entry_to_json,
    from_json,
    loads,
)
from corazones.core.pad.layout import Layout, glyph, layout
from corazones.core.pad.scoring import Row
from corazones.core.pad.sheet import Pad, check_names

__all__ = [
    "DEFAULT_REVOKE_PENALTY",
    "FORMAT",
    "MAX_CHIPS",
    "MAX_HANDS",
    "MAX_NAME",
    "MAX_TEXT",
    "REVOKE_TO_AVOID_ALL",
    "VERSION",
    "Entry",
    "Layout",
    "Pad",
    "PadError",
    "Revoke",
    "Row",
    "check_names",
    "entry_from_json",
    "entry_to_json",
    "from_json",
    "glyph",
    "layout",
    "loads",
]
