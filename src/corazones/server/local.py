"""A server in a background thread of this process, on a free port (tests and scripts), and a clock
for its rate limits that a test can stop."""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

from corazones.server.hub import Settings


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


#: The proxies a :class:`LocalServer` trusts unless told otherwise: its own machine's, so that a test can
#: speak for a client of any address with ``X-Forwarded-For``.
LOOPBACK = "127.0.0.1,::1"


class LocalServer:
    """``with LocalServer(db_url, grace=0.3) as srv: srv.base`` — a real uvicorn serving the app.

    ``forwarded_allow_ips`` as ``corazones serve --forwarded-allow-ips`` (:data:`LOOPBACK` unless
    given; '' trusts no proxy, as ``serve`` by default; None: ``$FORWARDED_ALLOW_IPS``, else none).
    """

    def __init__(
        self, db_url: str, port: int | None = None, forwarded_allow_ips: str | None = LOOPBACK, **settings: Any
    ) -> None:
        import uvicorn

        from corazones.server.app import create_app
        from corazones.server.guard import guarded_protocol
        from corazones.server.run import proxy_options

        self.port = port or free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.settings = Settings(db_url=db_url, public_url=self.base, trusted_proxies=forwarded_allow_ips, **settings)
        self.app = create_app(self.settings)
        config = uvicorn.Config(
            self.app,
            host="127.0.0.1",
            port=self.port,
            log_level="warning",
            ws_max_size=65536,
            lifespan="on",
            http=guarded_protocol(self.settings.connections),
            **proxy_options(self.settings.proxies()),
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> LocalServer:
        self.thread.start()
        end = time.monotonic() + 30
        while not self.server.started:
            if time.monotonic() > end or not self.thread.is_alive():
                raise RuntimeError("the server did not start")
            time.sleep(0.02)
        return self

    def __exit__(self, *exc: Any) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=15)

    @property
    def hub(self) -> Any:
        return self.app.state.hub


class ManualClock:
    """A clock for ``Settings.clock`` (the rate limits' clock) that a test can stop and move by hand.

    It runs with ``time.monotonic`` until frozen; inside ``with clock.frozen():`` it stands still and moves
    only by :meth:`advance`, so a budget of N writes (or WebSocket messages) is exactly N however long a
    loaded machine takes to send them, and refills exactly by what the test advances.  After the block it
    runs on from where it stood: it never goes back, whatever ran in between.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._offset = 0.0
        self._frozen_at: float | None = None

    def __call__(self) -> float:
        with self._lock:
            if self._frozen_at is not None:
                return self._frozen_at
            return time.monotonic() + self._offset

    def advance(self, seconds: float) -> None:
        """Move the clock ``seconds`` forward (frozen or not)."""
        with self._lock:
            if self._frozen_at is not None:
                self._frozen_at += seconds
            else:
                self._offset += seconds

    @contextlib.contextmanager
    def frozen(self) -> Iterator[None]:
        """Stand still for the block (not nested: the block's end would thaw the outer one early)."""
        with self._lock:
            if self._frozen_at is not None:
                raise RuntimeError("the clock is already frozen")
            self._frozen_at = time.monotonic() + self._offset
        try:
            yield
        finally:
            with self._lock:
                assert self._frozen_at is not None
                self._offset = self._frozen_at - time.monotonic()
                self._frozen_at = None
