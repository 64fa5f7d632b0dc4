"""delivery: notifications by email and Web Push, each kind switchable per channel

Revision ID: 0014_delivery
Revises: 0013_notifications
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014_delivery"
down_revision = "0013_notifications"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.add_column(sa.Column("email", sa.String(length=254), nullable=True))
        batch.add_column(sa.Column("email_verified_at", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("notice_channels", sa.JSON(), nullable=True))
    with op.batch_alter_table("notifications") as batch:
        batch.add_column(sa.Column("shown", sa.Boolean(), nullable=False, server_default=sa.true()))
        batch.add_column(sa.Column("due", sa.Boolean(), nullable=False, server_default=sa.false()))
        batch.add_column(sa.Column("emailed_at", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("pushed_at", sa.DateTime(timezone=True), nullable=True))
    op.create_index("ix_notifications_due", "notifications", ["due", "id"])
    op.create_index(
        "ix_notifications_mailed", "notifications", ["player_id", "game_id", "emailed_at"]
    )
    op.create_table(
        "push_subscriptions",
        sa.Column("endpoint", sa.String(length=1000), nullable=False),
        sa.Column("player_id", sa.String(length=32), nullable=False),
        sa.Column("p256dh", sa.String(length=200), nullable=False),
        sa.Column("auth", sa.String(length=100), nullable=False),
        sa.Column("user_agent", sa.String(length=200), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"]),
        sa.PrimaryKeyConstraint("endpoint"),
    )
    op.create_index("ix_push_subscriptions_player", "push_subscriptions", ["player_id"])


def downgrade() -> None:
    op.drop_index("ix_push_subscriptions_player", table_name="push_subscriptions")
    op.drop_table("push_subscriptions")
    op.drop_index("ix_notifications_mailed", table_name="notifications")
    op.drop_index("ix_notifications_due", table_name="notifications")
    with op.batch_alter_table("notifications") as batch:
        batch.drop_column("pushed_at")
        batch.drop_column("emailed_at")
        batch.drop_column("due")
        batch.drop_column("shown")
    with op.batch_alter_table("players") as batch:
        batch.drop_column("notice_channels")
        batch.drop_column("email_verified_at")
        batch.drop_column("email")
