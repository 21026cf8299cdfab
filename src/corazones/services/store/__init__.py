"""Persistence: players, tables, every event of every game, finished-game statistics.

SQLAlchemy 2 over an SQLite file by default (in the user's data folder) or
PostgreSQL (``postgresql+psycopg://...``).  The schema is made by the Alembic
revisions in ``migrations/versions``, applied programmatically when a
:class:`~corazones.services.store.repo.Store` opens (``Store(url).migrate()``).
"""

from corazones.services.store import (
    pads,  # noqa: F401  (the score pad table joins Base.metadata)
    ratings,  # noqa: F401  (so do the ratings and reviews tables)
)
from corazones.services.store.db import default_url, make_engine, migrate, normalise_url
from corazones.services.store.repo import StaleWrite, Store

__all__ = ["StaleWrite", "Store", "default_url", "make_engine", "migrate", "normalise_url"]
