"""Issue 21: the retention job archives the certified export of each finished case past its
procedure's period, then removes the case's rows; running and unexpired cases stay, and the
history can be deleted only by that job."""
from __future__ import annotations

import hashlib
import io
import json
import zipfile

import pytest
from sqlalchemy import func, select, text
from sqlalchemy.exc import DBAPIError

from engine.commands import retention as job
from engine.config import retention
from engine.persistence.models import AuditEvent, CaseArchive, ProcessInstance, Task
from tests.support.diagrams import rules_flow

DATA = {"data": {"gross_annual_income": "100.00", "activity_income": "10.00"}}  # denied: ends there


@pytest.fixture
def three_years(monkeypatch):
    """The test process kept three years, as the shipped procedures are (their files are read in
    test_the_shipped_procedures_have_their_periods)."""
    monkeypatch.setattr(retention, "periods", lambda: {"test_rules": 3})


def _start(api) -> dict:
    return api.post("/api/v1/processes/test_rules/instances", "clerk", {"variables": {}}, expect=201)


def _cancel(api, case) -> dict:
    return api.post(f"/api/v1/instances/{case['id']}/cancel", "boss", {"reason": "desistió"})


def _count(engine, model, instance_id) -> int:
    with engine.db.reading() as session:
        column = model.id if model is ProcessInstance else model.instance_id
        return session.scalar(select(func.count()).select_from(model).where(column == instance_id))


def test_the_shipped_procedures_have_their_periods():
    periods = retention.periods()
    assert periods["surplus_disposition"] == 3   # SUR-16: three years after the disposition
    assert {"materials_aid", "bid_adjudication", "farmer_registry_admission",
            "farmer_registry_membership"} <= set(periods)


def test_retention_archives_exactly_the_expired_finished_cases(api, engine, tmp_path, three_years):
    api.deploy("test_rules", rules_flow())
    old_cancelled = _start(api)
    _cancel(api, old_cancelled)
    old_completed = _start(api)
    done = api.post(f"/api/v1/tasks/{api.open_task(old_completed, 'intake')['id']}/complete", "clerk", DATA)
    assert done["instance"]["status"] == "completed"
    running = _start(api)
    api.move_clock("2025-04-01T12:00:00-04:00")
    recent = _start(api)
    _cancel(api, recent)                                    # ended a year later: three years from then

    api.move_clock("2027-03-31T23:00:00-04:00")             # the last day the 2024-04-01 cases are kept
    assert job.run(engine, folder=tmp_path).archived == []
    api.move_clock("2027-04-01T00:30:00-04:00")             # free from 2024-04-01 + 3 years
    result = job.run(engine, folder=tmp_path)
    assert sorted(result.archived) == sorted([old_cancelled["case_number"], old_completed["case_number"]])

    for gone in (old_cancelled, old_completed):
        assert [_count(engine, m, gone["id"]) for m in (ProcessInstance, Task, AuditEvent)] == [0, 0, 0]
        api.get(f"/api/v1/instances/{gone['id']}", "boss", expect=404)
    for kept in (running, recent):
        assert _count(engine, ProcessInstance, kept["id"]) == 1 and _count(engine, AuditEvent, kept["id"]) > 0
        api.get(f"/api/v1/instances/{kept['id']}", "boss")

    with engine.db.reading() as session:
        record = session.scalars(select(CaseArchive).where(
            CaseArchive.case_number == old_completed["case_number"])).one()
    content = job.read_archive(record.location)
    assert hashlib.sha256(content).hexdigest() == record.sha256 and len(content) == record.size
    history = json.loads(zipfile.ZipFile(io.BytesIO(content)).read("history.json"))
    assert {"case_started", "task_completed"} <= {e["type"] for e in history}   # the supervisor's history
    assert record.status == "completed" and record.archived_at.isoformat().startswith("2027-04-01")
    assert job.run(engine, folder=tmp_path).archived == []  # nothing left to do; nothing done twice


def test_an_ordinary_session_cannot_delete_history(api, engine, tmp_path, three_years):
    if engine.db.is_sqlite:
        pytest.skip("SQLite has no trigger on the history (0002, 0027): there only the job deletes it")
    api.deploy("test_rules", rules_flow())
    finished, kept = _start(api), _start(api)
    _cancel(api, finished)
    api.move_clock("2027-04-02T12:00:00-04:00")
    assert job.run(engine, folder=tmp_path).archived == [finished["case_number"]]
    attempts = [
        "DELETE FROM audit_event",
        f"DELETE FROM audit_event WHERE instance_id = {kept['id']}",
        # the job's mark set by hand does not open a case that is not archived and gone
        f"SELECT set_config('tramite.purging_audit_of', '{kept['id']}', true); "
        f"DELETE FROM audit_event WHERE instance_id = {kept['id']}",
        f"SELECT tramite_purge_audit({kept['id']})",
        f"SELECT tramite_purge_case({kept['id']})",  # 0030: documents and notes go the same way
    ]
    for statement in attempts:
        with pytest.raises(DBAPIError, match="append-only|has no archive record"):
            with engine.db.transaction() as session:
                for part in statement.split("; "):
                    session.execute(text(part))
    assert _count(engine, AuditEvent, kept["id"]) > 0
