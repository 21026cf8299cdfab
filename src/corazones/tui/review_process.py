"""The replay viewer's review, run in a process of its own.

A review is minutes of pure-Python search.  Run in a thread of the app it
would hold the interpreter lock so much that the screen answers a key in
seconds; run in a process (``spawn``, as the expert's and the arena's
workers are) it leaves the app's interpreter free, and stopping it is
immediate (the process is ended) instead of waiting for the decision under
way.  The app's Textual thread worker calls :func:`review_elsewhere`, which
waits on the process's queue, passes the progress on and returns the
:class:`~corazones.players.review.Review`.

This module imports no Textual: the child process imports it alone.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import queue
from collections.abc import Callable
from typing import Any

from corazones.players.review import Review, review_record
from corazones.tui.texts import _

#: How often (seconds) the waiting thread looks whether the review was stopped.
POLL = 0.1


class ReviewProcessDied(RuntimeError):
    """The review's process ended without a result (killed, out of memory)."""


def review_elsewhere(
    record: dict[str, Any],
    seats: list[int] | None,
    worlds: int,
    pass_worlds: int,
    progress: Callable[[int, int], None],
    stopped: Callable[[], bool],
    started: Callable[[int], None] | None = None,
) -> Review | None:
    """Review ``record`` in a new process; ``None`` once ``stopped()`` says so (the process is ended at once).

    ``progress(done, total)`` is called here as the process reports;
    ``started(pid)`` once it runs.  An error of the review is raised here as
    it was raised there.
    """
    ctx = multiprocessing.get_context("spawn")
    # The queue and the start launch multiprocessing's resource tracker, which
    # is handed the process's standard error: in the app that is Textual's
    # capture, which has no file descriptor (the start fails: "bad value(s) in
    # fds_to_keep"), and the terminal would be no better (the tracker's
    # warnings would be written over the screen).  So both happen with
    # standard error on /dev/null.
    with open(os.devnull, "w") as null, contextlib.redirect_stderr(null):
        news: Any = ctx.Queue()
        proc = ctx.Process(target=_child, args=(record, seats, worlds, pass_worlds, news), daemon=True)
        proc.start()
    if started is not None and proc.pid is not None:
        started(proc.pid)
    try:
        while True:
            if stopped():
                return None
            try:
                kind, *rest = news.get(timeout=POLL)
            except queue.Empty:
                if not proc.is_alive() and news.empty():
                    raise ReviewProcessDied(
                        _("the review's process ended with code {code}").format(code=proc.exitcode)
                    ) from None
                continue
            if kind == "progress":
                progress(rest[0], rest[1])
            elif kind == "done":
                result: Review = rest[0]
                return result
            else:
                raise rest[0]
    finally:
        if proc.is_alive():
            proc.terminate()
        proc.join(timeout=5)
        news.close()
        news.cancel_join_thread()


def _child(record: dict[str, Any], seats: list[int] | None, worlds: int, pass_worlds: int, news: Any) -> None:
    """The review's process: nothing of it may reach the terminal the app draws on."""
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (1, 2):
        with contextlib.suppress(OSError):
            os.dup2(null, fd)

    def tick(done: int, total: int) -> None:
        news.put(("progress", done, total))

    try:
        result = review_record(record, seats, worlds=worlds, pass_worlds=pass_worlds, hindsight=False, progress=tick)
    except Exception as e:  # said in the app, as the review raised it
        news.put(("error", e))
        return
    news.put(("done", result))
