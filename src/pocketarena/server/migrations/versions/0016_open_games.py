"""the creators' indexes name the status too: the open-game caps read open games only

A new game is checked against the caps on the games its player and its address keep open
(``Store.open_games``). Through an index on the creator alone, that count read every game the
player or the address ever created for its status: on SQLite 66 µs with none, 869 µs with
6,000 finished games from one address (80 now). With the status in the index (and in each condition of
the query), only the open ones are read.

Revision ID: 0016_open_games
Revises: 0015_hot_moves
"""

from __future__ import annotations

from alembic import op

revision = "0016_open_games"
down_revision = "0015_hot_moves"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.drop_index("ix_games_creator", table_name="games")
    op.drop_index("ix_games_creator_addr", table_name="games")
    op.create_index("ix_games_creator_status", "games", ["creator_id", "status"])
    op.create_index("ix_games_creator_addr_status", "games", ["creator_addr", "status"])


def downgrade() -> None:
    op.drop_index("ix_games_creator_addr_status", table_name="games")
    op.drop_index("ix_games_creator_status", table_name="games")
    op.create_index("ix_games_creator_addr", "games", ["creator_addr"])
    op.create_index("ix_games_creator", "games", ["creator_id"])
