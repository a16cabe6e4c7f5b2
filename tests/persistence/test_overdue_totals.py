"""The overdue case list's total (migration 0032: the days before today kept per due day, today's
counted) equals a count(*) of the same filter as the clock passes the due dates, within the due day
and across midnight, after completions, a cancellation and an office move, and after the worker's
folds. On SQLite both sides count rows; the PostgreSQL phase compares the kept part too."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest
from sqlalchemy import select, text

from engine.identity.actor import Actor
from engine.persistence.tables import INSTANCE
from engine.queries import cases, list_totals
from engine.reporting.list_totals import fold, fold_round
from tests.conftest import PASSWORD
from tests.support.diagrams import reminder_flow

ACTORS = [Actor("boss", frozenset({"supervisor"})), Actor("clerk", frozenset({"test_clerk"})),
          Actor("caguas", frozenset({"test_clerk"}), "Caguas"), Actor("reviewer", frozenset({"test_reviewer"})),
          Actor("nobody", frozenset({"registry_clerk"}), "Humacao")]
FILTERS = [{}, {"status": "active"}, {"status": "cancelled"}, {"process": "test_reminder"}, {"process": "other"},
           {"office": "Caguas"}, {"process": "test_reminder", "status": "active", "office": "Sur"}]


def overdue_totals(engine, monkeypatch, *, counted: bool) -> dict:
    with monkeypatch.context() as m:
        if counted:
            m.setattr(list_totals, "kept", lambda session: False)
        # page 2 of one row: never the "first page not full" shortcut
        return {(a.username, str(f)): engine.read(cases.list_instances, a, engine.now, page=2, per_page=1,
                                                  overdue=True, **f)[1] for a in ACTORS for f in FILTERS}


def assert_kept_equal_counted(engine, monkeypatch) -> dict:
    kept, counted = (overdue_totals(engine, monkeypatch, counted=c) for c in (False, True))
    assert {k: (v, counted[k]) for k, v in kept.items() if v != counted[k]} == {}
    fold_round(engine)  # the worker's round: the same answers after the fold
    assert overdue_totals(engine, monkeypatch, counted=False) == counted
    return counted


def due_dates(engine) -> list[datetime]:
    with engine.db.reading() as session:
        column = INSTANCE.c.next_due_at  # UTC-aware on both databases
        return list(session.scalars(select(column).where(column.is_not(None)).order_by(column)))


def test_overdue_totals_equal_the_counts_as_the_clock_passes_the_due_dates(engine, api, monkeypatch):
    api.deploy("test_reminder", reminder_flow())
    api.post("/api/v1/users", "admin", {"username": "caguas", "password": PASSWORD, "roles": ["test_clerk"],
                                        "office": "Caguas"}, expect=201)
    started = []
    for instant in ("2024-04-01T13:00:00-04:00", "2024-04-01T15:00:00-04:00", "2024-04-03T10:00:00-04:00",
                    "2024-04-10T23:30:00-04:00", "2024-04-11T06:00:00-04:00"):
        api.move_clock(instant)
        started += [api.post("/api/v1/processes/test_reminder/instances", who, {"variables": {}}, expect=201)
                    for who in ("clerk", "caguas")]
    assert_kept_equal_counted(engine, monkeypatch)
    # Every due date's neighbourhood: just before it, just after it, the UTC midnight of its day.
    instants = sorted({i for due in due_dates(engine) for i in (
        due - timedelta(minutes=1), due + timedelta(minutes=1),
        datetime.combine(due.date() + timedelta(days=1), datetime.min.time(), tzinfo=timezone.utc))})
    seen = set()
    for n, instant in enumerate(instants):
        api.move_clock(instant.isoformat())
        seen.add(assert_kept_equal_counted(engine, monkeypatch)[("boss", "{}")])
        if n == 2:  # writes while some cases are overdue: a completion, a cancellation, an office move
            review = api.open_task(api.get(f"/api/v1/instances/{started[0]['id']}", "boss"), "review")
            api.post(f"/api/v1/tasks/{review['id']}/claim", "reviewer")
            api.post(f"/api/v1/tasks/{review['id']}/complete", "reviewer", {"data": {"note": "ok"}})
            api.post(f"/api/v1/instances/{started[3]['id']}/cancel", "boss", {"reason": "duplicado"})
            with engine.db.transaction() as session:
                session.execute(text("UPDATE process_instance SET office = 'Sur' WHERE id = :a"),
                                {"a": started[4]["id"]})
            assert_kept_equal_counted(engine, monkeypatch)
    assert len(seen) > 3  # the totals grew as the clock passed the due dates: they compared something


def test_the_kept_days_are_what_the_overdue_list_reads_on_postgresql(engine, api, monkeypatch):
    """A kept row written by hand shows in the total; a fold at a later day makes the list count."""
    if engine.db.is_sqlite:
        pytest.skip("SQLite counts its rows; the kept totals are PostgreSQL's")
    api.deploy("test_reminder", reminder_flow())
    for _ in range(3):
        api.post("/api/v1/processes/test_reminder/instances", "clerk", {"variables": {}}, expect=201)
    api.move_clock("2024-06-01T09:00:00-04:00")
    boss = Actor("boss", frozenset({"supervisor"}))

    def total():
        return engine.read(cases.list_instances, boss, engine.now, page=2, per_page=1, overdue=True)[1]
    assert total() == 3
    with engine.db.transaction() as session:
        definition = session.execute(text("SELECT id FROM process_definition")).scalar()
        session.execute(text("INSERT INTO case_due_total (definition_id, process_key, status, due_day, n) "
                             "VALUES (:d, 'test_reminder', 'active', DATE '2024-05-01', 1000)"), {"d": definition})
    assert total() == 1003
    fold_round(engine)
    assert total() == 1003
    with engine.db.transaction() as session:  # a fold at a later day (a clock set back since)
        session.execute(text("UPDATE case_due_total SET pending = true"))
        assert fold(session.connection(), engine.now().date() + timedelta(days=5))["case_due_total"]
    assert total() == 3  # the rows counted: the hand-written 1000 is not read
