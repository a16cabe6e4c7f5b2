"""Statements compiled once and run on the driver's cursor (engine/persistence/compiled.py): the rows
read exactly as `Connection.execute` reads them, the listeners see each statement, a database error
is SQLAlchemy's, and a statement with IN-lists is compiled for their lengths. Both phases of .ci/run (SQLite
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


def test_a_statement_with_in_lists_is_compiled_for_each_combination_of_their_lengths(engine):
    when = datetime(2026, 12, 4, 5, 0, tzinfo=timezone.utc)
    statement = (select(literal(1).label("one"))
                 .where(literal("b").in_(bindparam("names", expanding=True)),
                        bindparam("at", type_=UTCDateTime).in_(bindparam("instants", type_=UTCDateTime, expanding=True))))
    dialect = engine.db.write_engine.dialect

    def both(conn, names, instants):
        params = {"names": names, "instants": instants, "at": when}
        return [tuple(r) for r in compiled.run(conn, statement, params)], [tuple(r) for r in conn.execute(statement, params)]

    with engine.db.writing() as conn:
        # Each element goes through the list's type (an aware instant stored as naive UTC matches).
        assert both(conn, ["a", "b"], [when]) == ([(1,)], [(1,)])
        assert both(conn, ["a", "c", "b"], [datetime(2020, 1, 1, tzinfo=timezone.utc), when]) == ([(1,)], [(1,)])
        assert both(conn, ["a"], [when]) == ([], [])
        assert both(conn, [], [when]) == ([], [])  # an empty list matches nothing
        assert both(conn, ["b"], []) == ([], [])
    two = compiled.entry(statement, dialect, {"names": ["x", "y"], "instants": [when]})
    three = compiled.entry(statement, dialect, {"names": ["x", "y", "z"], "instants": [when]})
    assert two is compiled.entry(statement, dialect, {"names": ["p", "q"], "instants": [when]})
    assert two.sql != three.sql
