"""What a server process measures of itself: action and write times, full garbage collections."""

from __future__ import annotations

import contextlib
import gc
from collections import deque
from time import perf_counter
from typing import Any


class Metrics:
    """The recent timings of this process, for /healthz and the load bench, and the collector's tuning."""

    def __init__(self) -> None:
        #: Seconds from an action's arrival to its broadcast (the last 10,000), for /healthz and the load bench.
        self.act_times: deque[float] = deque(maxlen=10_000)
        #: Seconds each group of events waited for its database write (queue and commit), the last 10,000.
        self.write_times: deque[float] = deque(maxlen=10_000)
        #: Seconds of each garbage collection of the oldest generation (the event loop stops meanwhile).
        self.gc_times: deque[float] = deque(maxlen=1_000)
        self._gc_started = 0.0

    @staticmethod
    def tune_gc() -> None:
        """Keep full garbage collections rare and short: they stop the event loop for every table.

        Everything loaded at start (modules, the app, the store) is moved out of the collector's
        sight (``gc.freeze``), and the young generation is collected every 20,000 allocations
        rather than 700: a server allocates a few hundred objects per message, so the default
        ran a collection every few messages and an oldest-generation one (which walks every
        table's game) every few seconds.  Measured with ``bench/web_load.py`` (docs/server.md).
        """
        gc.collect()
        gc.freeze()
        gc.set_threshold(20_000, 20, 20)

    def watch_gc(self) -> None:
        """Time every full collection from now on (until :meth:`unwatch_gc`)."""
        gc.callbacks.append(self._gc_watch)

    def unwatch_gc(self) -> None:
        with contextlib.suppress(ValueError):
            gc.callbacks.remove(self._gc_watch)

    def _gc_watch(self, phase: str, info: dict[str, Any]) -> None:
        if info.get("generation") != 2:
            return
        if phase == "start":
            self._gc_started = perf_counter()
        elif self._gc_started:
            self.gc_times.append(perf_counter() - self._gc_started)

    def percentiles(self) -> dict[str, float | None]:
        """In ms, p50 and p99 of the recent actions' time from arrival to broadcast within this process,
        of the database writes they waited for, and of the full garbage collections (with their count)."""
        out: dict[str, float | None] = {}
        for name, series in (("act", self.act_times), ("write", self.write_times), ("gc", self.gc_times)):
            times = sorted(series)
            out[f"{name}_p50_ms"] = round(times[len(times) // 2] * 1000, 2) if times else None
            out[f"{name}_p99_ms"] = (
                round(times[min(len(times) - 1, int(len(times) * 0.99))] * 1000, 2) if times else None
            )
        out["gc_full"] = len(self.gc_times)
        return out
