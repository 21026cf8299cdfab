"""Engines and migrations.

SQLite is tuned for a server that may be killed at any moment: WAL journal
with ``synchronous=NORMAL`` survives a killed process (not a power cut, which
``--db`` with PostgreSQL is for), and ``busy_timeout`` lets the writer thread
and readers share the file.  Migrations run under a PostgreSQL advisory lock,
or SQLite's write lock on the file, so several processes starting together
apply each revision once.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any
from urllib.parse import unquote

from alembic import command
from alembic.config import Config
from sqlalchemy import Connection, Engine, create_engine, event
from sqlalchemy.engine import make_url

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


#: A ``password=`` in a URL's query (libpq takes one there too), up to the next parameter.
_PASSWORD_PARAM = re.compile(r"([?&]password=)[^&]*", re.IGNORECASE)


def userinfo(url: str) -> str | None:
    """A server database URL's user part (``user:password``) as written, up to its last ``@`` (None: none).

    Read by hand, not by SQLAlchemy: a password may hold an unencoded ``@``, which
    SQLAlchemy reads as the end of the password, so that its rest would pass for the host.
    """
    scheme, sep, rest = url.partition("://")
    if not sep or scheme.startswith("sqlite"):  # SQLite's URLs hold a path, never a password
        return None
    user, at, _host = rest.split("?", 1)[0].rpartition("@")
    return user if at else None


def _password(url: str) -> str | None:
    """The password a database URL carries in its user part, as written (None: none)."""
    user = userinfo(url)
    if user is None or ":" not in user:
        return None
    return user.split(":", 1)[1]


def shown_url(url: str) -> str:
    """``url`` as it may be printed or logged: its password, in the user part or the query, shown as ``***``.

    Every message that names the database goes through this (a refusal, the line ``serve``
    prints, ``revoke``'s answer), so an operator's password never reaches a terminal or a log.
    """
    password = _password(url)
    if password is not None:
        scheme, _sep, rest = url.partition("://")
        head, tail = rest.split("?", 1) if "?" in rest else (rest, None)
        userinfo, _at, host = head.rpartition("@")
        head = f"{userinfo.split(':', 1)[0]}:***@{host}"
        url = f"{scheme}://{head}" + (f"?{tail}" if tail is not None else "")
    return _PASSWORD_PARAM.sub(r"\1***", url)


def hide_password(text: str, url: str) -> str:
    """``text`` (a driver's error about ``url``) with the URL and its password, wherever they appear, hidden."""
    text = text.replace(url, shown_url(url))
    secrets = [_password(url)] + [m.group(0).split("=", 1)[1] for m in _PASSWORD_PARAM.finditer(url)]
    for secret in secrets:
        for form in {secret, unquote(secret)} if secret else ():
            text = text.replace(form, "***")
    return text


def sqlite_file(url: str) -> Path | None:
    """The file an SQLite URL names (None: another database, an in-memory one, or a URL not understood)."""
    if not url.startswith("sqlite"):
        return None
    try:
        database = make_url(url).database
    except Exception:
        return None  # make_engine says why
    if not database or database == ":memory:" or database.startswith("file:"):
        return None
    return Path(database).expanduser()


class MemoryDatabase(ValueError):
    """An in-memory SQLite database given as the store: it cannot keep a server's games."""


def in_memory(url: str) -> bool:
    """Whether ``url`` names an in-memory SQLite database (``sqlite://``, ``sqlite:///:memory:``, ``mode=memory``)."""
    if not url.startswith("sqlite"):
        return False
    try:
        parsed = make_url(url)
    except Exception:  # not a URL SQLAlchemy reads: make_engine says why
        return False
    database = parsed.database or ""
    return database in ("", ":memory:") or database.startswith("file::memory:") or parsed.query.get("mode") == "memory"


def make_engine(url: str) -> Engine:
    """An engine for ``url``; :class:`MemoryDatabase` for an in-memory SQLite database.

    A failed statement's error names the statement but not its values (``hide_parameters``): it
    reaches the server's log, and the values are a new table's secret seed, a pass's cards, a
    password's hash.  An in-memory database is refused rather than opened: SQLAlchemy gives each
    thread its own connection to it, so each thread of the server (the writer, the lease
    renewals) would see its own empty database ("no such table"), and whatever one kept would be
    lost when the process stops, though a server's games must survive it.
    """
    url = normalise_url(url)
    if in_memory(url):
        raise MemoryDatabase(
            f"{url} is an in-memory database, which keeps nothing when the server stops and is not shared "
            "by its threads; give a file (sqlite:///PATH.db, or a path) or a postgresql+psycopg:// URL"
        )
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30}, hide_parameters=True)

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_conn: Any, _record: Any) -> None:
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA synchronous=NORMAL")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.execute("PRAGMA busy_timeout=30000")
            cur.close()

        return engine
    return create_engine(url, pool_size=8, max_overflow=8, pool_pre_ping=True, hide_parameters=True)


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
