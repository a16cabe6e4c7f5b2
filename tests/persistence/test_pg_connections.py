"""PostgreSQL connections: reads hold no transaction open; a connection that died while idle is replaced.

Both come from engine/persistence/pg_engines.py, which took the per-checkout ping and the read BEGIN/COMMIT
out of every request (a third of a case's round trips to the server).
"""
import psycopg
import pytest
from sqlalchemy import text

from engine.persistence import pg_engines

from tests.conftest import PG_URL

pytestmark = pytest.mark.skipif(not PG_URL, reason="PostgreSQL only; the PostgreSQL phase of .ci/run runs it")


def _backend_pid(conn) -> int:
    return conn.execute(text("SELECT pg_backend_pid()")).scalar()


def _terminate(engine, pid: int) -> None:
    url = engine.db.write_engine.url.set(drivername="postgresql")
    with psycopg.connect(url.render_as_string(hide_password=False), autocommit=True) as admin:
        assert admin.execute("SELECT pg_terminate_backend(%s)", (pid,)).fetchone()[0] is True


def test_a_read_leaves_no_transaction_open_on_the_server(engine):
    with engine.db.read_engine.connect() as conn, conn.begin():
        assert conn.execute(text("SELECT count(*) FROM process_instance")).scalar() == 0
        raw = conn.connection.dbapi_connection
        assert raw.info.transaction_status == psycopg.pq.TransactionStatus.IDLE
    # Writes still run in one transaction, all or nothing.
    with engine.db.writing() as conn:
        conn.execute(text("SELECT 1"))
        assert conn.connection.dbapi_connection.info.transaction_status == psycopg.pq.TransactionStatus.INTRANS


def test_the_hot_paths_take_no_ping_per_checkout(engine):
    for eng in (engine.db.read_engine, engine.db.write_engine):
        assert eng.pool._pre_ping is False


@pytest.mark.parametrize("which", ["read_engine", "write_engine"])
def test_a_connection_killed_while_idle_is_replaced_before_use(engine, monkeypatch, which):
    pool = getattr(engine.db, which)
    with pool.connect() as conn:
        first = _backend_pid(conn)
    _terminate(engine, first)
    monkeypatch.setattr(pg_engines, "IDLE_PING_SECONDS", 0.0)  # as if it had sat idle past the limit
    with pool.connect() as conn:
        assert _backend_pid(conn) != first
    # And the engine's own commands go on working.
    assert engine.read_rows(lambda c: c.execute(text("SELECT 1")).scalar()) == 1
