"""The sheet: the rules, the names and what was entered; every row, total and chip recomputed from them.

Undoing or editing any row recomputes everything after it, all or nothing, so
the sheet never holds a number that disagrees with its rows.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from corazones.core.cards import HEARTS
from corazones.core.errors import N_
from corazones.core.pad.entry import DEFAULT_REVOKE_PENALTY, MAX_CHIPS, MAX_HANDS, MAX_NAME, Entry, PadError
from corazones.core.pad.layout import Layout, layout
from corazones.core.pad.scoring import Row, State, score
from corazones.core.rules import Rules
from corazones.core.scoring import average_stakes as _average_stakes
from corazones.core.scoring import team_totals
from corazones.core.text import safe_line


@dataclass
class Pad:
    """A score sheet for one game under ``rules`` with the players' ``names`` (seat order)."""

    rules: Rules
    names: tuple[str, ...] = ()
    revoke_penalty: int = DEFAULT_REVOKE_PENALTY
    entries: list[Entry] = field(default_factory=list)
    rows: list[Row] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not isinstance(self.rules, Rules):
            raise PadError(N_("the rules of a pad must be a Rules value"))
        n = self.rules.players
        names = tuple(self.names) if self.names else tuple(f"Player {i + 1}" for i in range(n))
        self.names = check_names(names, n)
        if isinstance(self.revoke_penalty, bool) or not isinstance(self.revoke_penalty, int):
            raise PadError(N_("the revoke penalty must be a whole number of chips"))
        if not 0 <= self.revoke_penalty <= MAX_CHIPS:
            raise PadError(N_("the revoke penalty must be 0 to {high} chips"), high=MAX_CHIPS)
        entries, self.entries, self.rows = list(self.entries), [], []
        for e in entries:
            self.add(e)

    # ------------------------------------------------------------ reading
    @property
    def players(self) -> int:
        return self.rules.players

    @property
    def uses_chips(self) -> bool:
        return self.rules.settlement in ("chips_1887", "chips_pool")

    def _state(self, upto: int | None = None) -> State:
        """Where the game stands after the first ``upto`` rows (all rows by default)."""
        k = len(self.rows) if upto is None else upto
        if k == 0:
            n = self.players
            chips = (self.rules.stake,) * n if self.uses_chips else (0,) * n
            return State(0, (0,) * n, chips, 0, None, False)
        r = self.rows[k - 1]
        return State(k, r.totals, r.chips, r.pool, r.carry_declarer, r.over)

    @property
    def totals(self) -> tuple[int, ...]:
        return self._state().totals

    @property
    def chips(self) -> tuple[int, ...]:
        return self._state().chips

    @property
    def pool(self) -> int:
        return self._state().pool

    @property
    def over(self) -> bool:
        return self._state().over

    @property
    def winners(self) -> tuple[int, ...]:
        return self.rows[-1].winners if self.rows else ()

    @property
    def carry_declarer(self) -> int | None:
        """Who names the suit of the next hand without bidding (Auction's carried-over pool)."""
        return self._state().carry_declarer

    def side_totals(self) -> list[int]:
        """Running totals per side (team totals with partnerships, else per seat)."""
        return team_totals(self.totals, self.rules.teams)

    def side_name(self, side: int) -> str:
        return " + ".join(self.names[s] for s in self.rules.teams[side])

    def leaders(self) -> tuple[int, ...]:
        """The sides in the lead now: lowest total, or most chips in the chip games."""
        if self.uses_chips:
            chips = self.chips
            best = max(chips)
            return tuple(s for s in range(self.players) if chips[s] == best)
        totals = self.side_totals()
        low = min(totals)
        return tuple(i for i, t in enumerate(totals) if t == low)

    def near_target(self, margin: int | None = None) -> tuple[int, ...]:
        """Sides within ``margin`` (default a fifth of the target) of the target, which ends the game."""
        target = self.rules.target
        if target is None or self.uses_chips:
            return ()
        m = max(1, target // 5) if margin is None else margin
        return tuple(i for i, t in enumerate(self.side_totals()) if target - m <= t < target)

    def stakes(self) -> tuple[Fraction, ...] | None:
        """Average stakes (RULES.md §4): what each seat pays (+) or draws (-); None under other settlements."""
        if self.rules.settlement != "average_stakes":
            return None
        return _average_stakes(self.totals)

    def next_pass(self) -> str:
        """The pass direction of the next hand (``hold`` = no pass)."""
        return self.rules.pass_direction(len(self.rows))

    def layout(self, suit: int = HEARTS) -> Layout:
        return layout(self.rules, suit)

    # ------------------------------------------------------------ writing
    def check(self, entry: Entry, index: int | None = None) -> Row:
        """The row ``entry`` would make as hand ``index`` (default: the next); raises :class:`PadError`."""
        k = len(self.rows) if index is None else index
        state = self._state(k)
        if state.over:
            raise PadError(N_("the game is over; it ended with hand {hand}"), hand=state.hands)
        if k >= MAX_HANDS:
            raise PadError(N_("a pad holds at most {limit} hands"), limit=MAX_HANDS)
        return score(self, entry, k, state)

    def add(self, entry: Entry) -> Row:
        """Append a hand; a row that cannot happen raises :class:`PadError` and changes nothing."""
        row = self.check(entry)
        self.entries.append(entry)
        self.rows.append(row)
        return row

    def undo(self) -> Entry:
        """Remove the last hand and return what had been entered."""
        if not self.entries:
            raise PadError(N_("there is no hand to undo"))
        self.rows.pop()
        return self.entries.pop()

    def edit(self, index: int, entry: Entry) -> None:
        """Replace hand ``index`` (0-based) and recompute every row after it; all or nothing."""
        self._index(index)
        self._rebuild(index, [entry, *self.entries[index + 1 :]])

    def remove(self, index: int) -> Entry:
        """Delete hand ``index`` (0-based) and recompute every row after it; all or nothing."""
        self._index(index)
        old = self.entries[index]
        self._rebuild(index, self.entries[index + 1 :])
        return old

    def _index(self, index: int) -> None:
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(self.entries):
            if not self.entries:
                raise PadError(N_("there is no hand yet"))
            raise PadError(N_("there is no hand {hand}; hands are 1 to {last}"), hand=index + 1, last=len(self.entries))

    def _rebuild(self, start: int, entries: list[Entry]) -> None:
        rows = self.rows[:start]
        saved_rows, saved_entries = self.rows, self.entries
        self.rows, self.entries = rows, self.entries[:start]
        try:
            for i, e in enumerate(entries):
                try:
                    self.add(e)
                except PadError as err:
                    if i == 0:
                        raise
                    if self.over:
                        raise PadError(
                            N_("after this change the game ends with hand {hand}; undo the hands after it first"),
                            hand=len(self.rows),
                        ) from None
                    raise PadError(
                        N_("after this change hand {hand} no longer adds up: {reason}"),
                        hand=start + i + 1,
                        reason=err,
                    ) from None
        except PadError:
            self.rows, self.entries = saved_rows, saved_entries
            raise

    # ----------------------------------------------------------- formats
    def to_json(self) -> dict[str, Any]:
        """JSON-ready pad (:func:`corazones.core.pad.files.pad_to_json`)."""
        from corazones.core.pad.files import pad_to_json  # files reads pads back, so it imports this module

        return pad_to_json(self)

    def dumps(self) -> str:
        """Pad JSON text, one hand per line (:func:`corazones.core.pad.files.dumps`)."""
        from corazones.core.pad.files import dumps

        return dumps(self)

    def to_csv(self) -> str:
        """The sheet as CSV (:func:`corazones.core.pad.files.to_csv`)."""
        from corazones.core.pad.files import to_csv

        return to_csv(self)


def check_names(names: Sequence[object], players: int) -> tuple[str, ...]:
    """The players' names, checked: one per seat, not empty, at most ``MAX_NAME`` characters, all different."""
    if not isinstance(names, list | tuple) or len(names) != players:
        got = len(names) if isinstance(names, list | tuple) else 0
        raise PadError(N_("name each of the {players} players ({got} names given)"), players=players, got=got)
    out = []
    for x in names:
        # escapes, controls and bidi overrides would act on a terminal when the sheet is shown
        x = safe_line(x, 4 * MAX_NAME) if isinstance(x, str) else ""
        if not x:
            raise PadError(N_("every player needs a name"))
        if len(x) > MAX_NAME:
            raise PadError(N_("the name {name} is longer than {limit} characters"), name=x[:MAX_NAME], limit=MAX_NAME)
        out.append(x)
    lowered = [x.casefold() for x in out]
    for x in out:
        if lowered.count(x.casefold()) > 1:
            raise PadError(N_("two players are called {name}; give them different names"), name=x)
    return tuple(out)
