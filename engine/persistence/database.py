"""The database handle: engines, sessions and write transactions for SQLite and PostgreSQL."""
from __future__ import annotations

import sqlite3
import threading
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from sqlalchemy import create_engine, event
from sqlalchemy.engine import Engine
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import Session, sessionmaker

from engine.persistence import pg_engines

MIGRATIONS = Path(__file__).parent / "migrations"
BUSY_SECONDS = 30

# One SQLite database takes one writer at a time. Threads of one process queue for it on a lock
# and each starts the moment the previous one ends; left to SQLite, a waiting writer sleeps and
# polls (1, 2, 5, 10 ms ...), which made four clients no faster than one. Other processes still
# wait through SQLite's busy timeout.
_writer_locks: dict[str, threading.RLock] = {}
_writer_locks_guard = threading.Lock()


def _writer_lock(url: str) -> threading.RLock:
    with _writer_locks_guard:
        return _writer_locks.setdefault(url, threading.RLock())


def _sqlite_engine(url: str, begin: str) -> Engine:
    # The driver's own transaction handling is switched off so that we decide how each
    # transaction begins: writers take the lock up front (BEGIN IMMEDIATE) and queue behind
    # each other for up to busy_timeout instead of failing half-way with "database is locked".
    engine = create_engine(url, connect_args={"isolation_level": None, "timeout": BUSY_SECONDS})

    @event.listens_for(engine, "connect")
    def _pragmas(dbapi_conn, _record):
        cur = dbapi_conn.cursor()
        cur.execute("PRAGMA journal_mode=WAL")
        cur.execute("PRAGMA synchronous=NORMAL")
        # Checkpoints (the WAL copied back into the database, with an fsync) every ~16 MB of changes
        # instead of SQLite's ~4 MB: pages every command touches are copied once per checkpoint, so
        # fewer checkpoints are less work; after each the file is cut back to at most 64 MB.
        cur.execute("PRAGMA wal_autocheckpoint=4000")
        cur.execute("PRAGMA journal_size_limit=67108864")
        cur.execute("PRAGMA foreign_keys=ON")
        cur.execute(f"PRAGMA busy_timeout={BUSY_SECONDS * 1000}")
        cur.close()

    # The dialect's own begin, not a "begin" event: any connection event makes SQLAlchemy dispatch
    # events around every statement it runs.
    def do_begin(dbapi_connection):
        dbapi_connection.cursor().execute(begin)

    engine.dialect.do_begin = do_begin
    return engine


class Database:
    def __init__(self, url: str, *, replica_url: str | None = None, prepared_statements: bool = True):
        self.url = url
        self.is_sqlite = url.startswith("sqlite")
        if self.is_sqlite:
            self.write_engine = _sqlite_engine(url, "BEGIN IMMEDIATE")
            self.read_engine = _sqlite_engine(url, "BEGIN")
        else:
            self.write_engine = pg_engines.write_engine(url, prepared_statements)
            self.read_engine = pg_engines.read_engine(url, prepared_statements)
        # Lists and dashboards may read a streaming replica; everything else reads the primary.
        self.replica_engine = (pg_engines.read_engine(replica_url, prepared_statements)
                               if replica_url and not self.is_sqlite else self.read_engine)
        self._writer = sessionmaker(self.write_engine, expire_on_commit=False)
        self._reader = sessionmaker(self.read_engine, expire_on_commit=False)
        self._replica_reader = sessionmaker(self.replica_engine, expire_on_commit=False)
        self._writer_lock = _writer_lock(url) if self.is_sqlite else None

    @contextmanager
    def writing(self) -> Iterator:
        """One write transaction on a Core connection: commit on success, roll back on any exception."""
        with self._one_writer():
            with self.write_engine.begin() as conn:
                yield conn

    @contextmanager
    def transaction(self) -> Iterator[Session]:
        """One write transaction: commit on success, roll back everything on any exception."""
        with self._one_writer():
            with self._writer() as session:
                with session.begin():
                    yield session

    @contextmanager
    def _one_writer(self):
        if self._writer_lock is None:  # PostgreSQL: row locks, writers in parallel
            yield
            return
        if not self._writer_lock.acquire(timeout=BUSY_SECONDS):
            raise OperationalError("BEGIN IMMEDIATE", {}, sqlite3.OperationalError("database is locked"))
        try:
            yield
        finally:
            self._writer_lock.release()

    @contextmanager
    def reading(self) -> Iterator[Session]:
        with self._reader() as session:
            with session.begin():
                yield session

    @contextmanager
    def reading_replica(self) -> Iterator[Session]:
        with self._replica_reader() as session:
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
        if self.replica_engine is not self.read_engine:
            self.replica_engine.dispose()
