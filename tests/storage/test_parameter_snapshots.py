"""Issue 21: the frozen parameters are one shared snapshot row per distinct set of values (0026),
and a case still reads the values it started with after the store changes."""
from __future__ import annotations

from sqlalchemy import func, select

from engine.commands import accounts as account_commands
from engine.commands.cases import start_case
from engine.commands.deploy import deploy
from engine.commands.parameters import set_parameter
from engine.identity.actor import SYSTEM
from engine.persistence.models import ParameterSnapshot, ProcessInstance
from engine.runtime import records
from tests.conftest import TEST_ROLES
from tests.support.migrations import alembic_to, scratch_engine
from tests.support.diagrams import rules_flow

SHARE = "farmer.minIncomeSharePct"


def _snapshots(engine) -> list:
    with engine.db.reading() as session:
        return list(session.execute(select(ParameterSnapshot.id, ParameterSnapshot.hash)))


def _pointers(engine) -> dict[str, int]:
    table = ProcessInstance.__table__
    with engine.db.reading() as session:
        return {r.case_number: r.parameters_id for r in session.execute(select(table.c.case_number, table.c.parameters_id))}


def _frozen(engine, instance_id: int) -> dict:
    with engine.db.reading() as session:
        return records.frozen_parameters(session.connection(), instance_id)


def test_cases_under_the_same_values_share_one_row_and_keep_theirs_after_a_change(api, engine):
    api.deploy("test_rules", rules_flow())
    first = [api.post("/api/v1/processes/test_rules/instances", "clerk", {"variables": {}}, expect=201)
             for _ in range(3)]
    assert len(_snapshots(engine)) == 1
    assert len(set(_pointers(engine).values())) == 1
    api.put(f"/api/v1/parameters/{SHARE}", "admin", {"value": 80})
    later = api.post("/api/v1/processes/test_rules/instances", "clerk", {"variables": {}}, expect=201)
    assert len(_snapshots(engine)) == 2
    assert _frozen(engine, first[0]["id"])[SHARE] == 50 and _frozen(engine, later["id"])[SHARE] == 80
    # Back to the first values: the cases started now point at the first row again, no third copy.
    api.put(f"/api/v1/parameters/{SHARE}", "admin", {"value": 50})
    again = api.post("/api/v1/processes/test_rules/instances", "clerk", {"variables": {}}, expect=201)
    pointers = _pointers(engine)
    assert len(_snapshots(engine)) == 2
    assert pointers[again["case_number"]] == pointers[first[0]["case_number"]] != pointers[later["case_number"]]
    # Behaviour unchanged: the rule reads the share each case froze, whatever the store says now.
    api.put(f"/api/v1/parameters/{SHARE}", "admin", {"value": 10})
    data = {"data": {"gross_annual_income": "100.00", "activity_income": "79.99"}}
    old = api.post(f"/api/v1/tasks/{api.open_task(first[1], 'intake')['id']}/complete", "clerk", data)
    new = api.post(f"/api/v1/tasks/{api.open_task(later, 'intake')['id']}/complete", "clerk", data)
    assert old["instance"]["variables"]["eligibility"]["outcome"] is True    # started under 50 %
    assert new["instance"]["variables"]["eligibility"]["outcome"] is False   # started under 80 %
    assert new["instance"]["variables"]["eligibility"]["inputs"]["min_share_pct"] == "80.00"


def test_a_start_that_rolls_back_leaves_no_dangling_snapshot_for_the_next(api, engine):
    """The process remembers which row it used last; a rolled-back start took that row with it."""
    api.deploy("test_rules", rules_flow())
    api.put(f"/api/v1/parameters/{SHARE}", "admin", {"value": 70})
    case = api.post("/api/v1/processes/test_rules/instances", "clerk", {"variables": {}}, expect=201)
    assert _frozen(engine, case["id"])[SHARE] == 70
    with engine.db.transaction() as session:   # the row goes, as if the transaction making it rolled back
        session.execute(ProcessInstance.__table__.delete())
        session.execute(ParameterSnapshot.__table__.delete())
    case = api.post("/api/v1/processes/test_rules/instances", "clerk", {"variables": {}}, expect=201)
    assert _frozen(engine, case["id"])[SHARE] == 70 and len(_snapshots(engine)) == 1


def test_the_migration_gives_existing_cases_the_values_they_froze(tmp_path, worker_id):
    engine = scratch_engine(tmp_path, worker_id, "snapshots")
    try:
        engine.execute(lambda ctx: [account_commands.add_role(ctx, role, es, en)
                                    for role, (es, en) in TEST_ROLES.items()], SYSTEM)
        engine.execute(deploy, SYSTEM, "test_rules", rules_flow())
        ids = [engine.execute(start_case, SYSTEM, "test_rules", {})["id"]]
        engine.execute(set_parameter, SYSTEM, SHARE, 80)
        ids += [engine.execute(start_case, SYSTEM, "test_rules", {})["id"] for _ in range(2)]
        alembic_to(engine, "0022", down=True)   # each case with its own copy, as before 0026
        with engine.db.write_engine.connect() as conn:
            copies = conn.exec_driver_sql("SELECT id, parameters FROM process_instance").fetchall()
        assert len(copies) == 3
        alembic_to(engine, "head")
        assert len(_snapshots(engine)) == 2
        assert [_frozen(engine, i)[SHARE] for i in ids] == [50, 80, 80]
        with engine.db.reading() as session:
            assert session.scalar(select(func.count()).where(ProcessInstance.parameters_id.is_(None))) == 0
    finally:
        engine.db.dispose()
