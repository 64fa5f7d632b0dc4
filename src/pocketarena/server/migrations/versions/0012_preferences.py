"""preferences: an account's language, time zone and theme

Revision ID: 0012_preferences
Revises: 0011_friends
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012_preferences"
down_revision = "0011_friends"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.add_column(sa.Column("language", sa.String(length=16), nullable=True))
        batch.add_column(sa.Column("time_zone", sa.String(length=64), nullable=True))
        batch.add_column(sa.Column("theme", sa.String(length=8), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.drop_column("theme")
        batch.drop_column("time_zone")
        batch.drop_column("language")
