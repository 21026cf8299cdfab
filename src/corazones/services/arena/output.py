"""A finished run (:class:`ArenaResult`) and the files it writes: JSON summary, CSV rows, plot."""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from corazones.core.errors import N_
from corazones.services.arena.config import ArenaConfig, ArenaError
from corazones.services.arena.play import BoardResult, SeatRow
from corazones.services.arena.summary import Gap, PlayerSummary, per_board_points
from corazones.services.files import replace_with, save_atomic
from corazones.services.stats import Estimate

#: The files :meth:`ArenaResult.write` puts into the ``--out`` folder.
RESULT_FILES = ("results.json", "results.csv", "scores.png")


@dataclass
class ArenaResult:
    """A finished run: the configuration, every board, and the summary figures."""

    config: ArenaConfig
    boards: list[BoardResult]
    players: list[PlayerSummary]
    gaps: list[Gap]
    backend: str = "local"
    workers: int = 1
    seconds: float = 0.0
    extra: dict[str, Any] = field(default_factory=dict)

    def rows(self) -> Iterable[SeatRow]:
        for br in self.boards:
            yield from br.rows

    def outcome(self) -> list[tuple[Any, ...]]:
        """Every row without measured times: what must not depend on workers or backend."""
        return [r.outcome() for r in self.rows()]

    def gap(self, a: str, b: str) -> Estimate:
        """The paired gap ``points(a) - points(b)`` by label (either order)."""
        for g in self.gaps:
            if (g.label_a, g.label_b) == (a, b):
                return g.gap
            if (g.label_a, g.label_b) == (b, a):
                e = g.gap
                return Estimate(-e.mean, -e.high, -e.low, e.sd, e.n)
        raise ArenaError(
            N_("no gap between {a} and {b}; players: {players}"),
            a=repr(a),
            b=repr(b),
            players=", ".join(self.config.labels),
        )

    def to_json(self) -> dict[str, Any]:
        """The summary as JSON values; a figure that has no value (``nan``) is ``null``.

        A contender that never sat (``--no-duplicate`` with fewer boards than
        contenders) has no points per deal and no move time, and a gap needs
        boards where both sat: JSON has no ``NaN``, and a reader would choke on it.
        """
        data: dict[str, Any] = _finite(
            {
                "config": self.config.to_json(),
                "players": [p.to_json() for p in self.players],
                "gaps": [g.to_json() for g in self.gaps],
                "run": {"backend": self.backend, "workers": self.workers, "seconds": self.seconds, **self.extra},
            }
        )
        return data

    def write_json(self, path: Path) -> None:
        import json

        save_atomic(path, json.dumps(self.to_json(), indent=2, allow_nan=False, default=_json_default) + "\n")

    def write_csv(self, path: Path) -> None:
        """One row per board, rotation and seat."""
        labels = self.config.labels
        f = io.StringIO(newline="")
        w = csv.writer(f)
        w.writerow(CSV_COLUMNS)
        for r in self.rows():
            w.writerow(
                [
                    r.board,
                    r.rotation,
                    r.seat,
                    labels[r.contender],
                    self.config.contenders[r.contender],
                    self.config.board_seed(r.board),
                    r.hand,
                    r.hands,
                    r.points,
                    r.moons_shot,
                    r.moons_suffered,
                    "" if r.win_share is None else f"{r.win_share:.6g}",
                    r.moves,
                    f"{r.move_seconds:.6f}",
                ]
            )
        save_atomic(path, f.getvalue())  # whole or not at all, as every file a command writes

    def write_plot(self, path: Path) -> None:
        """Score distributions: points per deal of every seat, and per-board means, by player."""
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        cfg = self.config
        per_seat: list[list[float]] = [[] for _ in range(cfg.k)]
        for r in self.rows():
            if r.hands:
                per_seat[r.contender].append(r.points / r.hands)
        board_pts = per_board_points(cfg, self.boards)
        fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 4.5), width_ratios=(3, 2))
        lo = min((min(v) for v in per_seat if v), default=0.0)
        hi = max((max(v) for v in per_seat if v), default=1.0)
        if cfg.mode == "deals":
            bins: Any = [x - 0.5 for x in range(math.floor(lo), math.ceil(hi) + 2)]
        else:
            bins = 30
        for c, label in enumerate(cfg.labels):
            p = self.players[c].points_per_deal
            ax1.hist(per_seat[c], bins=bins, histtype="step", linewidth=1.5, label=f"{label} (mean {p.mean:.2f})")
        ax1.set_yscale("log")
        ax1.set_xlabel(f"{cfg.unit} per deal, one seat" + (" (game average)" if cfg.mode == "games" else ""))
        ax1.set_ylabel("seat-hands" if cfg.mode == "deals" else "seat-games")
        ax1.legend()
        ax1.set_title(f"{cfg.rules.name}, {cfg.boards} boards ({cfg.mode})")
        data = [[v for v in board_pts[c] if v is not None] for c in range(cfg.k)]
        ax2.boxplot(data, showmeans=True)
        ax2.set_xticks(range(1, cfg.k + 1), cfg.labels)
        ax2.set_ylabel(f"{cfg.unit} per deal, per board")
        ax2.set_title("per-board means (lower is better)")
        fig.tight_layout()
        try:  # drawn beside it, then put in its place: a plot is whole or not there
            replace_with(path, lambda f: fig.savefig(f, dpi=110, format="png"))
        finally:
            plt.close(fig)

    def write(self, out: Path) -> list[Path]:
        """Write results.json, results.csv and scores.png into ``out`` (created if needed)."""
        out.mkdir(parents=True, exist_ok=True)
        paths = [out / name for name in RESULT_FILES]
        self.write_json(paths[0])
        self.write_csv(paths[1])
        self.write_plot(paths[2])
        return paths


CSV_COLUMNS = (
    "board",
    "rotation",
    "seat",
    "player",
    "level",
    "game_seed",
    "hand",
    "hands",
    "points",
    "moons_shot",
    "moons_suffered",
    "win_share",
    "moves",
    "move_seconds",
)


def _finite(value: Any) -> Any:
    """``value`` with every float that is not finite (``nan``, ``inf``) replaced by ``None``, at any depth."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_finite(v) for v in value]
    return value


def _json_default(value: Any) -> Any:
    raise TypeError(f"cannot write {type(value).__name__} as JSON")
