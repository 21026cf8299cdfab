"""Engines and migrations.

SQLite is tuned for a server that may be killed at any moment: WAL journal
with ``synchronous=NORMAL`` survives a killed process (not a power cut, which
``--db`` with PostgreSQL is for), and ``busy_timeout`` lets the writer thread
and readers share the file.  Migrations run under a PostgreSQL advisory lock,
or SQLite's write lock on the file, so several processes starting together
apply each revision once.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import Connection, Engine, create_engine, event

MIGRATIONS = Path(__file__).parent / "migrations"
#: Arbitrary key of the advisory lock that serialises migrations on PostgreSQL.
_MIGRATION_LOCK = 0x636F7261


def default_url() -> str:
    """An SQLite file in the user's data folder (created if needed)."""
    import platformdirs

    folder = Path(platformdirs.user_data_dir("corazones"))
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'corazones.db'}"


def normalise_url(url: str) -> str:
    """Accept libpq-style ``postgresql://`` URLs and a bare SQLite path; SQLAlchemy wants a driver name."""
    if url.startswith(("postgresql://", "postgres://")):
        return "postgresql+psycopg://" + url.split("://", 1)[1]
    if "://" not in url:
        return f"sqlite:///{Path(url).expanduser().resolve()}"
    return url


def make_engine(url: str) -> Engine:
    url = normalise_url(url)
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_conn: Any, _record: Any) -> None:
            cur = dbapi_conn.cursor()
            if ":memory:" not in url:
                cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA synchronous=NORMAL")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.execute("PRAGMA busy_timeout=30000")
            cur.close()

        return engine
    return create_engine(url, pool_size=8, max_overflow=8, pool_pre_ping=True)


def migrate(engine: Engine) -> None:
    """Bring the schema to the newest revision (idempotent)."""
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as conn:
        if conn.dialect.name == "postgresql":
            conn.exec_driver_sql(f"SELECT pg_advisory_xact_lock({_MIGRATION_LOCK})")
        elif conn.dialect.name == "sqlite":
            # The file's write lock, taken before the revision is read (the driver would begin only at the
            # first write): two processes opening a new file at once would otherwise both see no tables and
            # both create them, and the second would fail with "table ... already exists".  The other one
            # waits (busy_timeout), then finds the schema made.
            conn.exec_driver_sql("BEGIN IMMEDIATE")
        cfg.attributes["connection"] = conn
        _refuse_a_newer_schema(cfg, conn)
        command.upgrade(cfg, "head")


class NewerDatabase(RuntimeError):
    """The database's schema was made by a newer Corazones than this one: it cannot be migrated back."""


def _refuse_a_newer_schema(cfg: Config, conn: Connection) -> None:
    """Say plainly that a database of a later revision needs a later Corazones (Alembic says only that it
    "can't locate revision"), before anything is written to it."""
    from alembic.migration import MigrationContext
    from alembic.script import ScriptDirectory

    script = ScriptDirectory.from_config(cfg)
    known = {rev.revision for rev in script.walk_revisions()}
    current = MigrationContext.configure(conn).get_current_heads()
    unknown = [rev for rev in current if rev not in known]
    if unknown:
        raise NewerDatabase(
            f"the database is at revision {', '.join(unknown)}, which this Corazones does not know (its newest is "
            f"{script.get_current_head()}): a newer version made it; run that version, or give another database"
        )
