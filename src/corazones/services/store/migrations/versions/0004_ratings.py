"""Ratings per rule family, their history, and stored game reviews (corazones.services.store.ratings).

Revision ID: 0004_ratings
Revises: 0003_revocation

New tables only: nothing existing changes, and every row can be recomputed
from the stored games (``corazones.services.ratings.recompute``).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004_ratings"
down_revision = "0003_revocation"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "ratings",
        sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("family", sa.String(24), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("updated", sa.Float, nullable=False),
    )
    op.create_table(
        "rating_events",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("table_id", sa.String(24), sa.ForeignKey("tables.id"), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), nullable=False),
        sa.Column("family", sa.String(24), nullable=False),
        sa.Column("mu_before", sa.Float, nullable=False),
        sa.Column("sigma_before", sa.Float, nullable=False),
        sa.Column("mu_after", sa.Float, nullable=False),
        sa.Column("sigma_after", sa.Float, nullable=False),
        sa.Column("finished", sa.Float, nullable=False),
        sa.UniqueConstraint("table_id", "seat", name="uq_rating_events_table_seat"),
    )
    op.create_index("ix_rating_events_player_id", "rating_events", ["player_id"])
    op.create_index("ix_rating_events_finished", "rating_events", ["finished"])
    op.create_table(
        "reviews",
        sa.Column("table_id", sa.String(24), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("worlds", sa.Integer, nullable=False),
        sa.Column("pass_worlds", sa.Integer, nullable=False),
        sa.Column("decisions", sa.Integer, nullable=False),
        sa.Column("mean_loss", sa.Float, nullable=False),
        sa.Column("data", sa.Text, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("reviews")
    op.drop_index("ix_rating_events_finished", table_name="rating_events")
    op.drop_index("ix_rating_events_player_id", table_name="rating_events")
    op.drop_table("rating_events")
    op.drop_table("ratings")
