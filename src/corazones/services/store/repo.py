"""Repository functions: the only code that reads and writes the tables.

Every method opens its own short transaction, so a :class:`Store` can be
shared by the server's threads.  Rows come back as detached ORM objects (or
plain tuples for events) that are safe to read after the session closed.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Engine, and_, case, func, insert, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from corazones.services.store.db import make_engine, migrate
from corazones.services.store.looks import look
from corazones.services.store.models import Event, Player, Result, Secret, Table

UNFINISHED = ("open", "playing")
#: Table ids per statement of a lease renewal or a fenced write: PostgreSQL takes at most 65,535
#: parameters in one statement, and a process may hold more tables than that.
ID_BATCH = 1000
#: The largest player id each database can hold: an ``INTEGER`` column is 32 bits in PostgreSQL, 64 in SQLite.
#: A larger number names no player, and the drivers refuse to even compare it (out of range, overflow).
MAX_ROW_ID = {"postgresql": 2**31 - 1, "sqlite": 2**63 - 1}


class StaleWrite(Exception):
    """An event number was already written: another process owns the table now."""


@dataclass(frozen=True, slots=True)
class StoredEvent:
    seq: int
    kind: str
    data: dict[str, Any]


@dataclass(frozen=True, slots=True)
class Stats:
    games: int
    wins: int
    hands: int
    points: int
    moons: int


class Store:
    """Players, tables, events and results in one database."""

    def __init__(self, url: str, engine: Engine | None = None) -> None:
        self.engine = engine if engine is not None else make_engine(url)
        self.session: sessionmaker[Session] = sessionmaker(self.engine, expire_on_commit=False)

    @property
    def dialect(self) -> str:
        return self.engine.dialect.name

    def _row_id(self, value: int) -> bool:
        """Whether ``value`` can be a player id here (``corazones revoke 99999999999999999999`` names none)."""
        most = MAX_ROW_ID.get(self.dialect, MAX_ROW_ID["postgresql"])
        return -most - 1 <= value <= most

    def migrate(self) -> Store:
        migrate(self.engine)
        return self

    def close(self) -> None:
        self.engine.dispose()

    def ping(self) -> bool:
        with self.engine.connect() as conn:
            return conn.exec_driver_sql("SELECT 1").scalar() == 1

    # ------------------------------------------------------------ secrets
    def secret(self, key: str, make: Callable[[], str]) -> str:
        """The value of ``key``, created with ``make()`` by whichever process asks first."""
        with self.session() as s:
            row = s.get(Secret, key)
            if row is not None:
                return row.value
        try:
            with self.session.begin() as s:
                s.add(Secret(key=key, value=make()))
        except IntegrityError:
            pass
        with self.session() as s:
            row = s.get(Secret, key)
            assert row is not None
            return row.value

    # ------------------------------------------------------------ players
    def add_player(self, name: str, kind: str, login: str | None = None, password_hash: str | None = None) -> Player:
        """A new player; :class:`ValueError` when ``login`` is taken, or an account's name looks like one
        already taken (:func:`~corazones.services.store.looks.look`: ``Аna`` in Cyrillic is ``Ana``)."""
        key = look(name) if login is not None else None
        player = Player(name=name, kind=kind, login=login, look=key, password_hash=password_hash, created=time.time())
        try:
            with self.session.begin() as s:
                s.add(player)
        except IntegrityError:
            raise ValueError(f"the name {login!r} is taken") from None
        return player

    def player(self, player_id: int) -> Player | None:
        if not self._row_id(player_id):
            return None
        with self.session() as s:
            return s.get(Player, player_id)

    def revoke_tokens(self, player_id: int) -> int | None:
        """Revoke every token issued so far for ``player_id``; the new token generation (None: no such player)."""
        if not self._row_id(player_id):
            return None
        with self.session.begin() as s:
            done = s.execute(update(Player).where(Player.id == player_id).values(token_gen=Player.token_gen + 1))
            if not done.rowcount:  # type: ignore[attr-defined]
                return None
            return int(s.scalar(select(Player.token_gen).where(Player.id == player_id)) or 0)

    def token_gens(self, player_ids: Iterable[int]) -> dict[int, int]:
        """The current token generation of each of ``player_ids`` (missing: no such player)."""
        ids = sorted(set(player_ids))
        out: dict[int, int] = {}
        with self.session() as s:
            for start in range(0, len(ids), 500):
                q = select(Player.id, Player.token_gen).where(Player.id.in_(ids[start : start + 500]))
                out.update({int(pid): int(gen) for pid, gen in s.execute(q)})
        return out

    def player_by_login(self, login: str) -> Player | None:
        with self.session() as s:
            return s.scalars(select(Player).where(Player.login == login)).first()

    # ------------------------------------------------------------- tables
    def add_table(self, **fields: Any) -> Table:
        table = Table(**fields)
        with self.session.begin() as s:
            s.add(table)
        return table

    def table(self, table_id: str) -> Table | None:
        with self.session() as s:
            return s.get(Table, table_id)

    def update_table(self, table_id: str, **fields: Any) -> None:
        with self.session.begin() as s:
            s.execute(update(Table).where(Table.id == table_id).values(**fields))

    def list_tables(
        self, statuses: Sequence[str] = UNFINISHED, public_only: bool = True, limit: int = 100
    ) -> list[Table]:
        q = select(Table).where(Table.status.in_(statuses))
        if public_only:
            q = q.where(Table.private.is_(False))
        with self.session() as s:
            return list(s.scalars(q.order_by(Table.created.desc()).limit(limit)))

    def count_tables(self, statuses: Sequence[str] = UNFINISHED) -> int:
        with self.session() as s:
            return int(s.scalar(select(func.count()).select_from(Table).where(Table.status.in_(statuses))) or 0)

    # ------------------------------------------------------------- leases
    def claim(self, table_id: str, owner: str, url: str, ttl: float, force: bool = False) -> bool:
        """Take the lease of an unfinished table if it is free, expired or ours (or ``force``)."""
        now = time.time()
        cond = [Table.id == table_id, Table.status.in_(UNFINISHED)]
        if not force:
            cond.append(or_(Table.lease_owner.is_(None), Table.lease_owner == owner, Table.lease_expires < now))
        with self.session.begin() as s:
            res = s.execute(
                update(Table).where(and_(*cond)).values(lease_owner=owner, lease_url=url, lease_expires=now + ttl)
            )
            return bool(res.rowcount)  # type: ignore[attr-defined]

    def renew(self, owner: str, table_ids: Iterable[str], ttl: float) -> set[str]:
        """Extend our leases (only where we are still the owner); the ids we still own (a table another
        process took is missing).  In batches of :data:`ID_BATCH` ids, one transaction each."""
        ids = list(table_ids)
        kept: set[str] = set()
        for start in range(0, len(ids), ID_BATCH):
            chunk = ids[start : start + ID_BATCH]
            with self.session.begin() as s:
                s.execute(
                    update(Table)
                    .where(and_(Table.id.in_(chunk), Table.lease_owner == owner))
                    .values(lease_expires=time.time() + ttl)
                )
                rows = s.execute(select(Table.id).where(and_(Table.id.in_(chunk), Table.lease_owner == owner)))
                kept |= {r[0] for r in rows}
        return kept

    @staticmethod
    def _owned(conn: Any, owner: str, table_ids: Iterable[str]) -> set[str]:
        """Of ``table_ids``, those ``owner`` holds the lease of, their rows locked until the transaction
        ends (``FOR UPDATE``; SQLite locks the whole file for a write anyway): another process's claim
        waits for this transaction, or this one sees the claim and writes nothing for that table."""
        ids = sorted(set(table_ids))  # one order for every process: no deadlock between two writers
        owned: set[str] = set()
        for start in range(0, len(ids), ID_BATCH):
            chunk = ids[start : start + ID_BATCH]
            q = select(Table.id).where(and_(Table.id.in_(chunk), Table.lease_owner == owner)).with_for_update()
            owned |= {r[0] for r in conn.execute(q)}
        return owned

    def release(self, owner: str, table_id: str) -> None:
        with self.session.begin() as s:
            s.execute(
                update(Table)
                .where(and_(Table.id == table_id, Table.lease_owner == owner))
                .values(lease_owner=None, lease_expires=0.0)
            )

    def claimable(self, owner: str) -> list[str]:
        """Unfinished tables nobody holds a live lease on (their owner died or let go)."""
        now = time.time()
        q = select(Table.id).where(
            and_(
                Table.status.in_(UNFINISHED),
                or_(Table.lease_owner.is_(None), Table.lease_expires < now),
                or_(Table.lease_owner.is_(None), Table.lease_owner != owner),
            )
        )
        with self.session() as s:
            return [r[0] for r in s.execute(q)]

    def unfinished(self) -> list[str]:
        with self.session() as s:
            return [r[0] for r in s.execute(select(Table.id).where(Table.status.in_(UNFINISHED)))]

    # ------------------------------------------------------------- events
    def append_events(
        self,
        table_id: str,
        events: Sequence[tuple[int, str, dict[str, Any]]],
        table: dict[str, Any] | None = None,
        owner: str | None = None,
    ) -> None:
        """Store events (and table field changes) in one transaction; :class:`StaleWrite` if a number is
        taken, or (``owner`` given) if ``owner`` no longer holds the table's lease in that transaction."""
        now = time.time()
        try:
            with self.session.begin() as s:
                if owner is not None and table_id not in self._owned(s, owner, [table_id]):
                    raise StaleWrite(f"table {table_id}: the lease is no longer {owner}'s")
                for seq, kind, data in events:
                    s.add(Event(table_id=table_id, seq=seq, kind=kind, data=json.dumps(data), created=now))
                if table:
                    s.execute(update(Table).where(Table.id == table_id).values(**table))
        except IntegrityError as e:
            raise StaleWrite(f"table {table_id}: event {events[0][0]} was already written") from e

    def append_many(
        self, batches: Sequence[tuple[str, Sequence[tuple[int, str, dict[str, Any]]]]], owner: str | None = None
    ) -> list[str]:
        """Store several tables' events in one transaction (a group commit); the ids whose write was stale.

        With ``owner``, the write is fenced by the lease: in the same transaction, a table whose lease
        ``owner`` no longer holds (another process adopted it while this one was paused, say) gets
        nothing written and is stale.  When the joint transaction fails, each table is retried alone so
        one stale table never loses another table's events.
        """
        now = time.time()
        try:
            with self.engine.begin() as conn:  # one executemany, no ORM unit of work: the hot path
                owned = None if owner is None else self._owned(conn, owner, (tid for tid, _ in batches))
                rows = [
                    {"table_id": tid, "seq": seq, "kind": kind, "data": json.dumps(data), "created": now}
                    for tid, evs in batches
                    if owned is None or tid in owned
                    for seq, kind, data in evs
                ]
                if rows:
                    conn.execute(insert(Event), rows)
            return [] if owned is None else [tid for tid, _ in batches if tid not in owned]
        except IntegrityError:
            stale = []
            for tid, evs in batches:
                try:
                    self.append_events(tid, evs, owner=owner)
                except StaleWrite:
                    stale.append(tid)
            return stale

    def events(self, table_id: str, after: int = 0, kinds: Sequence[str] | None = None) -> list[StoredEvent]:
        q = select(Event.seq, Event.kind, Event.data).where(and_(Event.table_id == table_id, Event.seq > after))
        if kinds is not None:
            q = q.where(Event.kind.in_(kinds))
        with self.session() as s:
            return [StoredEvent(seq, kind, json.loads(data)) for seq, kind, data in s.execute(q.order_by(Event.seq))]

    def last_seq(self, table_id: str) -> int:
        with self.session() as s:
            return int(s.scalar(select(func.max(Event.seq)).where(Event.table_id == table_id)) or 0)

    # ------------------------------------------------------------ results
    def finish(self, table_id: str, results: Sequence[dict[str, Any]]) -> None:
        """Mark a table finished and store one result per seat, in one transaction (idempotent)."""
        now = time.time()
        with self.session.begin() as s:
            for r in results:
                if s.get(Result, (table_id, r["seat"])) is None:
                    s.add(Result(table_id=table_id, finished=now, **r))
            s.execute(
                update(Table)
                .where(Table.id == table_id)
                .values(status="finished", finished=now, lease_owner=None, lease_expires=0.0)
            )

    def results(self, table_id: str) -> list[Result]:
        with self.session() as s:
            return list(s.scalars(select(Result).where(Result.table_id == table_id).order_by(Result.seat)))

    def stats(self, player_id: int) -> Stats:
        q = select(
            func.count(),
            func.sum(case((Result.won.is_(True), 1), else_=0)),
            func.sum(Result.hands),
            func.sum(Result.score),
            func.sum(Result.moons),
        ).where(Result.player_id == player_id)
        with self.session() as s:
            games, wins, hands, points, moons = s.execute(q).one()
        return Stats(int(games or 0), int(wins or 0), int(hands or 0), int(points or 0), int(moons or 0))

    def finished_games(self, player_id: int | None = None, limit: int = 50) -> list[Table]:
        q = select(Table).where(Table.status == "finished")
        if player_id is not None:
            q = q.where(Table.id.in_(select(Result.table_id).where(Result.player_id == player_id)))
        with self.session() as s:
            return list(s.scalars(q.order_by(Table.finished.desc()).limit(limit)))
