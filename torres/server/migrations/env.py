"""Alembic environment: the server passes its own connection (Store.upgrade), so no alembic.ini is needed."""

from __future__ import annotations

from alembic import context

from torres.server.store import Base

connection = context.config.attributes.get("connection")
if connection is None:
    raise RuntimeError("run migrations through torres (Store.upgrade), which passes its database connection")
context.configure(connection=connection, target_metadata=Base.metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
