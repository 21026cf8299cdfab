"""Revoking sign-ins: a token generation per player, and the players a table's host removed.

Revision ID: 0003_revocation
Revises: 0002_pads

``players.token_gen`` is written into every token the server issues; bumping it
revokes every token of that player at once ("sign out everywhere", or the
operator's ``corazones revoke``).  Tokens issued before this revision carry no
generation and read as 0, so upgrading signs nobody out.  ``tables.removed`` is
the JSON list of player ids the table's host removed from their seat: they may
not sit at or connect to that table again.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003_revocation"
down_revision = "0002_pads"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Plain ADD COLUMN (with a default, so existing rows are filled): SQLite and PostgreSQL do it in place.
    op.add_column("players", sa.Column("token_gen", sa.Integer, nullable=False, server_default="0"))
    op.add_column("tables", sa.Column("removed", sa.Text, nullable=False, server_default="[]"))


def downgrade() -> None:
    op.drop_column("tables", "removed")
    op.drop_column("players", "token_gen")
