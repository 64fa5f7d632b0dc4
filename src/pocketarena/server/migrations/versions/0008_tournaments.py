"""tournaments: Swiss, round robin and arena tournaments, their players and pairings

Revision ID: 0008_tournaments
Revises: 0007_turns
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008_tournaments"
down_revision = "0007_turns"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tournaments",
        sa.Column("id", sa.String(length=16), nullable=False),
        sa.Column("name", sa.String(length=60), nullable=False),
        sa.Column("kind", sa.String(length=12), nullable=False),
        sa.Column("game", sa.String(length=32), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("clock_initial_ms", sa.Integer(), nullable=True),
        sa.Column("clock_increment_ms", sa.Integer(), nullable=True),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("invite_only", sa.Boolean(), nullable=False),
        sa.Column("invite_token", sa.String(length=40), nullable=True),
        sa.Column("min_games", sa.Integer(), nullable=False),
        sa.Column("max_players", sa.Integer(), nullable=False),
        sa.Column("rounds", sa.Integer(), nullable=True),
        sa.Column("duration_s", sa.Integer(), nullable=True),
        sa.Column("status", sa.String(length=10), nullable=False),
        sa.Column("creator_id", sa.String(length=32), nullable=False),
        sa.Column("starts_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["creator_id"], ["players.id"]),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_tournaments_status_starts", "tournaments", ["status", "starts_at"])
    op.create_index("ix_tournaments_creator_id", "tournaments", ["creator_id"])
    op.create_table(
        "tournament_players",
        sa.Column("tournament_id", sa.String(length=16), nullable=False),
        sa.Column("player_id", sa.String(length=32), nullable=False),
        sa.Column("seed", sa.Integer(), nullable=False),
        sa.Column("withdrawn", sa.Boolean(), nullable=False),
        sa.Column("joined_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["tournament_id"], ["tournaments.id"]),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"]),
        sa.PrimaryKeyConstraint("tournament_id", "player_id"),
    )
    op.create_table(
        "tournament_pairings",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("tournament_id", sa.String(length=16), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("board", sa.Integer(), nullable=False),
        sa.Column("first_id", sa.String(length=32), nullable=False),
        sa.Column("second_id", sa.String(length=32), nullable=True),
        sa.Column("game_id", sa.String(length=16), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["tournament_id"], ["tournaments.id"]),
        sa.ForeignKeyConstraint(["first_id"], ["players.id"]),
        sa.ForeignKeyConstraint(["second_id"], ["players.id"]),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index(
        "ux_tournament_pairings_board",
        "tournament_pairings",
        ["tournament_id", "round", "board"],
        unique=True,
    )
    op.create_index("ix_tournament_pairings_game_id", "tournament_pairings", ["game_id"])


def downgrade() -> None:
    op.drop_index("ix_tournament_pairings_game_id", table_name="tournament_pairings")
    op.drop_index("ux_tournament_pairings_board", table_name="tournament_pairings")
    op.drop_table("tournament_pairings")
    op.drop_table("tournament_players")
    op.drop_index("ix_tournaments_creator_id", table_name="tournaments")
    op.drop_index("ix_tournaments_status_starts", table_name="tournaments")
    op.drop_table("tournaments")
