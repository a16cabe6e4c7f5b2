"""The lists' totals kept beside the rows (migration 0031) equal a count(*) of the same filter after
every kind of write: start, claim, complete, cancel, suspend, an office move, a purge (tasks first,
as the retention job does, and a case deleted with its tasks by the cascade), and the worker's fold.
On SQLite both sides count rows; the PostgreSQL phase compares the kept totals with the counts."""
from __future__ import annotations

import itertools

from sqlalchemy import text

from engine.identity.actor import Actor
from engine.queries import cases, dashboard, list_totals
from engine.reporting.list_totals import fold
from tests.conftest import PASSWORD
from tests.support.diagrams import scoped_flow

ACTORS = [Actor("clerk", frozenset({"test_clerk"})), Actor("caguas", frozenset({"test_clerk"}), "Caguas"),
          Actor("both", frozenset({"test_clerk", "test_reviewer"})), Actor("boss", frozenset({"supervisor"})),
          Actor("reviewer", frozenset({"test_reviewer"})), Actor("nobody", frozenset({"registry_clerk"}), "Humacao")]
TASK_FILTERS = [dict(scope=s, state=st, process=p) for s, st, p in itertools.product(
    (None, "mine", "available", "all"), ("open", "completed", "cancelled", "any"), (None, "test_scoped", "other"))]
CASE_FILTERS = [{}, {"status": "active"}, {"status": "cancelled"}, {"status": "completed"},
                {"process": "test_scoped"}, {"process": "test_scoped", "status": "active"}, {"office": "Caguas"},
                {"office": "Humacao", "status": "active"}, {"process": "nothing"}]


def start(api, office, as_user="clerk"):
    return api.post("/api/v1/processes/test_scoped/instances", as_user,
                    {"variables": {"requested_office": office, "urgent": False}}, expect=201)


def totals(engine, monkeypatch, *, counted: bool) -> dict:
    """Every list's total for every actor: kept (counted=False) or counted row by row."""
    out = {}
    with monkeypatch.context() as m:
        if counted:
            m.setattr(list_totals, "kept", lambda session: False)
        for actor in ACTORS:
            for f in TASK_FILTERS:
                if f["scope"] == "all" and not actor.is_supervisor:
                    continue
                # page 2 of one row: never the "first page not full" shortcut
                out[(actor.username, "tasks", str(f))] = engine.read(
                    cases.list_tasks, actor, engine.now, page=2, per_page=1, **f)[1]
            for f in CASE_FILTERS:
                out[(actor.username, "cases", str(f))] = engine.read(
                    cases.list_instances, actor, engine.now, page=2, per_page=1, **f)[1]
        out["filters"] = engine.read(dashboard.filter_values)
        out["statuses"] = engine.read(dashboard.status_counts)
        out["stages"] = engine.read(dashboard.stage_counts)
        out["running"] = engine.read(cases.list_processes)
    return out


def assert_kept_equal_counted(engine, monkeypatch):
    kept, counted = totals(engine, monkeypatch, counted=False), totals(engine, monkeypatch, counted=True)
    assert {k: v for k, v in kept.items() if v != counted[k]} == {}
    return counted


def test_kept_totals_equal_the_counts_after_every_kind_of_write(engine, api, monkeypatch):
    api.deploy("test_scoped", scoped_flow())
    for name, office in (("caguas", "Caguas"), ("humacao", "Humacao")):
        api.post("/api/v1/users", "admin", {"username": name, "password": PASSWORD,
                                             "roles": ["test_clerk"], "office": office}, expect=201)
    started = [start(api, office, as_user=who) for office, who in
               zip(["Caguas", "Humacao", "Caguas", "Norte", "Caguas", "Humacao", "Sur", "Caguas"] * 2,
                   itertools.cycle(["clerk", "caguas", "both", "humacao"]))]
    assert_kept_equal_counted(engine, monkeypatch)
    tasks = [api.open_task(c, "handle")["id"] for c in started]
    # Caguas's cases go to the Caguas clerk, the others to staff without an office.
    claimers = [("caguas" if c["office"] == "Caguas" else ("clerk", "both")[n % 2]) for n, c in enumerate(started)]
    for task_id, who in zip(tasks[:10], claimers):
        api.post(f"/api/v1/tasks/{task_id}/claim", who)
    for task_id, who in zip(tasks[:4], claimers):
        api.post(f"/api/v1/tasks/{task_id}/complete", who, {"data": {}})
    api.post(f"/api/v1/instances/{started[5]['id']}/cancel", "boss", {"reason": "duplicado"})
    api.post(f"/api/v1/instances/{started[6]['id']}/suspend", "boss",
             {"reason": "a pedido del solicitante", "legal_basis": "LPAU 3.13"})
    counted = assert_kept_equal_counted(engine, monkeypatch)
    assert counted[("clerk", "tasks", str(TASK_FILTERS[0]))] > 0  # the comparisons compare something

    fold_totals(engine)  # the worker's round: the same answers from one row per key
    assert_kept_equal_counted(engine, monkeypatch)

    # An office move (whatever writes it) moves the case's tasks' totals with it.
    with engine.db.transaction() as session:
        session.execute(text("UPDATE process_instance SET office = 'Sur' WHERE id IN (:a, :b)"),
                        {"a": started[0]["id"], "b": started[9]["id"]})
    assert_kept_equal_counted(engine, monkeypatch)
    # The retention job's order (the case's tasks, then the case) and a cascade from the case alone.
    with engine.db.transaction() as session:
        session.execute(text("DELETE FROM task_draft"))
        session.execute(text("DELETE FROM task WHERE instance_id = :a"), {"a": started[1]["id"]})
        for table in ("workflow_task_state", "timer"):
            session.execute(text(f"DELETE FROM {table} WHERE instance_id IN (:a, :b)"),
                            {"a": started[1]["id"], "b": started[2]["id"]})
        session.execute(text("DELETE FROM process_instance WHERE id IN (:a, :b)"),
                        {"a": started[1]["id"], "b": started[2]["id"]})
    counted = assert_kept_equal_counted(engine, monkeypatch)
    fold_totals(engine)
    assert assert_kept_equal_counted(engine, monkeypatch) == counted
    if list_totals.kept(engine.db.write_engine):  # folded: one row per key, no key that sums to zero
        with engine.db.reading() as session:
            rows = session.execute(text("SELECT count(*), count(*) FILTER (WHERE n = 0 OR pending) FROM task_total"))
            assert tuple(rows.one())[1] == 0


def fold_totals(engine):
    from engine.reporting import list_totals as keeping
    keeping.fold_round(engine)  # what the timer worker calls each round


def test_the_kept_totals_are_what_the_lists_read_on_postgresql(engine, api):
    """The sums answer, not a count: a kept row written by hand shows in the total (PostgreSQL)."""
    import pytest
    if engine.db.is_sqlite:
        pytest.skip("SQLite counts its rows; the kept totals are PostgreSQL's")
    api.deploy("test_scoped", scoped_flow())
    for _ in range(3):
        start(api, "Caguas")
    boss = Actor("boss", frozenset({"supervisor"}))
    assert engine.read(cases.list_tasks, boss, engine.now, scope="all", page=2, per_page=1)[1] == 3
    with engine.db.transaction() as session:
        session.execute(text("INSERT INTO task_total (state, lane, assignee, office, process_key, n) "
                             "VALUES ('open', 'test_clerk', NULL, 'Caguas', 'test_scoped', 1000)"))
    assert engine.read(cases.list_tasks, boss, engine.now, scope="all", page=2, per_page=1)[1] == 1003
    with engine.db.transaction() as session:
        assert fold(session.connection())["task_total"] == 1
