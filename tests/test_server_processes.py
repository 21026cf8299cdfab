"""Real server processes: `kill -9` and restart loses no move; two processes on one PostgreSQL share tables.

Both tests play part of a hand through `corazones serve` processes, note every
move the clients saw acknowledged (its event arrived), kill the process that
owns the table with SIGKILL, finish the game through a new or the other
process, and check that the downloaded record starts with exactly those
moves and verifies.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed

from corazones.core.records import loads, verify_record
from corazones.server.client import Api, ApiError, TableClient, drain, play_to_end
from tests.helpers import HUMAN, RANDOM, free_port, sqlalchemy_url
from tests.test_server_protocol import assert_no_hidden_cards

#: Every test here starts server processes.
pytestmark = pytest.mark.integration


class ServerProcess:
    """``corazones serve`` in a child process, waited for until /healthz answers."""

    def __init__(self, db: str, log: Path, port: int | None = None, lease: float = 10.0) -> None:
        self.port = port or free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        args = [sys.executable, "-m", "corazones", "serve", "--port", str(self.port), "--db", db]
        # A long grace: no bot plays for a player while they join then connect, or reconnect after a kill
        # (on a loaded machine that can take seconds, and bots could even finish the game meanwhile).
        args += ["--grace", "30", "--bot-delay", "0", "--lease", str(lease)]
        self.log = log.open("ab")
        self.proc = subprocess.Popen(args, stdout=self.log, stderr=subprocess.STDOUT)
        end = time.monotonic() + 60
        while True:
            try:
                if Api(self.base).request("GET", "/healthz")["ok"]:
                    break
            except (OSError, ApiError):
                pass
            if self.proc.poll() is not None or time.monotonic() > end:
                raise RuntimeError(f"the server did not start; see {log}")
            time.sleep(0.1)
        self.log.flush()
        assert f"serving at http://127.0.0.1:{self.port}/" in log.read_text(errors="replace")

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs at all."""
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=30)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.kill()
        self.log.close()


@pytest.fixture
def processes() -> Iterator[list[ServerProcess]]:
    started: list[ServerProcess] = []
    yield started
    for p in started:
        p.stop()


def acknowledged(c: TableClient) -> list[dict[str, Any]]:
    """The actions whose events this client received, in order (others' passes without their cards)."""
    return [m["event"]["action"] for m in c.log if m["type"] == "event" and m["event"]["kind"] == "action"]


def same_moves(seen: list[dict[str, Any]], record: list[dict[str, Any]]) -> bool:
    if len(seen) > len(record):
        return False
    for a, r in zip(seen, record):
        if a.get("pass", 0) is None:  # a pass this seat may not see: compare who passed
            if r["seat"] != a["seat"] or "pass" not in r:
                return False
        elif a != r:
            return False
    return True


def reconnect(api: Api, table: str, last_seq: int | None, timeout: float = 60.0) -> TableClient:
    """Connect until the table's new owner answers (``moved`` or a refused socket: try again)."""
    end = time.monotonic() + timeout
    while True:
        try:
            return TableClient(api, table, last_seq=last_seq)
        except (ConnectionClosed, OSError, TimeoutError):
            if time.monotonic() > end:
                raise
            time.sleep(0.3)


def start_table(base: str) -> tuple[Api, Api, TableClient, TableClient, str]:
    ana, bea = Api(base), Api(base)
    ana.guest("Ana")
    bea.guest("Bea")
    info = ana.create(preset="quick", seats=[HUMAN, HUMAN, RANDOM, RANDOM], takeover_level="random")
    bea.join(info["id"])
    return ana, bea, TableClient(ana, info["id"]), TableClient(bea, info["id"]), info["id"]


def play_some(a: TableClient, b: TableClient, actions: int) -> None:
    play_to_end([a, b], stop=lambda: len(acknowledged(a)) >= actions, timeout=60)
    for c in (a, b):
        drain(c)


def finish_and_check(
    ana: Api, bea: Api, table: str, a: TableClient, b: TableClient, seen_a: list, seen_b: list
) -> None:
    play_to_end([a, b], timeout=120)
    record = loads(ana.request("GET", f"/api/games/{table}/record", raw=True))
    verify_record(record)
    assert same_moves(seen_a, record["actions"]), "a move Ana saw acknowledged is missing or changed"
    assert same_moves(seen_b, record["actions"]), "a move Bea saw acknowledged is missing or changed"
    assert_no_hidden_cards(ana, table, [a, b])


def test_kill_9_and_restart_loses_no_move(tmp_path: Path, processes: list[ServerProcess]) -> None:
    db = f"sqlite:///{tmp_path / 'corazones.db'}"
    first = ServerProcess(db, tmp_path / "server.log")
    processes.append(first)
    ana, bea, a, b, table = start_table(first.base)
    play_some(a, b, 20)  # the pass and a few tricks
    seen_a, seen_b = acknowledged(a), acknowledged(b)
    last_a, last_b = a.seq, b.seq
    first.kill()
    second = ServerProcess(db, tmp_path / "server.log", port=first.port)
    processes.append(second)
    a2 = reconnect(ana, table, last_a)
    b2 = reconnect(bea, table, last_b)
    assert a2.snapshot["seq"] >= last_a and a2.snapshot["missed_complete"]
    assert a2.snapshot["table"]["status"] == "playing"
    assert a2.view["tricks_played"] + len(a2.view["trick"]) > 0
    a2.log = a.log + a2.log  # one history per player, for the hidden-card check
    b2.log = b.log + b2.log
    finish_and_check(ana, bea, table, a2, b2, seen_a, seen_b)


def test_two_processes_on_postgresql_survive_the_owner_s_death(
    tmp_path: Path, processes: list[ServerProcess], fresh_postgres_url: str
) -> None:
    db = sqlalchemy_url(fresh_postgres_url)
    owner = ServerProcess(db, tmp_path / "owner.log", lease=1.5)
    other = ServerProcess(db, tmp_path / "other.log", lease=1.5)
    processes += [owner, other]
    ana, bea, a, b, table = start_table(owner.base)
    # the other process lists the table, and sends a connection to the owner
    assert table in [t["id"] for t in Api(other.base).request("GET", "/api/tables")]
    with pytest.raises(ConnectionClosed):
        TableClient(Api(other.base, ana.token), table)
    play_some(a, b, 12)  # mid-hand: the pass and two tricks
    seen_a, seen_b = acknowledged(a), acknowledged(b)
    last_a, last_b = a.seq, b.seq
    owner.kill()
    ana2, bea2 = Api(other.base, ana.token), Api(other.base, bea.token)
    a2 = reconnect(ana2, table, last_a)
    b2 = reconnect(bea2, table, last_b)
    assert a2.snapshot["missed_complete"] and a2.snapshot["table"]["status"] == "playing"
    health = Api(other.base).request("GET", "/healthz")
    assert health["tables"] >= 1
    a2.log = a.log + a2.log
    b2.log = b.log + b2.log
    finish_and_check(ana2, bea2, table, a2, b2, seen_a, seen_b)


def test_the_log_holds_no_token_and_no_invite_even_at_debug(tmp_path: Path) -> None:
    """An operator's log at ``--log-level debug`` (every request, every WebSocket frame's opening) names
    no token a client sent and no invite code a link carried, though it shows the requests themselves."""
    import json
    import urllib.request

    from websockets.sync.client import connect

    port = free_port()
    log = tmp_path / "server.log"
    args = [sys.executable, "-m", "corazones", "serve", "--port", str(port), "--db", str(tmp_path / "c.db")]
    with log.open("wb") as out:
        proc = subprocess.Popen([*args, "--log-level", "debug"], stdout=out, stderr=subprocess.STDOUT)
        try:
            base = f"http://127.0.0.1:{port}"
            end = time.monotonic() + 60
            while True:
                try:
                    Api(base).request("GET", "/healthz")
                    break
                except (OSError, ApiError):
                    if proc.poll() is not None or time.monotonic() > end:
                        raise
                    time.sleep(0.1)
            ana = Api(base)
            ana.guest("Ana")
            info = ana.create(preset="quick", seats=[HUMAN, HUMAN, RANDOM, RANDOM], private=True)
            invite = info["invite_url"].rsplit("invite=", 1)[1]
            with urllib.request.urlopen(f"{base}/?table={info['id']}&invite={invite}") as page:
                assert page.status == 200
            # A short hello, as a minimal client may send it: the whole frame would fit in a logged line.
            with connect(f"ws://127.0.0.1:{port}/ws/tables/{info['id']}") as ws:
                ws.send(json.dumps({"type": "hello", "token": ana.token}, separators=(",", ":")))
                assert json.loads(ws.recv())["type"] == "welcome"
        finally:
            proc.terminate()
            proc.wait(timeout=30)
    text = log.read_text(errors="replace")
    assert f"/?table={info['id']}&invite=***" in text and "WebSocket /ws/tables/" in text  # the requests are there
    assert ana.token is not None and ana.token not in text and ana.token[-12:] not in text
    assert invite not in text
