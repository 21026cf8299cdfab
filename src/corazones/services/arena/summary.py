"""The figures of a run: each contender's mean and the paired gap between every two, with their intervals."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from corazones.core.errors import N_, Message
from corazones.services.arena.config import ArenaConfig
from corazones.services.arena.play import BoardResult
from corazones.services.stats import Estimate, TimeHistogram, estimate


@dataclass(frozen=True, slots=True)
class PlayerSummary:
    """One contender's figures over the whole run (lower points are better)."""

    label: str
    spec: str
    points_per_deal: Estimate
    win_rate: Estimate | None
    fair_win_rate: float | None
    games_won: float | None
    tables: int
    hands: int
    moons_shot: int
    moons_suffered: int
    moves: int
    move_time_mean: float
    move_time_p95: float

    def to_json(self) -> dict[str, Any]:
        return {
            "label": self.label,
            "player": self.spec,
            "points_per_deal": self.points_per_deal.to_json(),
            "win_rate": None if self.win_rate is None else self.win_rate.to_json(),
            "fair_win_rate": self.fair_win_rate,
            "games_won": self.games_won,
            "tables": self.tables,
            "seat_hands": self.hands,
            "moons_shot": self.moons_shot,
            "moons_suffered": self.moons_suffered,
            "moves": self.moves,
            "move_time_mean_s": self.move_time_mean,
            "move_time_p95_s": self.move_time_p95,
        }


#: What a score counts (:attr:`ArenaConfig.unit`), as the verdicts name it.
UNITS = {"points": N_("points"), "chips lost": N_("chips lost")}


@dataclass(frozen=True, slots=True)
class Gap:
    """Paired difference ``points(a) - points(b)`` per deal, one value per board.

    Negative means ``a`` takes fewer points than ``b``: ``a`` is the better player.
    """

    a: int
    b: int
    label_a: str
    label_b: str
    gap: Estimate

    def verdict_message(self, unit: str = "points") -> Message:
        """The verdict in words, as a template and its figures: each face words it in its own language."""
        g = self.gap
        unit_words = Message(UNITS.get(unit, unit))
        if g.n < 2:
            return Message(
                N_("{a} - {b}: {gap} {unit}/deal (too few boards for a CI)"),
                a=self.label_a,
                b=self.label_b,
                gap=g.format(),
                unit=unit_words,
            )
        better, worse = (self.label_a, self.label_b) if g.mean < 0 else (self.label_b, self.label_a)
        template = (
            N_(
                "{a} - {b}: {mean} {unit}/deal (95% CI {low} to {high}, {n} boards): "
                "{better} ahead of {worse} by {by}, significant"
            )
            if g.excludes_zero()
            else N_(
                "{a} - {b}: {mean} {unit}/deal (95% CI {low} to {high}, {n} boards): "
                "{better} ahead of {worse} by {by}, not significant"
            )
        )
        return Message(
            template,
            a=self.label_a,
            b=self.label_b,
            mean=f"{g.mean:+.2f}",
            unit=unit_words,
            low=f"{g.low:+.2f}",
            high=f"{g.high:+.2f}",
            n=g.n,
            better=better,
            worse=worse,
            by=f"{abs(g.mean):.2f}",
        )

    def verdict(self, unit: str = "points") -> str:
        """The verdict in English (:meth:`verdict_message` filled)."""
        return str(self.verdict_message(unit))

    def to_json(self) -> dict[str, Any]:
        return {"a": self.label_a, "b": self.label_b, "gap": self.gap.to_json()}


def per_board_points(config: ArenaConfig, results: Sequence[BoardResult]) -> list[list[float | None]]:
    """For each contender, its points per deal on each board (None where it did not sit)."""
    out: list[list[float | None]] = [[] for _ in range(config.k)]
    for br in results:
        pts = [0] * config.k
        hands = [0] * config.k
        for row in br.rows:
            pts[row.contender] += row.points
            hands[row.contender] += row.hands
        for c in range(config.k):
            out[c].append(pts[c] / hands[c] if hands[c] else None)
    return out


def summarise(config: ArenaConfig, results: Sequence[BoardResult]) -> tuple[list[PlayerSummary], list[Gap]]:
    """Per-contender figures and the paired gap of every pair of contenders.

    Boards are the independent units: a contender's value on a board is its
    points over all its seat-hands of that board's rotations, divided by those
    seat-hands; the CI is taken over boards.
    """
    k = config.k
    labels = config.labels
    board_pts = per_board_points(config, results)
    players = []
    games = config.mode == "games"
    for c in range(k):
        rows = [r for br in results for r in br.rows if r.contender == c]
        tables = len({(r.board, r.rotation) for r in rows})
        win: Estimate | None = None
        fair: float | None = None
        won: float | None = None
        if games:
            per_board: list[float] = []
            for br in results:
                by_table: dict[int, float] = {}
                for r in br.rows:
                    if r.contender == c:
                        by_table[r.rotation] = by_table.get(r.rotation, 0.0) + (r.win_share or 0.0)
                if by_table:
                    per_board.append(sum(by_table.values()) / len(by_table))
            win = estimate(per_board)
            won = math.fsum(r.win_share or 0.0 for r in rows)
            fair = (len(rows) / tables / config.rules.players) if tables else None
        hist = TimeHistogram()
        for br in results:
            hist.merge(br.times[c])
        players.append(
            PlayerSummary(
                label=labels[c],
                spec=config.contenders[c],
                points_per_deal=estimate(v for v in board_pts[c] if v is not None),
                win_rate=win,
                fair_win_rate=fair,
                games_won=won,
                tables=tables,
                hands=sum(r.hands for r in rows),
                moons_shot=sum(br.moons_shot[c] for br in results),
                moons_suffered=sum(br.moons_suffered[c] for br in results),
                moves=hist.count,
                move_time_mean=hist.mean,
                move_time_p95=hist.quantile(0.95),
            )
        )
    gaps = []
    for a in range(k):
        for b in range(a + 1, k):
            diffs = [
                pa - pb for pa, pb in zip(board_pts[a], board_pts[b], strict=True) if pa is not None and pb is not None
            ]
            gaps.append(Gap(a, b, labels[a], labels[b], estimate(diffs)))
    return players, gaps
