"""tournament days per move: Swiss and round robin tournaments of turn-based games

Revision ID: 0010_tournament_days
Revises: 0009_gestures
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010_tournament_days"
down_revision = "0009_gestures"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("tournaments", sa.Column("days_per_move", sa.Integer(), nullable=True))


def downgrade() -> None:
    op.drop_column("tournaments", "days_per_move")
