"""A small synchronous client of the web protocol (HTTP with urllib, WebSocket with ``websockets``).

The tests, the load bench and scripts use it to play through a real server
exactly as a browser does: a guest token, a table, one WebSocket per seat.
It keeps the last snapshot's and events' view, so a script can ask "is it my
turn, and what may I play?" without knowing the protocol's details.
"""

from __future__ import annotations

import contextlib
import json
import random
import time
import urllib.error
import urllib.request
from typing import Any

from websockets.sync.client import ClientConnection, connect


class ApiError(Exception):
    def __init__(self, status: int, detail: Any) -> None:
        super().__init__(f"HTTP {status}: {detail}")
        self.status = status
        self.detail = detail


class Api:
    """The HTTP API of one server (``base`` like ``http://127.0.0.1:8000``)."""

    def __init__(self, base: str, token: str | None = None) -> None:
        self.base = base.rstrip("/")
        self.token = token

    def request(self, method: str, path: str, body: Any = None, raw: bool = False) -> Any:
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.base + path, data=data, method=method)
        if data is not None:
            req.add_header("Content-Type", "application/json")
        if self.token:
            req.add_header("Authorization", f"Bearer {self.token}")
        try:
            with urllib.request.urlopen(req, timeout=30) as resp:
                payload = resp.read()
        except urllib.error.HTTPError as e:
            text = e.read().decode("utf-8", "replace")
            try:
                detail = json.loads(text).get("detail", text)
            except (json.JSONDecodeError, AttributeError):
                detail = text
            raise ApiError(e.code, detail) from None
        if raw:
            return payload.decode("utf-8")
        return json.loads(payload)

    def guest(self, name: str) -> dict[str, Any]:
        reply = self.request("POST", "/api/auth/guest", {"name": name})
        self.token = reply["token"]
        return reply  # type: ignore[no-any-return]

    def create(self, **body: Any) -> dict[str, Any]:
        return self.request("POST", "/api/tables", body)  # type: ignore[no-any-return]

    def join(self, table: str, seat: int | None = None, invite: str | None = None) -> dict[str, Any]:
        return self.request("POST", f"/api/tables/{table}/join", {"seat": seat, "invite": invite})  # type: ignore[no-any-return]

    def table(self, table: str) -> dict[str, Any]:
        return self.request("GET", f"/api/tables/{table}")  # type: ignore[no-any-return]

    def ws_url(self, table: str) -> str:
        return "ws" + self.base[len("http") :] + f"/ws/tables/{table}"


class TableClient:
    """One WebSocket connection to a table, with the latest view it was sent."""

    def __init__(self, api: Api, table: str, last_seq: int | None = None, lang: str = "en") -> None:
        self.api = api
        self.table = table
        self.ws: ClientConnection = connect(
            api.ws_url(table), open_timeout=60, max_size=2**22, compression=None, legacy=True
        )
        self.seq = 0
        self.view: dict[str, Any] | None = None
        self.seat: int | None = None
        self.role: str | None = None
        self.events: list[dict[str, Any]] = []
        self.errors: list[dict[str, Any]] = []
        self.other: list[dict[str, Any]] = []
        self.snapshot: dict[str, Any] | None = None
        self.log: list[dict[str, Any]] = []  # every message received, in order
        self.send({"type": "hello", "token": api.token, "last_seq": last_seq, "lang": lang})
        self.wait(lambda m: m["type"] == "snapshot")

    def send(self, msg: Any) -> None:
        self.ws.send(msg if isinstance(msg, str | bytes) else json.dumps(msg))

    def close(self) -> None:
        self.ws.close()

    def recv(self, timeout: float = 10.0) -> dict[str, Any]:
        msg: dict[str, Any] = json.loads(self.ws.recv(timeout=timeout))
        self.log.append(msg)
        t = msg.get("type")
        if t == "welcome":
            self.seat, self.role = msg["seat"], msg["role"]
        elif t == "snapshot":
            self.snapshot = msg
            self.seq = msg["seq"]
            self.view = msg["view"]
            self.seat = msg["seat"]
            self.role = msg["role"]
        elif t == "event":
            self.seq = msg["seq"]
            self.events.append(msg)
            if msg.get("view") is not None:
                self.view = msg["view"]
        elif t == "error":
            self.errors.append(msg)
        else:
            self.other.append(msg)
        return msg

    def wait(self, pred: Any, timeout: float = 60.0) -> dict[str, Any]:
        """Read messages until one satisfies ``pred``; TimeoutError after ``timeout`` seconds (an upper bound
        for a reply that comes at once, generous for a loaded machine: only a failure waits it out)."""
        end = time.monotonic() + timeout
        while True:
            left = end - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"no matching message within {timeout} s")
            msg = self.recv(left)
            if pred(msg):
                return msg

    def my_turn(self) -> bool:
        v = self.view
        return bool(v and self.seat is not None and v.get("decision") and self.seat in v.get("to_act", []))

    def choose(self, rng: random.Random) -> dict[str, Any]:
        """A random legal decision from the current view (a pass: random cards of the hand)."""
        v = self.view
        assert v is not None
        if v["decision"] == "pass":
            return {"pass": rng.sample(v["hand"], v["pass_count"])}
        action = dict(rng.choice(v["legal"]))
        action.pop("seat", None)
        return action

    def act(self, action: dict[str, Any], ref: str | None = None) -> None:
        self.send({"type": "act", "action": action, "ref": ref})

    def game_over(self) -> bool:
        return bool(self.view and self.view.get("game_over"))


def drain(client: TableClient) -> None:
    """Read every message already waiting."""
    while True:
        try:
            client.recv(timeout=0)
        except TimeoutError:
            return


def play_to_end(clients: list[TableClient], seed: int = 0, timeout: float = 120.0, stop: Any = None) -> None:
    """Play random legal moves for every client until the game is over (or ``stop()`` is true, asked after
    every client has read what the server sent it)."""
    rng = random.Random(seed)
    end = time.monotonic() + timeout
    while not all(c.game_over() for c in clients):
        if time.monotonic() > end:
            raise TimeoutError("the game did not finish in time")
        for c in clients:
            drain(c)
        # ``stop`` reads the clients' views: asked only once every view is up to date, so it never sees one
        # client's news before another's (a stale view let a moment pass that the caller waited for)
        if stop is not None and stop():
            return
        acted = False
        for c in clients:
            if c.my_turn():
                c.act(c.choose(rng))
                reply = c.wait(lambda m, s=c.seat: m["type"] == "error" or _own_action(m, s))
                if reply["type"] == "error" and reply["code"] == "rate_limited":
                    time.sleep(0.2)
                acted = True
        if not acted:
            for c in clients:
                with contextlib.suppress(TimeoutError):
                    c.recv(timeout=0.05)


def _own_action(msg: dict[str, Any], seat: int | None) -> bool:
    if msg["type"] != "event":
        return False
    ev = msg["event"]
    return bool(ev["kind"] == "action" and ev["action"]["seat"] == seat)
