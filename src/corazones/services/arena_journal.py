"""The arena's journal: each finished board is written down at once, so a long run survives an interruption.

A measurement of the expert in every preset takes hours on a small machine;
a power cut, a closed laptop or Ctrl-C must not throw away the boards
already played.  With a journal, :func:`~corazones.services.arena.run_arena`
appends every board to a JSON-lines file as soon as it is finished (flushed
and synced), and a later run of the same configuration with ``resume``
reads the boards back and plays only the missing ones.  Asking for more
boards than the journal holds extends a finished run: board ``b`` is dealt
from ``f"{seed}/{b}"`` whatever else was played, so boards 0 to 499 of a
run of 1,000 are exactly the boards of a run of 500.

The first line says what was played (the configuration without the board
count, the version of Corazones, and a fingerprint of the code that decides
the play: :func:`code_fingerprint`); resuming under another configuration,
version or code is refused, naming what differs, since mixing two different
measurements would give figures that belong to neither.  The fingerprint
matters most while a bot is being improved: a build changed between two
sittings keeps its version number.  A last
line cut short by the interruption is dropped (that board is played
again); any other line that is not a board of this run is refused with
its line number, and the file is left as it was.  Each line is checked
with a pydantic model, so a hand-edited or foreign file cannot slip wrong
types into the figures.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import os
from dataclasses import astuple
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, ValidationError

import corazones
from corazones.core.errors import N_, CorazonesError
from corazones.core.limits import show
from corazones.i18n.oserrors import os_reason
from corazones.services.stats import TimeHistogram

if TYPE_CHECKING:
    from corazones.services.arena import ArenaConfig, BoardResult

#: What the first line of a journal names itself.
KIND = "corazones-arena-journal"
#: The file layout; a journal of another layout is refused.
LAYOUT = 1
#: The file name inside an ``--out`` folder.
FILE_NAME = "boards.jsonl"


class JournalError(CorazonesError, ValueError):
    """A journal that cannot be resumed: another run's, another version's, or damaged."""


class JournalWriteError(CorazonesError):
    """The journal could not be written (a full disk, a folder gone): the run stops, the boards already in it stay."""


class _Header(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    kind: str
    layout: int
    version: str
    code: str
    config: dict[str, Any]


class _Times(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    count: int
    total: float
    longest: float
    bins: dict[str, int]


class _Board(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    board: int
    #: one list per seat row, in the field order of SeatRow
    rows: list[tuple[int, int, int, int, str, int, int, int, int, float | None, int, float]]
    moons_shot: list[int]
    moons_suffered: list[int]
    times: list[_Times]


def run_key(config: ArenaConfig) -> dict[str, Any]:
    """What must be equal for two runs' boards to belong to one measurement: all but the board count."""
    key = config.to_json()
    for name in ("boards", "seating"):  # the seating shown depends on the count without duplicate
        key.pop(name, None)
    return key


def code_fingerprint(contenders: tuple[str, ...]) -> str:
    """A digest of the sources that decide how the boards are played: the rules and the players.

    That is every Python file of :mod:`corazones.core` and
    :mod:`corazones.players` and the players' data (the ``learned`` level's
    weights), not the compiled modules and build records made from those
    sources, which differ by machine; and the module file of each
    ``module:attribute`` contender.  The faces, the services and the docs do not change a board.
    """
    root = Path(corazones.__file__).parent
    files = [
        f
        for floor in ("core", "players")
        for f in sorted((root / floor).rglob("*"))
        if f.is_file() and (f.suffix == ".py" or "data" in f.relative_to(root).parts) and "__pycache__" not in f.parts
    ]
    for spec in contenders:
        module, sep, _ = spec.partition(":")
        if sep:
            origin = getattr(importlib.import_module(module), "__file__", None)
            if origin:
                files.append(Path(origin))
    digest = hashlib.sha256()
    for f in files:
        name = f.relative_to(root).as_posix() if f.is_relative_to(root) else f.name
        digest.update(name.encode() + b"\0" + f.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def _header(config: ArenaConfig) -> dict[str, Any]:
    return {
        "kind": KIND,
        "layout": LAYOUT,
        "version": corazones.__version__,
        "code": code_fingerprint(config.contenders),
        "config": run_key(config),
    }


def board_line(result: BoardResult) -> str:
    """One board as a line of JSON."""
    return json.dumps(
        {
            "board": result.board,
            "rows": [list(astuple(r)) for r in result.rows],
            "moons_shot": result.moons_shot,
            "moons_suffered": result.moons_suffered,
            "times": [t.to_json() for t in result.times],
        },
        allow_nan=False,
        separators=(",", ":"),
    )


def _board_from(data: _Board, config: ArenaConfig) -> BoardResult:
    from corazones.services.arena import BoardResult, SeatRow

    k = config.k
    if data.board < 0:
        raise ValueError(f"board {data.board} is no board number; boards count from 0")
    if not (len(data.moons_shot) == len(data.moons_suffered) == len(data.times) == k):
        raise ValueError(f"{k} contenders need {k} moon counts and {k} time records")
    rows = [SeatRow(*r) for r in data.rows]
    if any(r.board != data.board or not 0 <= r.contender < k for r in rows):
        raise ValueError("a seat row belongs to another board or names no contender of this run")
    # every seat of every rotation this run plays the board in, once, held by the contender the seating puts there
    seating = [(r, s, config.owners(r)[s]) for r in config.rotations(data.board) for s in range(config.rules.players)]
    if sorted((r.rotation, r.seat, r.contender) for r in rows) != seating:
        raise ValueError("its seat rows are not the seats of this run's rotations")
    times = [TimeHistogram.from_json(t.model_dump()) for t in data.times]
    return BoardResult(data.board, rows, list(data.moons_shot), list(data.moons_suffered), times)


class Journal:
    """The boards of one run, on disk: read back when resuming, appended to as boards finish."""

    def __init__(self, path: Path, config: ArenaConfig, resume: bool) -> None:
        """Open ``path`` for ``config``: a new journal, or (``resume``) the one there, checked line by line.

        Without ``resume`` an existing journal is refused rather than
        overwritten: it may hold hours of play.
        """
        self.path = path
        self.config = config
        self.boards: dict[int, BoardResult] = {}
        if path.exists() and path.stat().st_size > 0:
            if not resume:
                raise JournalError(
                    N_("{path} already holds the boards of a run; resume it (--resume), or write into another folder"),
                    path=show(str(path)),
                )
            self._read()
        else:
            try:
                path.write_text(json.dumps(_header(config), separators=(",", ":")) + "\n")
            except OSError as e:
                path.unlink(missing_ok=True)  # a first line cut short would block the next start
                raise self._cannot_write(e) from None

    def _read(self) -> None:
        raw = self.path.read_bytes()
        complete = raw.rfind(b"\n") + 1
        lines = raw[:complete].decode("utf-8", errors="replace").splitlines()
        if not lines:  # not empty (an empty file is a new journal), yet no line ends
            raise JournalError(
                N_(
                    "{path} is not an arena journal: its first line is cut short (the run stopped before "
                    "writing it); remove the file or write into another folder"
                ),
                path=show(str(self.path)),
            )
        try:
            head = _Header.model_validate_json(lines[0])
        except ValidationError:
            raise JournalError(
                N_("{path} is not an arena journal: its first line does not say what was played"),
                path=show(str(self.path)),
            ) from None
        if head.kind != KIND or head.layout != LAYOUT:
            raise JournalError(
                N_("{path} is not an arena journal of layout {layout}"), path=show(str(self.path)), layout=LAYOUT
            )
        if head.version != corazones.__version__:
            raise JournalError(
                N_(
                    "{path} was played by Corazones {theirs}, this is {ours}: its boards cannot be mixed "
                    "with new ones; write into another folder"
                ),
                path=show(str(self.path)),
                theirs=show(head.version),
                ours=corazones.__version__,
            )
        if head.code != code_fingerprint(self.config.contenders):
            raise JournalError(
                N_(
                    "{path} was played by other code (the rules, the players or a contender's module have "
                    "changed since): its boards cannot be mixed with new ones; write into another folder"
                ),
                path=show(str(self.path)),
            )
        ours = run_key(self.config)
        differ = sorted(k for k in ours.keys() | head.config.keys() if ours.get(k) != head.config.get(k))
        if differ:
            raise JournalError(
                N_("{path} holds another run (different {fields}); give the same settings or another folder"),
                path=show(str(self.path)),
                fields=", ".join(differ),
            )
        for number, line in enumerate(lines[1:], start=2):
            try:
                board = _board_from(_Board.model_validate_json(line), self.config)
            except (ValidationError, ValueError, TypeError) as e:
                first = e.errors()[0]["msg"] if isinstance(e, ValidationError) else str(e)
                raise JournalError(
                    N_("line {line} of {path} is not a board of this run ({why}); the file is left as it is"),
                    line=number,
                    path=show(str(self.path)),
                    why=first,
                ) from None
            self.boards.setdefault(board.board, board)
        if complete < len(raw):
            # The last line was cut by the interruption: drop it, its board is played again.  Only now, once
            # every line has shown this is the journal of this run: no other file is ever cut, and a journal
            # refused above is left exactly as it was.
            with self.path.open("r+b") as f:
                f.truncate(complete)

    def done(self) -> list[BoardResult]:
        """The boards already played that this run counts (numbers below its board count)."""
        return [b for n, b in sorted(self.boards.items()) if n < self.config.boards]

    def add(self, results: list[BoardResult]) -> None:
        """Append finished boards and push them to the disk before going on.

        A write that fails (``No space left on device``) stops the run with a
        :class:`JournalWriteError`: a line it cut short is dropped when the run
        is resumed, so every board written before is kept.
        """
        try:
            with self.path.open("a") as f:
                for r in results:
                    f.write(board_line(r) + "\n")
                    self.boards.setdefault(r.board, r)
                f.flush()
                os.fsync(f.fileno())
        except OSError as e:
            raise self._cannot_write(e) from None

    def _cannot_write(self, e: OSError) -> JournalWriteError:
        return JournalWriteError(
            N_(
                "could not write the journal {path}: {why}; the boards already in it are kept: "
                "make room and give the same command with --resume to go on"
            ),
            path=show(str(self.path)),
            why=os_reason(e),
        )


__all__ = ["FILE_NAME", "Journal", "JournalError", "JournalWriteError", "board_line", "code_fingerprint", "run_key"]
