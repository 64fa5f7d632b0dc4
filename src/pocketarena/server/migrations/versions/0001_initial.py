"""initial schema: players, games, ratings

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
        "players",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.Column("kind", sa.String(length=8), nullable=False),
        sa.Column("username", sa.String(length=40), nullable=True),
        sa.Column("password_hash", sa.String(length=255), nullable=True),
        sa.Column("bot_spec", sa.String(length=40), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("bot_spec"),
        sa.UniqueConstraint("username"),
    )
    op.create_table(
        "games",
        sa.Column("id", sa.String(length=16), nullable=False),
        sa.Column("game", sa.String(length=32), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("mode", sa.String(length=8), nullable=False),
        sa.Column("status", sa.String(length=10), nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("creator_id", sa.String(length=32), nullable=False),
        sa.Column("seat0_id", sa.String(length=32), nullable=True),
        sa.Column("seat1_id", sa.String(length=32), nullable=True),
        sa.Column("creator_seat", sa.Integer(), nullable=True),
        sa.Column("invite_token", sa.String(length=40), nullable=True),
        sa.Column("clock_initial_ms", sa.Integer(), nullable=True),
        sa.Column("clock_increment_ms", sa.Integer(), nullable=True),
        sa.Column("clock0_ms", sa.Integer(), nullable=True),
        sa.Column("clock1_ms", sa.Integer(), nullable=True),
        sa.Column("history", sa.JSON(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("chance_scheme", sa.String(length=40), nullable=True),
        sa.Column("chance_seed", sa.String(length=64), nullable=True),
        sa.Column("chance_commitment", sa.String(length=64), nullable=True),
        sa.Column("winner", sa.Integer(), nullable=True),
        sa.Column("result", sa.String(length=8), nullable=True),
        sa.Column("termination", sa.String(length=16), nullable=True),
        sa.Column("scores", sa.JSON(), nullable=True),
        sa.Column("rating_changes", sa.JSON(), nullable=True),
        sa.Column("rematch_of", sa.String(length=16), nullable=True),
        sa.Column("rematch_id", sa.String(length=16), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["creator_id"],
            ["players.id"],
        ),
        sa.ForeignKeyConstraint(
            ["seat0_id"],
            ["players.id"],
        ),
        sa.ForeignKeyConstraint(
            ["seat1_id"],
            ["players.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.create_index("ix_games_seat0", ["seat0_id"], unique=False)
        batch_op.create_index("ix_games_seat1", ["seat1_id"], unique=False)
        batch_op.create_index("ix_games_status", ["status"], unique=False)

    op.create_table(
        "ratings",
        sa.Column("player_id", sa.String(length=32), nullable=False),
        sa.Column("game", sa.String(length=32), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["players.id"],
        ),
        sa.PrimaryKeyConstraint("player_id", "game"),
    )


def downgrade() -> None:
    op.drop_table("ratings")
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.drop_index("ix_games_status")
        batch_op.drop_index("ix_games_seat1")
        batch_op.drop_index("ix_games_seat0")

    op.drop_table("games")
    op.drop_table("players")
