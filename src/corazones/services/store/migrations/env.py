"""Alembic environment: run with a connection the store hands over (see ``db.migrate``)."""

from __future__ import annotations

from alembic import context

from corazones.services.store.models import Base

connection = context.config.attributes.get("connection")
if connection is None:  # pragma: no cover - the store always passes its connection
    raise RuntimeError("run migrations through corazones.services.store.db.migrate")
context.configure(connection=connection, target_metadata=Base.metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
