"""gestures in a game: the seat offering a draw, the seat asking for a takeback

Revision ID: 0009_gestures
Revises: 0008_tournaments
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009_gestures"
down_revision = "0008_tournaments"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("draw_offer", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("takeback_offer", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("takeback_offer")
        batch.drop_column("draw_offer")
