"""The arena: computer players against each other, measured with duplicate boards.

Hearts is noisy: a seat's points per deal have a standard deviation near 9,
most of it from the cards dealt.  The arena therefore plays *duplicate*: each
**board** (one seeded deal, or one seeded whole game) is replayed once per
**rotation** of the seating, so every contender holds every hand and the luck
of the cards cancels out of the comparison.

Seating.  With ``k`` contenders and ``n`` seats, rotation ``r`` seats
contender ``(seat + r) % k`` in ``seat``.  Two contenders at four seats give
``A B A B`` then ``B A B A`` (A holds two opposite seats, B the other two, then
they swap); three at four give ``A B C A``, ``B C A B``, ``C A B C``.  Over the
``k`` rotations of a board each contender holds each seat, hence each hand,
exactly once.  Without duplicate (``duplicate=False``) board ``b`` is played
only in rotation ``b % k``.

Boards.  Board ``b`` deals from the game seed ``f"{seed}/{b}"``, so the dealer
draw and every hand are fixed by the seed whoever plays them.  In *deals* mode
only the first hand of that game is played (scores start at 0, the target
still stands), and to sample every pass direction evenly board ``b`` passes
``pass_cycle[b % len(pass_cycle)]``: its rules have the pass cycle rotated to
start there.  In *games* mode the whole game is played to its end under the
rules as given.  Each bot gets its own seed per table,
``f"{seed}/{b}/{rotation}/{seat}"``, so two copies of one level are two
different players and ``A against A`` is a real null test.

Results depend on the seed only, never on the number of workers or the
backend (except move times, which are measured).

The parts: :mod:`~corazones.services.arena.config` (what a run is),
:mod:`~corazones.services.arena.play` (one board at its tables),
:mod:`~corazones.services.arena.summary` (the figures),
:mod:`~corazones.services.arena.output` (the result and its files) and
:mod:`~corazones.services.arena.backends` (where the boards are played).
"""

from __future__ import annotations

from corazones.services.arena.backends import BACKENDS, run_arena
from corazones.services.arena.config import (
    CHIP_SETTLEMENTS,
    MODES,
    ArenaConfig,
    ArenaError,
    ProgressFn,
    contender_labels,
    resolve_player,
)
from corazones.services.arena.output import CSV_COLUMNS, ArenaResult
from corazones.services.arena.play import BoardResult, SeatRow, play_board, play_boards, play_table
from corazones.services.arena.summary import UNITS, Gap, PlayerSummary, per_board_points, summarise

__all__ = [
    "BACKENDS",
    "CHIP_SETTLEMENTS",
    "CSV_COLUMNS",
    "MODES",
    "UNITS",
    "ArenaConfig",
    "ArenaError",
    "ArenaResult",
    "BoardResult",
    "Gap",
    "PlayerSummary",
    "ProgressFn",
    "SeatRow",
    "contender_labels",
    "per_board_points",
    "play_board",
    "play_boards",
    "play_table",
    "resolve_player",
    "run_arena",
    "summarise",
]
