"""Score pads kept by the server (corazones.services.store.pads).

Revision ID: 0002_pads
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002_pads"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "pads",
        sa.Column("id", sa.String(24), primary_key=True),
        sa.Column("key_hash", sa.String(64), nullable=False),
        sa.Column("data", sa.Text, nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("updated", sa.Float, nullable=False),
    )
    op.create_index("ix_pads_updated", "pads", ["updated"])


def downgrade() -> None:
    op.drop_index("ix_pads_updated", table_name="pads")
    op.drop_table("pads")
