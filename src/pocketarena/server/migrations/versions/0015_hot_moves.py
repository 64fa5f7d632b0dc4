"""a move changes no indexed column: the "your turn" index goes (turn_id changes every move)

PostgreSQL rewrites a row in place of its page, without touching any index (a heap-only
update), only when no indexed column changes. ``turn_id`` changes at every move, so every
move's write added an entry to each of the table's eight indexes. The "your turn" list finds
a player's games through the seat indexes instead (a player sits in few games at once).

Revision ID: 0015_hot_moves
Revises: 0014_delivery
"""

from __future__ import annotations

from alembic import op

revision = "0015_hot_moves"
down_revision = "0014_delivery"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.drop_index("ix_games_turn", table_name="games")


def downgrade() -> None:
    op.create_index("ix_games_turn", "games", ["turn_id"])
