"""Throwaway PostgreSQL databases on the test server (TRAMITE_TEST_DATABASE_URL)."""
from __future__ import annotations

import time

from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ProgrammingError

AUTOVACUUM_SECONDS = 60


def fresh_database(server_url: str, name: str) -> str:
    """Drop and create database `name` on the server of `server_url`; its URL, password included."""
    base = make_url(server_url)
    admin = create_engine(base, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        drop_database(conn, name)
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    admin.dispose()
    return base.set(database=name).render_as_string(hide_password=False)


def drop_database(conn, name: str) -> None:
    """DROP DATABASE … WITH (FORCE) on an autocommit connection, again while an autovacuum worker is
    in it: FORCE ends the other sessions, but a role that is not a superuser may not end autovacuum's
    (InsufficientPrivilege, "pg_signal_backend"), which leaves within seconds. Seen in CI at a
    production test's teardown, and in one benchmark run of ten."""
    deadline = time.monotonic() + AUTOVACUUM_SECONDS
    while True:
        try:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
            return
        except ProgrammingError as exc:
            if "pg_signal_backend" not in str(exc) or time.monotonic() > deadline:
                raise
            time.sleep(0.2)
