"""Alembic environment. The app passes an open connection in ``config.attributes``; run from
the command line (``alembic -c alembic.ini upgrade head``) it reads POCKETARENA_DATABASE_URL."""

from __future__ import annotations

from alembic import context
from sqlalchemy import Connection

from pocketarena.server.core.config import Settings
from pocketarena.server.core.db import make_engine
from pocketarena.server.models import Base

target_metadata = Base.metadata


def _run(connection: Connection) -> None:
    context.configure(connection=connection, target_metadata=target_metadata, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


connection = context.config.attributes.get("connection")
if connection is not None:
    _run(connection)
else:
    engine = make_engine(Settings.from_env())
    with engine.begin() as conn:
        _run(conn)
