"""Alembic environment: runs on the connection the Database hands over (or the URL)."""
from alembic import context
from sqlalchemy import create_engine

from engine.persistence.models import Base

config = context.config
target_metadata = Base.metadata


def run() -> None:
    connection = config.attributes.get("connection")
    if connection is None:
        engine = create_engine(config.get_main_option("sqlalchemy.url"))
        with engine.begin() as conn:
            context.configure(connection=conn, target_metadata=target_metadata)
            context.run_migrations()
        return
    context.configure(connection=connection, target_metadata=target_metadata,
                      render_as_batch=connection.dialect.name == "sqlite")
    with context.begin_transaction():
        context.run_migrations()


run()
