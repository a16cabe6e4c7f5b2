"""Compiled statements on libpq itself (engine/persistence/libpq_run.py): prepared once per connection,
prepared again after psycopg deallocated them (a rollback, DDL, its cache's eviction), opening the
write transaction they are the first statement of, the cursor's way behind PgBouncer, and the
interpreter lock released while the server works."""
import threading

import psycopg
import pytest
from sqlalchemy import bindparam, insert, select, text
from sqlalchemy.exc import IntegrityError

from engine.persistence import compiled, libpq_run
from engine.persistence.models import CaseCounter
from engine.persistence.pg_engines import write_engine

from tests.conftest import PG_URL

pytestmark = pytest.mark.skipif(not PG_URL, reason="PostgreSQL only; the PostgreSQL phase of .ci/run runs it")

COUNTER = CaseCounter.__table__
ROW = select(COUNTER.c.last).where(COUNTER.c.prefix == bindparam("p"), COUNTER.c.year == bindparam("y"))
ADD = insert(COUNTER).values(prefix=bindparam("p"), year=bindparam("y"), last=bindparam("n"))
OURS = text("SELECT count(*) FROM pg_prepared_statements WHERE name LIKE 'tramite\\_%'")


def _ours(conn) -> int:
    return conn.execute(OURS).scalar()


def test_a_statement_is_prepared_once_per_connection_and_its_rows_read(engine):
    with engine.db.writing() as conn:
        assert libpq_run.usable(conn.connection.driver_connection)
        before = _ours(conn)
        compiled.run(conn, ADD, {"p": "ZZ", "y": 1990, "n": 7})
        assert compiled.run(conn, ROW, {"p": "ZZ", "y": 1990}).scalar_one() == 7
        assert _ours(conn) == before + 2
        for n in range(5):
            assert compiled.run(conn, ROW, {"p": "ZZ", "y": 1990}).all() == [(7,)]
            assert compiled.run(conn, ROW, {"p": "ZZ", "y": 1990 + 1 + n}).all() == []
        assert _ours(conn) == before + 2
        conn.rollback()


def test_the_first_statement_opens_the_transaction_it_belongs_to(engine):
    """Sent on libpq with no BEGIN, the insert would commit on its own and outlive the rollback."""
    with pytest.raises(RuntimeError):
        with engine.db.writing() as conn:
            compiled.run(conn, ADD, {"p": "ZZ", "y": 1991, "n": 1})
            assert conn.connection.driver_connection.info.transaction_status == psycopg.pq.TransactionStatus.INTRANS
            raise RuntimeError("the command failed after its first write")
    with engine.db.writing() as conn:
        assert compiled.run(conn, ROW, {"p": "ZZ", "y": 1991}).all() == []


@pytest.mark.parametrize("how", ["rollback", "ddl", "deallocate all"])
def test_a_statement_psycopg_deallocated_is_prepared_again(engine, how):
    with engine.db.write_engine.connect() as conn:  # no transaction block: the rollback is the test's
        compiled.run(conn, ADD, {"p": "ZZ", "y": 1992, "n": 3})
        driver = conn.connection.driver_connection
        for _ in range(6):  # psycopg prepares its own after 5: its register holds both
            conn.execute(text("SELECT 1 AS one"))
        if how == "rollback":   # psycopg sends DEALLOCATE ALL after every rollback
            conn.rollback()
        elif how == "ddl":      # ... and after DROP or ALTER run on its cursor
            conn.execute(text("CREATE TEMP TABLE scratch (a int)"))
            conn.execute(text("DROP TABLE scratch"))
        else:
            conn.execute(text("DEALLOCATE ALL"))
        assert _ours(conn) == 0 and not any(key[0] == "tramite" for key in driver._prepared._names)
        compiled.run(conn, ADD, {"p": "ZZ", "y": 1993, "n": 4})
        assert compiled.run(conn, ROW, {"p": "ZZ", "y": 1993}).scalar_one() == 4
        conn.rollback()


def test_a_statement_evicted_from_psycopg_s_register_is_prepared_again_under_a_new_name(engine):
    with engine.db.writing() as conn:
        driver = conn.connection.driver_connection
        driver.prepared_max = 2
        compiled.run(conn, ROW, {"p": "ZZ", "y": 1994})
        first = {key: name for key, name in driver._prepared._names.items() if key[0] == "tramite"}
        for n in range(3):  # psycopg's own statements push ours out; it deallocates its name
            for _ in range(6):
                conn.execute(text(f"SELECT {n} AS n"))
        assert not any(key[0] == "tramite" for key in driver._prepared._names)
        assert compiled.run(conn, ROW, {"p": "ZZ", "y": 1994}).all() == []
        again = {key: name for key, name in driver._prepared._names.items() if key[0] == "tramite"}
        assert again.keys() == first.keys() and set(again.values()).isdisjoint(first.values())
        conn.rollback()


def test_behind_pgbouncer_statements_run_on_the_cursor_unprepared(engine):
    unprepared = write_engine(engine.db.url, prepared_statements=False)
    try:
        with unprepared.begin() as conn:
            assert not libpq_run.usable(conn.connection.driver_connection)
            for n in range(8):
                assert compiled.run(conn, ROW, {"p": "ZZ", "y": 1995 + n}).all() == []
            assert conn.execute(text("SELECT count(*) FROM pg_prepared_statements")).scalar() == 0
    finally:
        unprepared.dispose()


def test_a_statement_waiting_on_the_server_lets_other_threads_run(engine):
    """A gthread worker's other requests go on while one waits for PostgreSQL: libpq's calls release
    the interpreter lock. Held, the main thread could not see the waiter nor release its lock: the
    waiter would fail at its lock timeout instead."""
    with engine.db.writing() as setup:
        compiled.run(setup, ADD, {"p": "ZZ", "y": 1996, "n": 1})
    holder = engine.db.write_engine.connect()
    holder.begin()
    holder.execute(text("SELECT 1 FROM case_counter WHERE prefix = 'ZZ' AND year = 1996 FOR UPDATE"))
    answer: list = []

    def waiter():
        with engine.db.writing() as conn:
            conn.execute(text("SET LOCAL lock_timeout = '30s'"))
            answer.append(compiled.run(conn, ROW.with_for_update(), {"p": "ZZ", "y": 1996}).scalar_one())

    thread = threading.Thread(target=waiter)
    thread.start()
    with engine.db.read_engine.connect() as watch:
        while not watch.execute(text("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
                                     "AND query LIKE '%case_counter%FOR UPDATE%'")).scalar():
            pass  # the waiter's statement is at the server, blocked on the row; this thread runs meanwhile
    holder.rollback()
    holder.close()
    thread.join(60)
    assert answer == [1]


def test_a_first_statement_that_fails_leaves_the_connection_usable(engine):
    """The transaction its BEGIN opened is rolled back with it, and the pooled connection serves the
    next transaction."""
    with engine.db.writing() as conn:
        compiled.run(conn, ADD, {"p": "ZZ", "y": 1997, "n": 1})
    with pytest.raises(IntegrityError):
        with engine.db.writing() as conn:
            driver = conn.connection.driver_connection
            compiled.run(conn, ADD, {"p": "ZZ", "y": 1997, "n": 2})  # the same key: its first statement fails
    assert driver.pgconn.transaction_status == psycopg.pq.TransactionStatus.IDLE
    with engine.db.writing() as conn:
        assert conn.connection.driver_connection is driver  # the same pooled connection, again
        assert compiled.run(conn, ROW, {"p": "ZZ", "y": 1997}).scalar_one() == 1
