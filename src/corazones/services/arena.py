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
"""

from __future__ import annotations

import csv
import importlib
import math
import os
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from functools import lru_cache
from multiprocessing import get_context
from pathlib import Path
from typing import Any

from corazones.core.cards import card_str
from corazones.core.errors import N_, CorazonesError, IllegalActionError, Message
from corazones.core.game import Game
from corazones.core.limits import show
from corazones.core.rules import Rules
from corazones.players.base import Player
from corazones.players.registry import LEVELS
from corazones.services.arena_journal import Journal
from corazones.services.stats import Estimate, TimeHistogram, estimate

MODES = ("deals", "games")
BACKENDS = ("local", "ray")
CHIP_SETTLEMENTS = ("chips_1887", "chips_pool")

ProgressFn = Callable[[int, int], None]


class ArenaError(CorazonesError, ValueError):
    """A bad arena setting, or a player that broke the rules during a run."""


# ---------------------------------------------------------------- players
def resolve_player(spec: str) -> Callable[[str], Player]:
    """The factory for a contender: a level name from the registry, or ``module:attribute``.

    ``module:attribute`` lets the arena measure a player that is not (yet)
    registered, e.g. ``mypkg.bots:Cautious``; the attribute is called with the
    seat's seed and must return something with ``act(observation)``.
    """
    if spec in LEVELS:
        return LEVELS[spec]
    if ":" in spec:
        module_name, _, attr = spec.partition(":")
        try:
            module = importlib.import_module(module_name)
        except ImportError as e:
            raise ArenaError(
                N_("player {spec}: cannot import module {module} ({error})"),
                spec=repr(spec),
                module=repr(module_name),
                error=str(e),
            ) from None
        factory = getattr(module, attr, None)
        if not callable(factory):
            raise ArenaError(
                N_("player {spec}: module {module} has no callable {attr}"),
                spec=repr(spec),
                module=repr(module_name),
                attr=repr(attr),
            )
        return factory  # type: ignore[no-any-return]
    raise ArenaError(
        N_("unknown player level {spec}; levels: {levels} (or module:Class)"), spec=repr(spec), levels=", ".join(LEVELS)
    )


def contender_labels(contenders: Sequence[str]) -> tuple[str, ...]:
    """Distinct display names: a level that appears twice becomes ``random`` and ``random#2``."""
    seen: dict[str, int] = {}
    out = []
    for spec in contenders:
        seen[spec] = seen.get(spec, 0) + 1
        out.append(spec if seen[spec] == 1 else f"{spec}#{seen[spec]}")
    return tuple(out)


# ----------------------------------------------------------------- config
@dataclass(frozen=True)
class ArenaConfig:
    """What to play: contenders (level names or ``module:Class``), rules, boards and mode."""

    contenders: tuple[str, ...]
    rules: Rules
    boards: int = 1000
    mode: str = "deals"
    seed: int | str = 0
    duplicate: bool = True
    max_game_hands: int = 1000

    def __post_init__(self) -> None:
        if not isinstance(self.contenders, tuple):
            object.__setattr__(self, "contenders", tuple(self.contenders))
        if len(self.contenders) < 2:
            raise ArenaError(N_("the arena needs at least two contenders, got {count}"), count=len(self.contenders))
        for spec in self.contenders:
            resolve_player(spec)
        if self.mode not in MODES:
            raise ArenaError(
                N_("mode {mode} is not allowed; mode is one of: {modes}"), mode=show(self.mode), modes=", ".join(MODES)
            )
        if isinstance(self.boards, bool) or not isinstance(self.boards, int) or self.boards < 1:
            raise ArenaError(
                N_("the number of boards must be a whole number of at least 1, not {value}"), value=show(self.boards)
            )
        if self.max_game_hands < 1:
            raise ArenaError(N_("max_game_hands must be at least 1, not {value}"), value=show(self.max_game_hands))

    @property
    def k(self) -> int:
        return len(self.contenders)

    @property
    def labels(self) -> tuple[str, ...]:
        return contender_labels(self.contenders)

    @property
    def unit(self) -> str:
        """What a score counts: penalty points, or chips lost under the chip settlements."""
        return "chips lost" if self.rules.settlement in CHIP_SETTLEMENTS else "points"

    def rotations(self, board: int) -> tuple[int, ...]:
        """The seating rotations board ``board`` is played in."""
        return tuple(range(self.k)) if self.duplicate else (board % self.k,)

    def owners(self, rotation: int) -> tuple[int, ...]:
        """Contender index in each seat for ``rotation``."""
        return tuple((seat + rotation) % self.k for seat in range(self.rules.players))

    def board_seed(self, board: int) -> str:
        return f"{self.seed}/{board}"

    def bot_seed(self, board: int, rotation: int, seat: int) -> str:
        return f"{self.seed}/{board}/{rotation}/{seat}"

    def board_rules(self, board: int) -> Rules:
        """The rules board ``board`` is played under (deals mode rotates the pass cycle)."""
        if self.mode == "games":
            return self.rules
        return _rotated_passes(self.rules, board % len(self.rules.pass_cycle))

    def seating(self) -> str:
        """The seat assignment of every rotation, e.g. ``"A B A B | B A B A"``."""
        letters = [chr(ord("A") + i) if i < 26 else str(i) for i in range(self.k)]
        rots = range(self.k) if self.duplicate else range(min(self.k, self.boards))
        return " | ".join(" ".join(letters[o] for o in self.owners(r)) for r in rots)

    def to_json(self) -> dict[str, Any]:
        return {
            "contenders": list(self.contenders),
            "labels": list(self.labels),
            "rules": self.rules.to_dict(),
            "mode": self.mode,
            "boards": self.boards,
            "seed": self.seed,
            "duplicate": self.duplicate,
            "rotations_per_board": self.k if self.duplicate else 1,
            "seating": self.seating(),
            "unit": self.unit,
            "max_game_hands": self.max_game_hands,
        }


@lru_cache(maxsize=64)
def _rotated_passes(rules: Rules, start: int) -> Rules:
    if start == 0:
        return rules
    cycle = rules.pass_cycle
    return rules.replace(passes=cycle[start:] + cycle[:start])


# ---------------------------------------------------------------- results
@dataclass(frozen=True, slots=True)
class SeatRow:
    """One seat of one table: who sat there, which hand they held and how they fared.

    ``hand`` is the holding first dealt to the seat (before any pass), so the
    rows show that the rotations of a board really hand every contender every
    hand.  ``points`` is the seat's total over the hands played (one hand in
    deals mode); ``win_share`` is 1/len(winners) if the seat won the game
    (games mode only).
    """

    board: int
    rotation: int
    seat: int
    contender: int
    hand: str
    hands: int
    points: int
    moons_shot: int
    moons_suffered: int
    win_share: float | None
    moves: int
    move_seconds: float

    def outcome(self) -> tuple[Any, ...]:
        """Everything but the measured time: equal for equal seeds on any backend."""
        return (
            self.board,
            self.rotation,
            self.seat,
            self.contender,
            self.hand,
            self.hands,
            self.points,
            self.moons_shot,
            self.moons_suffered,
            self.win_share,
            self.moves,
        )


@dataclass(slots=True)
class BoardResult:
    """Every table of one board, plus per-contender moon counts and move-time histograms."""

    board: int
    rows: list[SeatRow]
    moons_shot: list[int]
    moons_suffered: list[int]
    times: list[TimeHistogram]


def play_table(
    config: ArenaConfig, board: int, rotation: int
) -> tuple[list[SeatRow], list[int], list[int], list[TimeHistogram]]:
    """Play one board in one rotation; every decision is timed around ``act`` only."""
    rules = config.board_rules(board)
    n = rules.players
    owners = config.owners(rotation)
    game_seed = config.board_seed(board)
    game = Game(rules, seed=game_seed)
    hands0 = [" ".join(card_str(c) for c in game.deal.hand(s)) for s in range(n)]
    players = [resolve_player(config.contenders[owners[s]])(config.bot_seed(board, rotation, s)) for s in range(n)]
    times = [TimeHistogram() for _ in range(config.k)]
    moves = [0] * n
    seconds = [0.0] * n
    stop = 1 if config.mode == "deals" else config.max_game_hands
    labels = config.labels
    while not game.over and game.hand_index < stop:
        for seat in game.to_act():
            obs = game.observation(seat)
            t0 = time.perf_counter()
            action = players[seat].act(obs)
            dt = time.perf_counter() - t0
            try:
                game.apply(action)
            except IllegalActionError as e:
                raise ArenaError(
                    N_(
                        "{player} in seat {seat} made an illegal move on board {board}, rotation {rotation} "
                        "(game seed {seed}, bot seed {bot_seed}): {error}"
                    ),
                    player=labels[owners[seat]],
                    seat=seat,
                    board=board,
                    rotation=rotation,
                    seed=repr(game_seed),
                    bot_seed=repr(config.bot_seed(board, rotation, seat)),
                    error=e,
                ) from None
            moves[seat] += 1
            seconds[seat] += dt
            times[owners[seat]].add(dt)
    if config.mode == "games" and not game.over:
        raise ArenaError(
            N_(
                "board {board} (game seed {seed}) did not end within {hands} hands; "
                "raise max_game_hands or give the rules an end"
            ),
            board=board,
            seed=repr(game_seed),
            hands=config.max_game_hands,
        )
    chips = rules.settlement in CHIP_SETTLEMENTS
    points = [0] * n
    shot = [0] * n
    suffered = [0] * n
    c_shot = [0] * config.k
    c_suffered = [0] * config.k
    present = set(owners)
    for hr in game.history:
        for s in range(n):
            points[s] += -hr.chips_delta[s] if chips else hr.scores[s]
        if hr.shooter is not None:
            o = owners[hr.shooter]
            shot[hr.shooter] += 1
            c_shot[o] += 1
            for s in range(n):
                if owners[s] != o:
                    suffered[s] += 1
            for c in present - {o}:
                c_suffered[c] += 1
    winners = game.winners if config.mode == "games" else ()
    rows = [
        SeatRow(
            board=board,
            rotation=rotation,
            seat=s,
            contender=owners[s],
            hand=hands0[s],
            hands=len(game.history),
            points=points[s],
            moons_shot=shot[s],
            moons_suffered=suffered[s],
            win_share=(1 / len(winners) if s in winners else 0.0) if config.mode == "games" else None,
            moves=moves[s],
            move_seconds=seconds[s],
        )
        for s in range(n)
    ]
    return rows, c_shot, c_suffered, times


def play_board(config: ArenaConfig, board: int) -> BoardResult:
    """Play ``board`` in each of its rotations."""
    result = BoardResult(board, [], [0] * config.k, [0] * config.k, [TimeHistogram() for _ in range(config.k)])
    for rotation in config.rotations(board):
        rows, shot, suffered, times = play_table(config, board, rotation)
        result.rows.extend(rows)
        for c in range(config.k):
            result.moons_shot[c] += shot[c]
            result.moons_suffered[c] += suffered[c]
            result.times[c].merge(times[c])
    return result


def play_boards(config: ArenaConfig, boards: Sequence[int]) -> list[BoardResult]:
    """The unit of work sent to a process or a Ray task: a few boards in a row."""
    return [play_board(config, b) for b in boards]


# --------------------------------------------------------------- summary
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
        return {
            "config": self.config.to_json(),
            "players": [p.to_json() for p in self.players],
            "gaps": [g.to_json() for g in self.gaps],
            "run": {"backend": self.backend, "workers": self.workers, "seconds": self.seconds, **self.extra},
        }

    def write_json(self, path: Path) -> None:
        import json

        path.write_text(json.dumps(self.to_json(), indent=2, allow_nan=False, default=_json_default) + "\n")

    def write_csv(self, path: Path) -> None:
        """One row per board, rotation and seat."""
        labels = self.config.labels
        with path.open("w", newline="") as f:
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
        fig.savefig(path, dpi=110)
        plt.close(fig)

    def write(self, out: Path) -> list[Path]:
        """Write results.json, results.csv and scores.png into ``out`` (created if needed)."""
        out.mkdir(parents=True, exist_ok=True)
        paths = [out / "results.json", out / "results.csv", out / "scores.png"]
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


def _json_default(value: Any) -> Any:
    raise TypeError(f"cannot write {type(value).__name__} as JSON")


# ---------------------------------------------------------------- running
def _chunks(boards: Sequence[int], parts: int) -> list[list[int]]:
    """Runs of ``boards`` in order: about ``parts`` of them, at most 16 boards each."""
    size = max(1, min(16, len(boards) // max(1, parts)))
    return [list(boards[i : i + size]) for i in range(0, len(boards), size)]


#: Where finished boards go as they come in, in any order.
Sink = Callable[[list[BoardResult]], None]


def run_arena(
    config: ArenaConfig,
    workers: int | None = None,
    backend: str = "local",
    progress: ProgressFn | None = None,
    ray_address: str | None = None,
    journal: Path | None = None,
    resume: bool = False,
) -> ArenaResult:
    """Play every board of ``config`` and summarise.

    ``workers`` defaults to ``os.cpu_count()``; 1 plays in this process.
    ``backend="ray"`` sends the same work to Ray (connecting to
    ``ray_address``, or to the running Ray, or starting a local one with
    ``workers`` CPUs that is shut down afterwards).  ``progress(done, total)``
    is called as boards finish.  With ``journal`` (a file path) every board
    is written there as soon as it is finished
    (:class:`~corazones.services.arena_journal.Journal`); with ``resume`` too,
    the boards already in it are read back and only the others are played,
    so an interrupted run loses at most the boards in flight.
    """
    if backend not in BACKENDS:
        raise ArenaError(
            N_("backend {backend} is not allowed; backend is one of: {backends}"),
            backend=show(backend),
            backends=", ".join(BACKENDS),
        )
    if workers is None:
        workers = os.cpu_count() or 1
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ArenaError(N_("workers must be a whole number of at least 1, not {value}"), value=show(workers))
    t0 = time.perf_counter()
    book = None if journal is None else Journal(journal, config, resume)
    results: list[BoardResult] = [] if book is None else book.done()
    played = {br.board for br in results}
    todo = [b for b in range(config.boards) if b not in played]
    if progress is not None and results:
        progress(len(results), config.boards)

    def sink(batch: list[BoardResult]) -> None:
        if book is not None:
            book.add(batch)
        results.extend(batch)
        if progress is not None:
            progress(len(results), config.boards)

    if todo and backend == "ray":
        _run_ray(config, todo, workers, sink, ray_address)
    elif todo:
        _run_local(config, todo, workers, sink)
    results.sort(key=lambda br: br.board)
    players, gaps = summarise(config, results)
    extra = {"resumed_boards": len(played)} if played else {}
    return ArenaResult(config, results, players, gaps, backend, workers, time.perf_counter() - t0, extra)


def _run_local(config: ArenaConfig, boards: list[int], workers: int, sink: Sink) -> None:
    if workers == 1 or len(boards) == 1:
        for b in boards:
            sink([play_board(config, b)])
        return
    chunks = _chunks(boards, workers * 8)
    # spawn: no inherited threads or locks (the progress bar runs a thread), same on every platform
    with ProcessPoolExecutor(max_workers=min(workers, len(chunks)), mp_context=get_context("spawn")) as pool:
        futures: list[Future[list[BoardResult]]] = [pool.submit(play_boards, config, c) for c in chunks]
        try:
            for fut in as_completed(futures):
                sink(fut.result())
        except BaseException:
            for fut in futures:
                fut.cancel()
            raise


def _run_ray(config: ArenaConfig, boards: list[int], workers: int, sink: Sink, address: str | None) -> None:
    try:
        ray: Any = importlib.import_module("ray")  # optional extra; untyped for mypy either way
    except ImportError:
        raise ArenaError(N_("the ray backend needs Ray: pip install 'corazones[ray]'")) from None
    started = False
    if not ray.is_initialized():
        if address:
            ray.init(address=address, include_dashboard=False, log_to_driver=True)
        else:
            ray.init(num_cpus=workers, include_dashboard=False)
        started = True
    try:
        cpus = int(ray.cluster_resources().get("CPU", workers)) or workers
        task = ray.remote(num_cpus=1)(play_boards)
        config_ref = ray.put(config)
        pending = [task.remote(config_ref, chunk) for chunk in _chunks(boards, cpus * 8)]
        try:
            while pending:
                done, pending = ray.wait(pending, num_returns=1)
                for ref in done:
                    sink(ray.get(ref))
        except BaseException:
            for ref in pending:
                ray.cancel(ref)
            raise
    finally:
        if started:
            ray.shutdown()
