"""A client that keeps asking (resume, ping) but never reads: what the server holds for it is bounded in
size, not only in messages, and dropped when it is closed."""

from __future__ import annotations

import time
from types import SimpleNamespace
from typing import Any

from corazones.server.routes import ws


def session() -> ws.Session:
    hub: Any = SimpleNamespace(settings=SimpleNamespace(clock=time.monotonic))
    return ws.Session(ws=None, hub=hub)  # type: ignore[arg-type]


def queued(s: ws.Session) -> list[Any]:
    out = []
    while not s.queue.empty():
        out.append(s.queue.get_nowait())
    return out


def test_a_client_that_never_reads_is_closed_before_its_backlog_grows_large() -> None:
    s = session()
    snapshot = "x" * 200_000  # a resume's snapshot with many missed events
    for _ in range(100):  # 20 MB asked for, far fewer messages than the count allows
        s.send(snapshot)
    assert s.closed
    # the backlog is dropped: only the close is left to send
    assert queued(s) == [("close", 1008, "too far behind; reconnect and resume")]


def test_a_large_snapshot_within_the_bound_is_sent() -> None:
    s = session()
    s.send("x" * 1_000_000)
    for _ in range(1000):
        s.send("{}")
    assert not s.closed and len(queued(s)) == 1001
