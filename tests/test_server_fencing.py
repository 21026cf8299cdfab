"""Two ``corazones serve`` processes on one PostgreSQL: the owner is paused (SIGSTOP) past its lease,
the other adopts the table, and a move sent to the paused owner meanwhile is not stored when it
resumes.  Every connection of the table at the old owner is closed with 4001 (the spectator's too),
and the player finishes the move at the new owner, where the table is exactly as stored."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

from websockets.exceptions import ConnectionClosed

from corazones.server.client import Api, TableClient, drain
from corazones.services.store import Store
from tests.helpers import HUMAN, PATIENCE, RANDOM, sqlalchemy_url
from tests.test_server_processes import ServerProcess, processes, reconnect  # noqa: F401 (a fixture)


def closed_code(c: TableClient, timeout: float = PATIENCE) -> tuple[int | None, list[dict]]:
    """Read until the server closes the socket: its close code, and the errors it sent before."""
    end = time.monotonic() + timeout
    try:
        while time.monotonic() < end:
            c.recv(timeout=max(0.1, end - time.monotonic()))
    except ConnectionClosed as e:
        return (e.rcvd.code if e.rcvd else None), c.errors
    raise AssertionError("the socket stayed open")


def test_a_paused_owner_stores_nothing_after_another_adopted_its_table(
    tmp_path: Path,
    processes: list[ServerProcess],  # noqa: F811
    fresh_postgres_url: str,
) -> None:
    db = sqlalchemy_url(fresh_postgres_url)
    owner = ServerProcess(db, tmp_path / "owner.log", lease=1.5)
    other = ServerProcess(db, tmp_path / "other.log", lease=1.5)
    processes += [owner, other]
    ana, cy = Api(owner.base), Api(owner.base)
    ana.guest("Ana")
    cy.guest("Cy")
    table = ana.create(preset="standard", seats=[HUMAN, RANDOM, RANDOM, RANDOM], takeover_level="random")["id"]
    a = TableClient(ana, table)
    spy = TableClient(cy, table)
    assert a.view is not None and a.view["decision"] == "pass"
    hand = a.view["hand"]

    os.kill(owner.proc.pid, signal.SIGSTOP)
    try:
        deadline = time.monotonic() + PATIENCE
        while Api(other.base).request("GET", "/healthz")["tables"] < 1:  # the other process adopts it
            assert time.monotonic() < deadline, "the other process never adopted the table"
            time.sleep(0.2)
        drain(a)
        a.act({"pass": hand[:3]}, ref="while-paused")  # waits in the paused owner's socket buffer
        time.sleep(0.3)
    finally:
        os.kill(owner.proc.pid, signal.SIGCONT)

    code, errors = closed_code(a)
    assert code == 4001
    assert all(e["code"] == "moved" and e["url"] == other.base for e in errors), errors
    assert closed_code(spy)[0] == 4001  # every connection of the dropped table, the spectator's too

    store = Store(db)
    try:
        stored = [e for e in store.events(table) if e.kind == "action" and e.data["action"]["seat"] == 0]
        assert stored == [], "the paused owner stored a move after it had lost the lease"
        assert store.table(table).lease_url == other.base
    finally:
        store.close()

    # At the new owner the table is as stored: Ana still has to pass, and does.
    a2 = reconnect(Api(other.base, ana.token), table, None)
    assert a2.view is not None and a2.view["decision"] == "pass" and sorted(a2.view["hand"]) == sorted(hand)
    a2.act({"pass": hand[:3]})
    a2.wait(lambda m: m["type"] == "event" and m["event"]["kind"] == "action" and m["event"]["action"]["seat"] == 0)
    a2.close()
