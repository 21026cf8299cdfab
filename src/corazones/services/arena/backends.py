"""Running the boards: in this process, in a pool of local processes, or on Ray; results are the same."""

from __future__ import annotations

import importlib
import os
import signal
import socket
import time
from collections.abc import Callable, Sequence
from functools import partial
from multiprocessing import get_context
from pathlib import Path
from typing import Any

from corazones.core.errors import N_
from corazones.core.limits import show
from corazones.core.validate import is_whole_in
from corazones.i18n.oserrors import os_reason
from corazones.services.arena.config import ArenaConfig, ArenaError, ProgressFn
from corazones.services.arena.output import ArenaResult
from corazones.services.arena.play import BoardResult, play_board, play_boards
from corazones.services.arena.summary import summarise
from corazones.services.arena_journal import Journal

BACKENDS = ("local", "ray")


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
    if not is_whole_in(workers, 1):
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


def _leave_ctrl_c_to_the_run() -> None:
    """In a worker: ignore Ctrl-C, which a terminal sends to every process of the run.

    The run itself answers it (it keeps the journal, says how to go on, and
    stops the workers); a worker that took it too would die printing its own
    traceback on the way out.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _run_local(config: ArenaConfig, boards: list[int], workers: int, sink: Sink) -> None:
    if workers == 1 or len(boards) == 1:
        for b in boards:
            sink([play_board(config, b)])
        return
    chunks = _chunks(boards, workers * 8)
    # spawn: no inherited threads or locks (the progress bar runs a thread), same on every platform.
    # Leaving the block stops the workers at once (Pool.terminate), also when the run is interrupted
    # or fails: a worker must not go on playing boards nobody will collect.
    with get_context("spawn").Pool(processes=min(workers, len(chunks)), initializer=_leave_ctrl_c_to_the_run) as pool:
        for batch in pool.imap_unordered(partial(play_boards, config), chunks):
            sink(batch)


def _check_reachable(address: str) -> None:
    """Refuse a ``host:port`` nobody answers at: ``ray.init`` would retry it for ever, printing warnings.

    ``auto`` and any other form Ray resolves itself are left to Ray.
    """
    host, sep, port = address.removeprefix("ray://").rpartition(":")
    if not sep or not host or not port.isdecimal():
        return
    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=10):
            pass
    except (OSError, OverflowError, ValueError) as e:  # refused, unknown host, timed out, port out of range
        why = os_reason(e) if isinstance(e, OSError) else str(e)
        raise ArenaError(
            N_("cannot reach the Ray cluster at {address}: {why}"), address=show(address), why=why or type(e).__name__
        ) from None


def _run_ray(config: ArenaConfig, boards: list[int], workers: int, sink: Sink, address: str | None) -> None:
    try:
        ray: Any = importlib.import_module("ray")  # optional extra; untyped for mypy either way
    except ImportError:
        raise ArenaError(N_("the ray backend needs Ray: pip install 'corazones[ray]'")) from None
    started = False
    if not ray.is_initialized():
        if address:
            _check_reachable(address)
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
