"""friends and challenges: follows, blocks, challenges to a named player

Revision ID: 0011_friends
Revises: 0010_tournament_days
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011_friends"
down_revision = "0010_tournament_days"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "follows",
        sa.Column("follower_id", sa.String(length=32), nullable=False),
        sa.Column("followed_id", sa.String(length=32), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["follower_id"], ["players.id"]),
        sa.ForeignKeyConstraint(["followed_id"], ["players.id"]),
        sa.PrimaryKeyConstraint("follower_id", "followed_id"),
    )
    op.create_index("ix_follows_followed", "follows", ["followed_id"])
    op.create_table(
        "blocks",
        sa.Column("blocker_id", sa.String(length=32), nullable=False),
        sa.Column("blocked_id", sa.String(length=32), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["blocker_id"], ["players.id"]),
        sa.ForeignKeyConstraint(["blocked_id"], ["players.id"]),
        sa.PrimaryKeyConstraint("blocker_id", "blocked_id"),
    )
    op.create_table(
        "challenges",
        sa.Column("id", sa.String(length=16), nullable=False),
        sa.Column("challenger_id", sa.String(length=32), nullable=False),
        sa.Column("challenged_id", sa.String(length=32), nullable=False),
        sa.Column("status", sa.String(length=10), nullable=False),
        sa.Column("game", sa.String(length=32), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("clock_initial_ms", sa.Integer(), nullable=True),
        sa.Column("clock_increment_ms", sa.Integer(), nullable=True),
        sa.Column("days_per_move", sa.Integer(), nullable=True),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("game_id", sa.String(length=16), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("answered_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["challenger_id"], ["players.id"]),
        sa.ForeignKeyConstraint(["challenged_id"], ["players.id"]),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_challenges_challenged", "challenges", ["challenged_id", "status"])
    op.create_index("ix_challenges_challenger", "challenges", ["challenger_id", "status"])


def downgrade() -> None:
    op.drop_index("ix_challenges_challenger", table_name="challenges")
    op.drop_index("ix_challenges_challenged", table_name="challenges")
    op.drop_table("challenges")
    op.drop_table("blocks")
    op.drop_index("ix_follows_followed", table_name="follows")
    op.drop_table("follows")
