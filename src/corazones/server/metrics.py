# mypy: disable-error-code="misc"
# Each method is typed on the whole Hub (self: Hub) so that a part calls the others; mypy refuses a self type
# narrower than the mixin (error code misc), which is the point here.
"""What a server process measures of itself: action and write times, full garbage collections."""

from __future__ import annotations

import gc
import logging
import time
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from corazones.server.hub import Hub

log = logging.getLogger("corazones.server")


class Metrics:
    """Part of :class:`~corazones.server.hub.Hub`: the collector's tuning and the percentiles of /healthz."""

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

    def _gc_watch(self: Hub, phase: str, info: dict[str, Any]) -> None:
        if info.get("generation") != 2:
            return
        if phase == "start":
            self._gc_started = time.perf_counter()
        elif self._gc_started:
            self.gc_times.append(time.perf_counter() - self._gc_started)

    def act_percentiles(self: Hub) -> dict[str, float | None]:
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
