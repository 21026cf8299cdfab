"""The store on a real SQLite file and a real PostgreSQL: migrations, players, events, leases, results."""

from __future__ import annotations

import time

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

from corazones.services.store import StaleWrite, Store
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
