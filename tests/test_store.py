"""The store on a real SQLite file and a real PostgreSQL: migrations, players, events, leases, results."""

from __future__ import annotations

import sqlite3
import threading
import time
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

from corazones.services.store import StaleWrite, Store
from corazones.services.store.db import NewerDatabase
from corazones.services.store.models import Base
from tests.helpers import table_row


def _table(store: Store, tid: str = "t1", **extra: object) -> None:
    store.add_table(**table_row(tid, **extra))


def test_migrations_are_idempotent_and_match_the_models(store: Store) -> None:
    store.migrate()  # a second start changes nothing
    with store.engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn), Base.metadata)
    assert diff == []


def test_players_guests_and_unique_account_names(store: Store) -> None:
    a = store.add_player("Ana", "guest")
    b = store.add_player("Ana", "guest")  # guests may share a name
    assert a.id != b.id
    acc = store.add_player("Bea", "account", "bea", "scrypt$...")
    assert store.player_by_login("bea").id == acc.id  # type: ignore[union-attr]
    with pytest.raises(ValueError, match="taken"):
        store.add_player("BEA", "account", "bea", "x")
    assert store.player(10_000) is None


def test_secret_is_created_once(store: Store) -> None:
    first = store.secret("token", lambda: "one")
    assert store.secret("token", lambda: "two") == first == "one"


def test_events_are_numbered_once_per_table(store: Store) -> None:
    _table(store, "t1")
    _table(store, "t2")
    store.append_events("t1", [(1, "a", {"x": 1}), (2, "b", {"y": [1, 2]})])
    assert store.append_many([("t1", [(3, "c", {})]), ("t2", [(1, "a", {})])]) == []
    with pytest.raises(StaleWrite):
        store.append_events("t1", [(2, "again", {})])
    # a joint write with one stale table still stores the other table's events
    assert store.append_many([("t1", [(3, "dup", {})]), ("t2", [(2, "ok", {})])]) == ["t1"]
    assert [(e.seq, e.kind) for e in store.events("t1")] == [(1, "a"), (2, "b"), (3, "c")]
    assert store.events("t1", after=1)[0].data == {"y": [1, 2]}
    assert [e.seq for e in store.events("t2")] == [1, 2]
    assert store.last_seq("t2") == 2


def test_leases_claim_renew_expire(store: Store) -> None:
    _table(store, "t1")
    assert store.claim("t1", "A", "http://a", ttl=60)
    assert not store.claim("t1", "B", "http://b", ttl=60)  # A holds a live lease
    assert store.renew("A", ["t1"], ttl=0.05) == {"t1"}
    assert store.renew("B", ["t1"], ttl=60) == set()
    time.sleep(0.1)
    assert store.claimable("B") == ["t1"]
    assert store.claim("t1", "B", "http://b", ttl=60)  # A's lease expired
    assert store.renew("A", ["t1"], ttl=60) == set()  # A learns it lost the table
    assert store.table("t1").lease_url == "http://b"  # type: ignore[union-attr]
    store.release("B", "t1")
    assert store.claim("t1", "A", "http://a", ttl=60)


def test_finish_and_statistics(store: Store) -> None:
    p = store.add_player("Ana", "guest")
    for tid, won, score, moons in (("g1", True, 40, 1), ("g2", False, 110, 0)):
        _table(store, tid)
        store.finish(
            tid,
            [
                {"seat": 0, "player_id": p.id, "name": "Ana", "score": score, "won": won, "hands": 5,
                 "moons": moons, "hand_points": "[1, 2]"},
                {"seat": 1, "player_id": None, "name": "bot", "score": 3, "won": not won, "hands": 5,
                 "moons": 0, "hand_points": "[]"},
            ],
        )  # fmt: skip
        store.finish(tid, [])  # idempotent
    s = store.stats(p.id)
    assert (s.games, s.wins, s.hands, s.points, s.moons) == (2, 1, 10, 150, 1)
    assert store.table("g1").status == "finished"  # type: ignore[union-attr]
    assert {t.id for t in store.finished_games(p.id)} == {"g1", "g2"}
    assert store.list_tables() == []
    assert store.stats(999).games == 0


def test_a_player_id_the_database_cannot_hold_is_no_player(store: Store) -> None:
    # `corazones revoke 99999999999999999999999` names no player: it must say so, not crash in the driver
    store.add_player("Ana", "guest")
    assert store.player(10**23) is None and store.player(-(10**23)) is None
    assert store.revoke_tokens(10**23) is None
    assert store.revoke_tokens(2**63) is None
    assert store.revoke_tokens(2**31) is None  # beyond PostgreSQL's INTEGER, a valid (absent) id in SQLite
    assert store.revoke_tokens(-(2**31) - 1) is None


def test_processes_opening_a_new_sqlite_file_together_make_its_tables_once(tmp_path: Path) -> None:
    """Two servers started at once on a new file: each migrates; neither may fail with "already exists"."""
    path = tmp_path / "new.db"
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("PRAGMA journal_mode=WAL")
    holder.execute("BEGIN IMMEDIATE")  # a third process is writing: both starters reach the schema together
    errors: list[BaseException] = []

    def start() -> None:
        try:
            Store(f"sqlite:///{path}").migrate().close()
        except BaseException as e:  # the test reports whatever a starter met
            errors.append(e)

    starters = [threading.Thread(target=start) for _ in range(2)]
    for t in starters:
        t.start()
    time.sleep(1.0)  # both have looked for the schema and wait for the file's lock
    holder.execute("ROLLBACK")
    holder.close()
    for t in starters:
        t.join(60)
    assert errors == []
    store = Store(f"sqlite:///{path}")
    try:
        assert store.add_player("Ana", "guest").id == 1
    finally:
        store.close()


def test_a_database_of_a_newer_version_is_refused_in_plain_words(store: Store) -> None:
    from sqlalchemy import text

    with store.engine.begin() as conn:
        conn.execute(text("UPDATE alembic_version SET version_num = '0099_future'"))
    with pytest.raises(
        NewerDatabase, match=r"revision 0099_future, which this Corazones does not know .*newer version"
    ):
        store.migrate()
    with store.engine.connect() as conn:  # nothing was changed
        assert conn.execute(text("SELECT version_num FROM alembic_version")).scalar_one() == "0099_future"


def test_a_failed_statement_names_no_stored_value(store: Store) -> None:
    """A database error reaches the server's log: it says which statement failed, never its values
    (a new table's secret seed, a pass's cards, a password's hash)."""
    from sqlalchemy.exc import IntegrityError

    _table(store, "t1", seed="the-secret-seed-of-t1")
    with pytest.raises(IntegrityError) as failed:
        _table(store, "t1", seed="the-secret-seed-of-t1")  # the same id again
    assert "INSERT INTO tables" in str(failed.value)
    assert "the-secret-seed-of-t1" not in str(failed.value)
