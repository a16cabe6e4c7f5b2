"""The database handle: engines, sessions and write transactions for SQLite and PostgreSQL."""
from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from sqlalchemy import create_engine, event
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session, sessionmaker

MIGRATIONS = Path(__file__).parent / "migrations"


def _sqlite_engine(url: str, begin: str) -> Engine:
    # The driver's own transaction handling is switched off so that we decide how each
    # transaction begins: writers take the lock up front (BEGIN IMMEDIATE) and queue behind
    # each other for up to busy_timeout instead of failing half-way with "database is locked".
    engine = create_engine(url, connect_args={"isolation_level": None, "timeout": 30})

    @event.listens_for(engine, "connect")
    def _pragmas(dbapi_conn, _record):
        cur = dbapi_conn.cursor()
        cur.execute("PRAGMA journal_mode=WAL")
        cur.execute("PRAGMA synchronous=NORMAL")
        cur.execute("PRAGMA foreign_keys=ON")
        cur.execute("PRAGMA busy_timeout=30000")
        cur.close()

    @event.listens_for(engine, "begin")
    def _begin(conn):
        conn.exec_driver_sql(begin)

    return engine


class Database:
    def __init__(self, url: str):
        self.url = url
        self.is_sqlite = url.startswith("sqlite")
        if self.is_sqlite:
            self.write_engine = _sqlite_engine(url, "BEGIN IMMEDIATE")
            self.read_engine = _sqlite_engine(url, "BEGIN")
        else:
            self.write_engine = create_engine(url, pool_pre_ping=True, pool_size=10, max_overflow=20)
            self.read_engine = self.write_engine
        self._writer = sessionmaker(self.write_engine, expire_on_commit=False)
        self._reader = sessionmaker(self.read_engine, expire_on_commit=False)

    @contextmanager
    def transaction(self) -> Iterator[Session]:
        """One write transaction: commit on success, roll back everything on any exception."""
        with self._writer() as session:
            with session.begin():
                yield session

    @contextmanager
    def reading(self) -> Iterator[Session]:
        with self._reader() as session:
            with session.begin():
                yield session

    def upgrade(self) -> None:
        """Apply Alembic migrations up to head (run once, before workers start)."""
        from alembic import command
        from alembic.config import Config

        cfg = Config()
        cfg.set_main_option("script_location", str(MIGRATIONS))
        cfg.set_main_option("sqlalchemy.url", self.url.replace("%", "%%"))
        with self.write_engine.connect() as conn:
            cfg.attributes["connection"] = conn
            command.upgrade(cfg, "head")
            if conn.in_transaction():
                conn.commit()

    def dispose(self) -> None:
        self.write_engine.dispose()
        if self.read_engine is not self.write_engine:
            self.read_engine.dispose()
