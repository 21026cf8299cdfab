"""Players, secrets, tables, events and results.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "secrets",
        sa.Column("key", sa.String(40), primary_key=True),
        sa.Column("value", sa.String(200), nullable=False),
    )
    op.create_table(
        "players",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("kind", sa.String(10), nullable=False),
        sa.Column("login", sa.String(40), nullable=True, unique=True),
        sa.Column("password_hash", sa.String(300), nullable=True),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_table(
        "tables",
        sa.Column("id", sa.String(24), primary_key=True),
        sa.Column("name", sa.String(60), nullable=False),
        sa.Column("preset", sa.String(40), nullable=False),
        sa.Column("rules", sa.Text, nullable=False),
        sa.Column("seats", sa.Text, nullable=False),
        sa.Column("seed", sa.String(100), nullable=False),
        sa.Column("commitment", sa.String(64), nullable=False),
        sa.Column("status", sa.String(10), nullable=False, index=True),
        sa.Column("private", sa.Boolean, nullable=False),
        sa.Column("invite", sa.String(40), nullable=False),
        sa.Column("owner_id", sa.Integer, sa.ForeignKey("players.id"), nullable=True),
        sa.Column("takeover_level", sa.String(20), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("started", sa.Float, nullable=True),
        sa.Column("finished", sa.Float, nullable=True),
        sa.Column("lease_owner", sa.String(40), nullable=True),
        sa.Column("lease_url", sa.String(200), nullable=True),
        sa.Column("lease_expires", sa.Float, nullable=False),
    )
    op.create_table(
        "events",
        sa.Column("table_id", sa.String(24), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("seq", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(20), nullable=False),
        sa.Column("data", sa.Text, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_table(
        "results",
        sa.Column("table_id", sa.String(24), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), nullable=True, index=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("score", sa.Integer, nullable=False),
        sa.Column("won", sa.Boolean, nullable=False),
        sa.Column("hands", sa.Integer, nullable=False),
        sa.Column("moons", sa.Integer, nullable=False),
        sa.Column("hand_points", sa.Text, nullable=False),
        sa.Column("finished", sa.Float, nullable=False),
    )


def downgrade() -> None:
    for name in ("results", "events", "tables", "players", "secrets"):
        op.drop_table(name)
