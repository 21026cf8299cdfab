"""Writes fenced by the lease, on real PostgreSQL (and SQLite): a process that lost a table's lease
(paused past it while another process adopted the table) writes nothing more for it, checked in the
same transaction as the write; renewal touches only our own leases and works for more tables than
PostgreSQL takes parameters in one statement."""

from __future__ import annotations

import time

import pytest
from sqlalchemy import insert

from corazones.services.store import StaleWrite, Store
from corazones.services.store.models import Table
from tests.helpers import table_row


def test_a_write_after_the_lease_was_taken_stores_nothing(store: Store) -> None:
    store.add_table(**table_row("t1"))
    store.add_table(**table_row("t2"))
    assert store.claim("t1", "old", "http://old", ttl=0.05)
    assert store.claim("t2", "old", "http://old", ttl=60)
    assert store.append_many([("t1", [(1, "chat", {"n": 1})])], owner="old") == []
    time.sleep(0.1)  # the old owner is paused past its lease ...
    assert store.claim("t1", "new", "http://new", ttl=60)  # ... and another process adopts the table
    # On resume the old owner writes what it received meanwhile: refused in the write's own transaction,
    # while its other table's events (still its own) are stored in the same group.
    stale = store.append_many([("t1", [(2, "action", {"x": 1})]), ("t2", [(1, "chat", {"n": 2})])], owner="old")
    assert stale == ["t1"]
    assert [e.seq for e in store.events("t1")] == [1] and [e.seq for e in store.events("t2")] == [1]
    with pytest.raises(StaleWrite):
        store.append_events("t1", [(2, "action", {"x": 1})], owner="old")
    # the new owner writes the next number as if the old one never came back
    assert store.append_many([("t1", [(2, "action", {"y": 1})])], owner="new") == []
    assert store.events("t1")[-1].data == {"y": 1}


def test_renewal_touches_only_our_leases(store: Store) -> None:
    store.add_table(**table_row("a"))
    store.add_table(**table_row("b"))
    assert store.claim("a", "me", "u", ttl=60) and store.claim("b", "other", "u", ttl=60)
    assert store.renew("me", ["a", "b"], ttl=60) == {"a"}
    assert store.table("b").lease_owner == "other"


def test_renewal_of_more_tables_than_one_statement_takes(store: Store) -> None:
    n = 70_000  # PostgreSQL takes at most 65,535 parameters in one statement
    now = time.time()
    with store.engine.begin() as conn:
        conn.execute(insert(Table), [table_row(f"t{i}", lease_owner="me", lease_expires=now + 60) for i in range(n)])
    kept = store.renew("me", [f"t{i}" for i in range(n)], ttl=120)
    assert len(kept) == n
    assert store.table(f"t{n - 1}").lease_expires > now + 100


def test_a_server_that_stops_lets_go_of_its_tables_leases(tmp_path: object) -> None:
    """A stopped process's tables go to another process at once, not after its leases run out."""
    from corazones.server.client import Api, TableClient
    from corazones.server.local import LocalServer

    url = f"sqlite:///{tmp_path}/leases.db"
    with LocalServer(url, grace=30.0, bot_delay=0.0, lease_ttl=60.0) as srv:
        api = Api(srv.base)
        api.guest("Stays")
        table = api.create(preset="standard", takeover_level="random")["id"]
        c = TableClient(api, table)  # the game starts and waits for this player's pass
        store = Store(url)
        try:
            held = store.table(table)
            assert held is not None and held.status == "playing" and held.lease_owner is not None
            assert held.lease_expires > time.time() + 30
        finally:
            store.close()
        c.close()
    store = Store(url)
    try:
        row = store.table(table)
        assert row is not None and row.status == "playing" and row.lease_owner is None
        assert table in store.claimable("another process")
    finally:
        store.close()
