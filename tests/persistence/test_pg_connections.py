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


def test_a_connection_returned_with_its_transaction_open_is_rolled_back_and_one_without_is_not(engine):
    # pool_reset_on_return=None with pg_engines' own reset: it rolls back only what is open.
    write = engine.db.write_engine
    sent = []
    raw = write.raw_connection()
    driver = raw.driver_connection
    original = driver.rollback
    driver.rollback = lambda: (sent.append("rollback"), original())[1]
    try:
        driver.execute("INSERT INTO role (id, label_es, label_en, builtin) VALUES ('left_open', 'a', 'b', false)")
        assert driver.pgconn.transaction_status == psycopg.pq.TransactionStatus.INTRANS
        raw.close()  # back to the pool with the insert uncommitted
        assert sent == ["rollback"] and driver.pgconn.transaction_status == psycopg.pq.TransactionStatus.IDLE
        raw = write.raw_connection()
        assert raw.driver_connection is driver  # the same pooled connection, nothing of the insert kept
        assert driver.execute("SELECT count(*) FROM role WHERE id = 'left_open'").fetchone()[0] == 0
        driver.commit()
        raw.close()  # nothing open: nothing sent
        assert sent == ["rollback"]
    finally:
        del driver.rollback
