"""blunder puzzles: puzzles made from blunders in finished games

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "blunder_puzzles",
        sa.Column("id", sa.String(length=40), nullable=False),
        sa.Column("game_id", sa.String(length=16), nullable=False),
        sa.Column("game", sa.String(length=32), nullable=False),
        sa.Column("rating", sa.Integer(), nullable=False),
        sa.Column("data", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"]),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_blunder_puzzles_game_id", "blunder_puzzles", ["game_id"])


def downgrade() -> None:
    op.drop_index("ix_blunder_puzzles_game_id", table_name="blunder_puzzles")
    op.drop_table("blunder_puzzles")
