"""notifications: the bell's queue, per player

Revision ID: 0013_notifications
Revises: 0012_preferences
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013_notifications"
down_revision = "0012_preferences"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "notifications",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("player_id", sa.String(length=32), nullable=False),
        sa.Column("kind", sa.String(length=24), nullable=False),
        sa.Column("actor_id", sa.String(length=32), nullable=True),
        sa.Column("game_id", sa.String(length=16), nullable=True),
        sa.Column("data", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("read_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"]),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_notifications_player", "notifications", ["player_id", "id"])


def downgrade() -> None:
    op.drop_index("ix_notifications_player", table_name="notifications")
    op.drop_table("notifications")
