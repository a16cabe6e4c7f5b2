"""The case list's search table (case_search, migration 0033) is a copy of each case row's searched
and visibility columns, kept by triggers: it follows a case's start, a save that changes its
applicant, an office move, its end and cancellation, and the retention job's removal, on SQLite
and PostgreSQL; a save that changes none of them leaves it alone; and the search reads it."""
from __future__ import annotations

import pytest
from sqlalchemy import func, select, text

from engine.commands import retention as job
from engine.commands.cases import start_case
from engine.commands.deploy import deploy
from engine.config import retention
from engine.persistence.models import CASE_SEARCH, ProcessInstance
from engine.identity.actor import Actor
from tests.procedures.farmer_registry.conftest import ADMISSION, MEMBERSHIP, application, farmer_files
from tests.search.test_backfill import CLERK
from tests.support import bpmn as b
from tests.support.migrations import alembic_to, scratch_engine
from tests.support.diagrams import MONEY, rules_flow

INSTANCE = ProcessInstance.__table__
COPIED = ("started_at", "case_number", "process_key", "definition_id", "office", "started_by", "search_text")
OWNER = Actor("owner", frozenset({"process_owner"}))
DENIED = {"gross_annual_income": "100.00", "activity_income": "10.00"}  # the rules flow ends there


def _flow() -> dict[str, str]:
    """The rules flow, its intake form also taking a corrected applicant."""
    return {**rules_flow(), "intake.schema.json": b.form({"gross_annual_income": MONEY, "activity_income": MONEY},
                                                         {"applicant": {"type": "object"}})}


def _rows(engine, table, key) -> dict:
    with engine.db.reading() as session:
        return {r[0]: tuple(r[1:]) for r in session.execute(select(table.c[key], *(table.c[c] for c in COPIED)))}


def assert_in_step(engine) -> dict:
    cases = _rows(engine, INSTANCE, "id")
    assert _rows(engine, CASE_SEARCH, "instance_id") == cases
    return cases


def _start(api, name: str, as_user="clerk") -> dict:
    return api.post("/api/v1/processes/test_rules/instances", as_user,
                    {"variables": {"applicant": {"name": name, "municipality": "Cidra"}}}, expect=201)


def _search(api, q: str, as_user="boss") -> list[str]:
    return sorted(c["case_number"] for c in api.get(f"/api/v1/instances?q={q}", as_user))


@pytest.fixture
def three_years(monkeypatch):
    monkeypatch.setattr(retention, "periods", lambda: {"test_rules": 3})


def test_the_search_table_follows_each_case_through_its_life(api, engine, tmp_path, three_years):
    api.deploy("test_rules", _flow())
    ana, bea, cruz = (_start(api, name) for name in ("Ana Núñez", "Bea Torres", "Cruz Ortiz"))
    cases = assert_in_step(engine)
    assert cases[ana["id"]][-1] == "ana nunez | cidra" and _search(api, "nunez") == [ana["case_number"]]

    # A save that names another applicant: the copy's search text follows, the search finds the new name.
    task = api.open_task(ana, "intake")
    api.post(f"/api/v1/tasks/{task['id']}/complete", "clerk",
             {"data": {**DENIED, "applicant": {"name": "Ana Núñez Vega", "municipality": "Cidra"}}})
    assert assert_in_step(engine)[ana["id"]][-1].startswith("ana nunez vega")
    assert _search(api, "vega") == [ana["case_number"]]

    api.post(f"/api/v1/instances/{bea['id']}/cancel", "boss", {"reason": "desistió"})
    with engine.db.transaction() as session:  # an office move, as the offices' commands write it
        session.execute(text("UPDATE process_instance SET office = 'Humacao' WHERE id = :id"), {"id": cruz["id"]})
    assert assert_in_step(engine)[cruz["id"]][COPIED.index("office")] == "Humacao"
    assert _search(api, "cruz", "boss") == [cruz["case_number"]]

    api.move_clock("2029-01-01T12:00:00-04:00")  # past the three years: the ended cases are removed
    removed = job.run(engine, folder=tmp_path).archived
    assert sorted(removed) == sorted([ana["case_number"], bea["case_number"]])
    assert set(assert_in_step(engine)) == {cruz["id"]}
    assert _search(api, "nunez") == []


def test_a_save_that_changes_no_copied_column_leaves_the_copy_alone(api, engine):
    api.deploy("test_rules", _flow())
    case = _start(api, "Ana Núñez")
    with engine.db.transaction() as session:
        session.execute(text("DELETE FROM case_search"))  # a copy that changes would show again
        session.execute(text("UPDATE process_instance SET variables = variables, lock_version = lock_version + 1,"
                             " status = 'error' WHERE id = :id"), {"id": case["id"]})
    with engine.db.reading() as session:
        assert session.scalar(select(func.count()).select_from(CASE_SEARCH)) == 0
    with engine.db.transaction() as session:
        session.execute(text("UPDATE process_instance SET search_text = 'otra' WHERE id = :id"), {"id": case["id"]})
    with engine.db.reading() as session:  # a row the copy lost is not re-made by an update
        assert session.scalar(select(func.count()).select_from(CASE_SEARCH)) == 0


def test_the_migration_copies_the_cases_that_existed_before_it(tmp_path, worker_id):
    engine = scratch_engine(tmp_path, worker_id, "search_table")
    try:
        for key in (MEMBERSHIP, ADMISSION):
            engine.execute(deploy, OWNER, key, farmer_files())
        ids = [engine.execute(start_case, CLERK, ADMISSION, application(name=name))["id"]
               for name in ("María Núñez", "Ana Torres")]
        alembic_to(engine, "0032", down=True)  # as a database was before 0033, with cases in it
        alembic_to(engine, "head")
        cases = assert_in_step(engine)
        assert sorted(cases) == sorted(ids) and cases[ids[0]][-1] == "maria nunez | cidra"
    finally:
        engine.db.dispose()
