"""Throwaway PostgreSQL databases on the test server (TRAMITE_TEST_DATABASE_URL)."""
from __future__ import annotations

from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url


def fresh_database(server_url: str, name: str) -> str:
    """Drop and create database `name` on the server of `server_url`; its URL, password included."""
    base = make_url(server_url)
    admin = create_engine(base, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    admin.dispose()
    return base.set(database=name).render_as_string(hide_password=False)
