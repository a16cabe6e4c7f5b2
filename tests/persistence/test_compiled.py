"""Statements compiled once and run on the driver's cursor (engine/persistence/compiled.py): the rows
read exactly as `Connection.execute` reads them, the listeners see each statement, a database error
is SQLAlchemy's, and a statement with an IN-list goes the usual way. Both phases of .ci/run (SQLite
and PostgreSQL) run these."""
from datetime import datetime, timezone
from decimal import Decimal

import pytest
from sqlalchemy import JSON, Numeric, String, bindparam, cast, event, insert, literal, select, text
from sqlalchemy.exc import IntegrityError, NoResultFound

from engine.persistence import compiled
from engine.persistence.models import CaseCounter
from engine.persistence.tables import INSTANCE
from engine.persistence.types import UTCDateTime

COUNTER = CaseCounter.__table__
TYPED = select(bindparam("when", type_=UTCDateTime).label("when"), literal("fixed").label("constant"),
               (bindparam("n") + 1).label("n_plus_one"),
               cast(bindparam("amount", type_=String), Numeric(12, 2)).label("amount"),
               bindparam("doc", type_=JSON).label("doc"))
VALUES = {"when": datetime(2026, 12, 4, 5, 0, tzinfo=timezone.utc), "n": 41, "amount": "1234.50",
          "doc": {"a": [1, "dos"], "b": None}}


def test_a_typed_select_reads_as_connection_execute_reads_it(engine):
    with engine.db.writing() as conn:
        core = conn.execute(TYPED, VALUES).one()._mapping
        fast = compiled.run(conn, TYPED, VALUES).one()
        again = compiled.run(conn, TYPED, {**VALUES, "n": 1}).one()  # the compiled entry reused
    assert dict(fast._mapping) == dict(core)
    assert fast.amount == Decimal("1234.50") and isinstance(fast.amount, Decimal)
    assert fast.doc == {"a": [1, "dos"], "b": None} and fast.constant == "fixed" and fast.n_plus_one == 42
    assert again.n_plus_one == 2 and again[0] == fast[0]


def test_an_insert_returning_and_a_text_statement_answer_their_rows(engine):
    statement = insert(COUNTER).values(prefix=bindparam("p"), year=bindparam("y"), last=7).returning(COUNTER.c.last)
    with engine.db.writing() as conn:
        assert compiled.run(conn, statement, {"p": "ZZ", "y": 1999}).scalar_one() == 7
        rows = compiled.run(conn, text("SELECT prefix, last FROM case_counter WHERE year = :y"), {"y": 1999})
        conn.rollback()
    assert [tuple(r) for r in rows] == [("ZZ", 7)] and rows.first().prefix == "ZZ"


def test_no_row_and_no_answer(engine):
    with engine.db.writing() as conn:
        none = compiled.run(conn, select(INSTANCE.c.id).where(INSTANCE.c.id == bindparam("i")), {"i": -1})
        written = compiled.run(conn, text("UPDATE case_counter SET last = last WHERE year = :y"), {"y": 1})
    assert none.first() is None and none.scalar() is None and none.all() == [] and written == []
    with pytest.raises(NoResultFound):
        none.one()


def test_the_connections_listeners_see_each_statement(engine):
    seen = []

    def listener(_conn, _cursor, statement, parameters, _context, _many):
        seen.append((statement, parameters))

    event.listen(engine.db.write_engine, "before_cursor_execute", listener)
    try:
        with engine.db.writing() as conn:
            compiled.run(conn, TYPED, VALUES)
    finally:
        event.remove(engine.db.write_engine, "before_cursor_execute", listener)
    assert len(seen) == 1 and seen[0][0] == compiled.entry(TYPED, engine.db.write_engine.dialect).sql


def test_a_database_error_is_sqlalchemys_and_the_command_says_409(engine):
    from engine.errors import Conflict
    from engine.identity.actor import SYSTEM

    statement = insert(COUNTER).values(prefix=bindparam("p"), year=bindparam("y"), last=1)
    with engine.db.writing() as conn:
        compiled.run(conn, statement, {"p": "ZZ", "y": 1998})
    with pytest.raises(IntegrityError):
        with engine.db.writing() as conn:
            compiled.run(conn, statement, {"p": "ZZ", "y": 1998})
    with pytest.raises(Conflict) as refused:
        engine.execute(lambda ctx: compiled.run(ctx.conn, statement, {"p": "ZZ", "y": 1998}), SYSTEM)
    assert refused.value.code == "CONCURRENT_CHANGE"


def test_a_statement_with_an_in_list_runs_through_execute(engine):
    statement = select(literal(1).label("one")).where(literal("b").in_(bindparam("names", expanding=True)))
    with engine.db.writing() as conn:
        assert [tuple(r) for r in compiled.run(conn, statement, {"names": ["a", "b"]})] == [(1,)]
        assert compiled.run(conn, statement, {"names": ["a"]}).all() == []
    assert compiled.entry(statement, engine.db.write_engine.dialect) is None
