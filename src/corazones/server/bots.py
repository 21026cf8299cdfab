"""Bots and hints think in worker processes, never on the event loop.

Two pools: one for the quick levels (``random``, ``beginner``,
``standard``: milliseconds) and one for ``expert`` (up to a second), so an
expert thinking never queues a quick bot of another table behind it.  Work
travels as an :class:`~corazones.core.observation.Observation` (pickled, a
few hundred bytes): a worker sees exactly what the seat sees.  Workers run
at a lower priority than the server process, so thinking never delays the
broadcasting of moves.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import threading
import time
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from corazones.core.observation import Observation


def _init_worker() -> None:
    with contextlib.suppress(OSError):
        os.nice(5)
    # A server killed with SIGKILL cannot stop its workers: they leave as soon as it is gone.
    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, daemon=True, name="parent-watch").start()


def think(obs: Observation, level: str, seed: str) -> dict[str, Any]:
    """The move a bot of ``level`` makes on ``obs``, as ``Action.to_json``."""
    from corazones.players.registry import make_player

    return make_player(level, seed).act(obs).to_json()


def hint(obs: Observation, level: str) -> Any:
    """``players.hints.suggest`` in a worker (its result pickles)."""
    from corazones.players.hints import suggest

    return suggest(obs, level)


def review_part(record: dict[str, Any], seat: int, indexes: list[int], worlds: int, pass_worlds: int) -> list[Any]:
    """Some decisions of one seat's game review (``players.review``) in a worker: the reviewed decisions."""
    from corazones.players.review import review_record

    return list(review_record(record, [seat], worlds=worlds, pass_worlds=pass_worlds, only=set(indexes)).decisions)


class BotPools:
    """The two process pools, started lazily (a server without bots never starts a process)."""

    def __init__(self, workers: int = 1, expert_workers: int = 1) -> None:
        self._sizes = {"fast": max(1, workers), "deep": max(1, expert_workers)}
        self._pools: dict[str, Executor] = {}

    def _pool(self, level: str) -> Executor:
        key = "deep" if level == "expert" else "fast"
        pool = self._pools.get(key)
        if pool is None:
            ctx = multiprocessing.get_context("spawn")
            pool = ProcessPoolExecutor(self._sizes[key], mp_context=ctx, initializer=_init_worker)
            self._pools[key] = pool
        return pool

    async def _run(self, level: str, fn: Any, *args: Any) -> Any:
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._pool(level), fn, *args)
        except BrokenProcessPool:
            # A worker died (killed, out of memory): start a fresh pool and try once more.
            self._pools.pop("deep" if level == "expert" else "fast", None)
            return await loop.run_in_executor(self._pool(level), fn, *args)

    async def think(self, obs: Observation, level: str, seed: str) -> dict[str, Any]:
        result: dict[str, Any] = await self._run(level, think, obs, level, seed)
        return result

    async def hint(self, obs: Observation, level: str) -> Any:
        return await self._run(level, hint, obs, level)

    async def review(
        self, record: dict[str, Any], seat: int, indexes: list[int], worlds: int, pass_worlds: int
    ) -> list[Any]:
        """Review some decisions of a game in the expert's pool (the same search, the same budget of processes)."""
        result: list[Any] = await self._run("expert", review_part, record, seat, indexes, worlds, pass_worlds)
        return result

    def warm(self, level: str = "standard") -> None:
        """Start a pool's processes now (so the first bot move does not wait for them)."""
        self._pool(level)

    def shutdown(self) -> None:
        for pool in self._pools.values():
            pool.shutdown(wait=False, cancel_futures=True)
        self._pools.clear()
