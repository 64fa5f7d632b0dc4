"""turn-based games: days per move, the deadline of the move awaited, and whose move it is

Revision ID: 0007_turns
Revises: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007_turns"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("days_per_move", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("deadline", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("turn_id", sa.String(length=32), nullable=True))
    op.create_index("ix_games_deadline", "games", ["deadline"])
    op.create_index("ix_games_turn", "games", ["turn_id"])


def downgrade() -> None:
    op.drop_index("ix_games_turn", table_name="games")
    op.drop_index("ix_games_deadline", table_name="games")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("turn_id")
        batch.drop_column("deadline")
        batch.drop_column("days_per_move")
