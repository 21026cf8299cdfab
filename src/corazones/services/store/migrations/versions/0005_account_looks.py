"""Accounts unique by what their names look like: ``players.look``.

Revision ID: 0005_account_looks
Revises: 0004_ratings

``players.login`` is the name case-folded, so ``Ana`` and ``Аna`` (a Cyrillic
``А``) were two accounts, one passing for the other on the leaderboard and at
tables.  ``players.look`` is the name as it looks
(:func:`corazones.services.store.looks.look`), unique among accounts (guests
have none: their names need not be unique).

``players.login`` grows to the longest a 40-character name case-folded can be
(``ß`` is ``ss``) on PostgreSQL, which refused such a login (SQLite enforces no
length).

Accounts that already look alike all keep working: the oldest (lowest id)
takes the look, each later one keeps its name and its login with no look
(logging in reads ``login``, which stays unique), and the operator is told
which ones they are.  Nobody can register a new account that looks like any
of them.
"""

from __future__ import annotations

import logging

import sqlalchemy as sa
from alembic import op

from corazones.services.store.looks import FOLDED_CHARS, look

revision = "0005_account_looks"
down_revision = "0004_ratings"
branch_labels = None
depends_on = None

log = logging.getLogger("corazones.store")

_players = sa.table(
    "players",
    sa.column("id", sa.Integer),
    sa.column("name", sa.String),
    sa.column("login", sa.String),
    sa.column("look", sa.String),
)


def upgrade() -> None:
    bind = op.get_bind()
    if bind.dialect.name == "postgresql":
        op.alter_column("players", "login", type_=sa.String(FOLDED_CHARS), existing_type=sa.String(40))
    op.add_column("players", sa.Column("look", sa.String(FOLDED_CHARS), nullable=True))
    rows = bind.execute(
        sa.select(_players.c.id, _players.c.name).where(_players.c.login.is_not(None)).order_by(_players.c.id)
    ).all()
    owner: dict[str, int] = {}
    for pid, name in rows:
        key = look(name)
        if key in owner:
            log.warning(
                "account %d (%r) looks like account %d: both keep working; the name is taken for new accounts",
                pid,
                name,
                owner[key],
            )
            continue
        owner[key] = pid
    if owner:
        bind.execute(
            _players.update().where(_players.c.id == sa.bindparam("pid")).values(look=sa.bindparam("key")),
            [{"pid": pid, "key": key} for key, pid in owner.items()],
        )
    op.create_index("ix_players_look", "players", ["look"], unique=True)


def downgrade() -> None:
    op.drop_index("ix_players_look", table_name="players")
    op.drop_column("players", "look")
    if op.get_bind().dialect.name == "postgresql":
        op.alter_column("players", "login", type_=sa.String(40), existing_type=sa.String(FOLDED_CHARS))
