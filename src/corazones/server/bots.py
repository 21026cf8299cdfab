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
import heapq
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


#: Who goes first when the workers are busy (lower first): a bot's move at a table where a person sits,
#: then a person's hint, then a bot's move at a table where nobody sits (a show of bots), then a game review.
MOVE, HINT, SHOW, REVIEW = 0, 1, 2, 3


def review_part(record: dict[str, Any], seat: int, indexes: list[int], worlds: int, pass_worlds: int) -> list[Any]:
    """Some decisions of one seat's game review (``players.review``) in a worker: the reviewed decisions."""
    from corazones.players.review import review_record

    return list(review_record(record, [seat], worlds=worlds, pass_worlds=pass_worlds, only=set(indexes)).decisions)


def analyse_part(where: Any, worlds: int, open_hands: bool) -> dict[str, Any]:
    """The analysis board (``players.analysis``) of a game or an observation in a worker, as JSON."""
    from corazones.players.analysis import analyse

    return analyse(where, worlds=worlds, open_hands=open_hands).to_json()


class Busy(Exception):
    """Too many hints are waiting for this pool's workers: the request is refused, not queued."""


class _Lane:
    """One pool's queue: at most ``slots`` jobs in the pool at once, the rest wait here by priority.

    A process pool runs what it is given first come, first served; giving it only as much as it has
    workers keeps the choice of what runs next here, so a bot's move at a live table never waits
    behind a queue of hints.
    """

    def __init__(self, slots: int) -> None:
        self.slots = slots
        self.running = 0
        self.waiting: list[tuple[int, int, asyncio.Future[None]]] = []
        self.seq = 0

    def queued(self, priority: int) -> int:
        return sum(1 for p, _, f in self.waiting if p == priority and not f.done())

    async def enter(self, priority: int) -> None:
        """Wait for a free slot, the lowest ``priority`` first (call :meth:`leave` after the job)."""
        if self.running < self.slots and not any(not f.done() for _, _, f in self.waiting):
            self.running += 1
            return
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.seq += 1
        heapq.heappush(self.waiting, (priority, self.seq, fut))
        try:
            await fut
        except asyncio.CancelledError:
            if fut.done() and not fut.cancelled():
                self.leave()  # the slot was handed to us just as we were cancelled: pass it on
            raise

    def leave(self) -> None:
        self.running -= 1
        while self.waiting:
            _, _, fut = heapq.heappop(self.waiting)
            if not fut.done():
                self.running += 1
                fut.set_result(None)
                return


class BotPools:
    """The two process pools, started lazily (a server without bots never starts a process), each with
    a queue by priority in front (:class:`_Lane`)."""

    def __init__(self, workers: int = 1, expert_workers: int = 1, hints_waiting: int | None = None) -> None:
        self._sizes = {"fast": max(1, workers), "deep": max(1, expert_workers)}
        self._pools: dict[str, Executor] = {}
        self._lanes = {key: _Lane(n) for key, n in self._sizes.items()}
        #: Hints that may wait for one pool's workers; one more is refused (:class:`Busy`).
        self.hints_waiting = {
            key: hints_waiting if hints_waiting is not None else 2 * n for key, n in self._sizes.items()
        }

    @staticmethod
    def _key(level: str) -> str:
        return "deep" if level == "expert" else "fast"

    def _pool(self, level: str) -> Executor:
        key = self._key(level)
        pool = self._pools.get(key)
        if pool is None:
            ctx = multiprocessing.get_context("spawn")
            pool = ProcessPoolExecutor(self._sizes[key], mp_context=ctx, initializer=_init_worker)
            self._pools[key] = pool
        return pool

    async def _run(self, level: str, priority: int, fn: Any, *args: Any) -> Any:
        lane = self._lanes[self._key(level)]
        await lane.enter(priority)
        try:
            loop = asyncio.get_running_loop()
            try:
                return await loop.run_in_executor(self._pool(level), fn, *args)
            except BrokenProcessPool:
                # A worker died (killed, out of memory): start a fresh pool and try once more.
                self._pools.pop(self._key(level), None)
                return await loop.run_in_executor(self._pool(level), fn, *args)
        finally:
            lane.leave()

    async def think(self, obs: Observation, level: str, seed: str, priority: int = MOVE) -> dict[str, Any]:
        result: dict[str, Any] = await self._run(level, priority, think, obs, level, seed)
        return result

    async def hint(self, obs: Observation, level: str) -> Any:
        """A hint, after every live table's bot move that is waiting; :class:`Busy` when too many hints
        already wait (so a flood of them is refused at once instead of answered minutes late)."""
        key = self._key(level)
        if self._lanes[key].queued(HINT) >= self.hints_waiting[key]:
            raise Busy(key)
        return await self._run(level, HINT, hint, obs, level)

    async def review(
        self, record: dict[str, Any], seat: int, indexes: list[int], worlds: int, pass_worlds: int
    ) -> list[Any]:
        """Review some decisions of a game in the expert's pool (the same search, the same budget of processes)."""
        result: list[Any] = await self._run("expert", REVIEW, review_part, record, seat, indexes, worlds, pass_worlds)
        return result

    async def analyse(self, game: Any, worlds: int, open_hands: bool) -> dict[str, Any]:
        """The analysis board of the seat to act in ``game``, queued with the hints (:class:`Busy` when too
        many wait).  Only that seat's observation travels unless ``open_hands`` asks for every hand."""
        key = self._key("expert")
        if self._lanes[key].queued(HINT) >= self.hints_waiting[key]:
            raise Busy(key)
        where = game if open_hands else game.observation(game.to_act()[0])
        result: dict[str, Any] = await self._run("expert", HINT, analyse_part, where, worlds, open_hands)
        return result

    def warm(self, level: str = "standard") -> None:
        """Start a pool's processes now (so the first bot move does not wait for them)."""
        self._pool(level)

    def shutdown(self) -> None:
        for pool in self._pools.values():
            pool.shutdown(wait=False, cancel_futures=True)
        self._pools.clear()
