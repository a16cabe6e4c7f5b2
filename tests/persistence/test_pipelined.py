"""Statements sent together in psycopg's pipeline mode (engine/persistence/pipelined.py): each one's
values converted by its columns' types, the values written into a statement sent as they are, each
answer handed back, and an error raised for the whole transaction."""
from datetime import datetime, timezone

import psycopg
import pytest
from sqlalchemy import bindparam, literal, select

from engine.persistence.pipelined import Pipeline
from engine.persistence.tables import INSTANCE
from engine.persistence.types import UTCDateTime

from tests.conftest import PG_URL

pytestmark = pytest.mark.skipif(not PG_URL, reason="PostgreSQL only; the PostgreSQL phase of .ci/run runs it")

# A statement with a caller's value typed by a column type and a constant of its own (`'fixed'`).
ECHO = select(bindparam("when", type_=UTCDateTime), literal("fixed"), bindparam("n") + 1)


def test_each_statement_gets_its_values_converted_and_its_constants_and_its_own_answer(engine):
    when = datetime(2026, 12, 2, 13, 0, tzinfo=timezone.utc)
    answers = []
    with engine.db.writing() as conn:
        pipeline = Pipeline()
        for n in range(3):
            pipeline.queue(ECHO, {"when": when, "n": n}, answers.append)
        assert answers == []  # nothing is sent before send()
        pipeline.send(conn)
    assert [(row[1], row[2]) for row in answers] == [("fixed", 1), ("fixed", 2), ("fixed", 3)]
    # UTCDateTime stores naive UTC: the aware instant went through its bind processor.
    assert {row[0] for row in answers} == {when.replace(tzinfo=None)}


def test_an_error_in_one_statement_is_raised_by_send(engine):
    failing = select(INSTANCE.c.id).where(INSTANCE.c.id == bindparam("id") / 0)
    with pytest.raises(psycopg.errors.DivisionByZero):
        with engine.db.writing() as conn:
            pipeline = Pipeline()
            pipeline.queue(ECHO, {"when": datetime.now(timezone.utc), "n": 1}, lambda row: None)
            pipeline.queue(failing, {"id": 1}, lambda row: None)
            pipeline.send(conn)
