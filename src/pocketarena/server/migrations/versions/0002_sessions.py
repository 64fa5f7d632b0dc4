"""sessions kept server-side, client-address hashes and clock start times on games, heartbeats

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "sessions",
        sa.Column("id", sa.String(length=64), nullable=False),
        sa.Column("player_id", sa.String(length=32), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_seen_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("user_agent", sa.String(length=200), nullable=False),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"]),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("sessions", schema=None) as batch_op:
        batch_op.create_index("ix_sessions_player", ["player_id"], unique=False)
        batch_op.create_index("ix_sessions_expires", ["expires_at"], unique=False)

    op.create_table(
        "heartbeats",
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.Column("seen_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("name"),
    )
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.add_column(sa.Column("creator_addr", sa.String(length=32), nullable=True))
        batch_op.add_column(sa.Column("clock_since", sa.DateTime(timezone=True), nullable=True))
        batch_op.create_index("ix_games_creator", ["creator_id"], unique=False)
        batch_op.create_index("ix_games_creator_addr", ["creator_addr"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.drop_index("ix_games_creator_addr")
        batch_op.drop_index("ix_games_creator")
        batch_op.drop_column("clock_since")
        batch_op.drop_column("creator_addr")
    op.drop_table("heartbeats")
    with op.batch_alter_table("sessions", schema=None) as batch_op:
        batch_op.drop_index("ix_sessions_expires")
        batch_op.drop_index("ix_sessions_player")
    op.drop_table("sessions")
