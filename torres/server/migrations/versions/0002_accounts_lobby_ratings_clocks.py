"""Strangers: accounts and sessions, the lobby, ratings, clocks (docs/server.md).

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

STAMP = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "accounts",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("username", sa.String(24), nullable=False),
        sa.Column("username_key", sa.String(24), nullable=False, unique=True),
        sa.Column("password_hash", sa.String(200), nullable=True),
        sa.Column("deleted", sa.Boolean(), nullable=False),
        sa.Column("created", STAMP, nullable=False),
    )
    op.create_table(
        "sessions",
        sa.Column("id_hash", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.Integer(), sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
        sa.Column("csrf", sa.String(64), nullable=False),
        sa.Column("created", STAMP, nullable=False),
        sa.Column("expires", STAMP, nullable=False),
    )
    op.create_index("ix_sessions_account_id", "sessions", ["account_id"])
    op.create_table(
        "login_failures",
        sa.Column("key", sa.String(100), primary_key=True),
        sa.Column("count", sa.Integer(), nullable=False),
        sa.Column("since", STAMP, nullable=False),
    )
    op.create_table(
        "presence",
        sa.Column("account_id", sa.Integer(), sa.ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("seen", STAMP, nullable=False),
    )
    op.create_index("ix_presence_seen", "presence", ["seen"])
    op.create_table(
        "seeks",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("creator_id", sa.Integer(), sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.Column("rules", sa.Text(), nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("clock", sa.String(32), nullable=True),
        sa.Column("bots", sa.String(16), nullable=True),
        sa.Column("note", sa.String(80), nullable=False),
        sa.Column("status", sa.String(12), nullable=False),
        sa.Column("game_id", sa.String(16), nullable=True),
        sa.Column("created", STAMP, nullable=False),
    )
    op.create_index("ix_seeks_creator_id", "seeks", ["creator_id"])
    op.create_index("ix_seeks_status", "seeks", ["status"])
    op.create_table(
        "seek_players",
        sa.Column("seek_id", sa.String(16), sa.ForeignKey("seeks.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("account_id", sa.Integer(), sa.ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("joined", STAMP, nullable=False),
    )
    op.create_table(
        "ratings",
        sa.Column("account_id", sa.Integer(), sa.ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("players", sa.Integer(), primary_key=True),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("updated", STAMP, nullable=False),
    )
    op.create_table(
        "rated_games",
        sa.Column("game_id", sa.String(16), sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("changes", sa.JSON(), nullable=False),
        sa.Column("applied", STAMP, nullable=False),
    )
    with op.batch_alter_table("games") as games:
        games.add_column(sa.Column("rated", sa.Boolean(), nullable=False, server_default=sa.false()))
        games.add_column(sa.Column("clock", sa.String(32), nullable=True))
        games.add_column(sa.Column("clock_left", sa.JSON(), nullable=True))
        games.add_column(sa.Column("deadline", STAMP, nullable=True))
        games.add_column(sa.Column("rematch", sa.String(16), nullable=True))
        games.create_index("ix_games_deadline", ["deadline"])
    with op.batch_alter_table("seats") as seats:
        seats.add_column(sa.Column("account_id", sa.Integer(), nullable=True))
        seats.add_column(sa.Column("out", sa.String(12), nullable=True))
        seats.create_foreign_key("fk_seats_account_id", "accounts", ["account_id"], ["id"], ondelete="SET NULL")
        seats.create_index("ix_seats_account_id", ["account_id"])


def downgrade() -> None:
    with op.batch_alter_table("seats") as seats:
        seats.drop_index("ix_seats_account_id")
        seats.drop_constraint("fk_seats_account_id", type_="foreignkey")
        seats.drop_column("out")
        seats.drop_column("account_id")
    with op.batch_alter_table("games") as games:
        games.drop_index("ix_games_deadline")
        for column in ("rematch", "deadline", "clock_left", "clock", "rated"):
            games.drop_column(column)
    for table in ("rated_games", "ratings", "seek_players", "seeks", "presence", "login_failures", "sessions",
                  "accounts"):
        op.drop_table(table)
