"""A PostgreSQL restart as the app sees it: every session of the test's database ended at once."""
from __future__ import annotations

import psycopg
from sqlalchemy import text
from sqlalchemy.engine import make_url


def end_every_session(database_url: str) -> int:
    """pg_terminate_backend for every other session of `database_url`'s database (the app's pooled
    connections, idle or not); how many were ended."""
    url = make_url(database_url).set(drivername="postgresql").render_as_string(hide_password=False)
    with psycopg.connect(url, autocommit=True) as admin:
        return admin.execute(
            "SELECT count(*) FILTER (WHERE pg_terminate_backend(pid)) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend'"
        ).fetchone()[0]


def restart_under(app, pooled: int = 4) -> None:
    """As a server restart meets a busy app: `pooled` connections kept in each of its pools, then
    every session of its database ended."""
    db = app.extensions["tramite"].db
    for pool in {id(e): e for e in (db.read_engine, db.write_engine, db.replica_engine)}.values():
        fill(pool, pooled)
    assert end_every_session(db.write_engine.url.render_as_string(hide_password=False)) >= pooled


def fill(pool, n: int) -> None:
    """`n` live connections left idle in `pool` (an Engine), as a busy server's pool holds them."""
    held = [pool.connect() for _ in range(n)]
    for conn in held:
        conn.execute(text("SELECT 1"))
    for conn in held:
        conn.close()
