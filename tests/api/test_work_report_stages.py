"""The report beyond the tasks (API.md "Work management", issue 19): time per stage, legal deadlines
met, time suspended and cases opened and closed per month and office, over cases whose times the test
sets by moving the injected clock."""
from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from tests.support import bpmn as b

PROCESS = "test_stages"


def stage_flow() -> dict[str, str]:
    """INTAKE (clerk, a 5-day deadline: a non-interrupting boundary timer) → REVIEW (reviewer) → end."""
    xml = b.diagram(
        PROCESS,
        lanes={"test_clerk": ["start", "enter", "intake", "late", "noted", "end_late"],
               "test_reviewer": ["to_review", "review", "end"]},
        nodes=[b.start(), b.script("enter", "stage = 'INTAKE'\noffice = where\n"
                                            "intake_timer = deadline_timer(last_timely_day(5))"),
               b.user("intake", "Recibir"), b.timer_boundary("late", "intake", "intake_timer", interrupting=False),
               b.script("noted", "late_noted = True"), b.end("end_late"),
               b.script("to_review", "stage = 'REVIEW'"), b.user("review", "Revisar"), b.end("end")],
        flows=[*b.chain("start", "enter", "intake", "to_review", "review", "end"),
               *b.chain("late", "noted", "end_late")])
    return {"stages.bpmn": xml, "intake.schema.json": b.form({}), "review.schema.json": b.form({})}


def now(api) -> datetime:
    return datetime.fromisoformat(api.get("/api/v1/admin/clock", "boss")["now"])


def later(api, hours: float) -> None:
    api.move_clock((now(api) + timedelta(hours=hours)).isoformat())


def case_through(api, office: str, intake_hours: float, review_hours: float) -> dict:
    case = api.post(f"/api/v1/processes/{PROCESS}/instances", "clerk", {"variables": {"where": office}}, expect=201)
    later(api, intake_hours)
    api.post(f"/api/v1/tasks/{api.open_task(case, 'intake')['id']}/complete", "clerk", {"data": {}})
    review = api.open_task(api.get(f"/api/v1/instances/{case['id']}", "boss"), "review")
    later(api, review_hours)
    api.post(f"/api/v1/tasks/{review['id']}/complete", "reviewer", {"data": {}})
    return case


@pytest.fixture
def three_cases(api):
    api.deploy(PROCESS, stage_flow())
    case_through(api, "Norte", 10, 20)
    case_through(api, "Norte", 30, 40)
    case_through(api, "Sur", 24 * 10, 2)  # intake past its 5-day deadline: the timer fired
    return api


def by(rows: list[dict], field: str) -> dict:
    return {row[field]: row for row in rows}


def test_time_per_stage_with_median_p90_and_on_time(three_cases):
    report = three_cases.get(f"/api/v1/reports/cycle-times?process={PROCESS}", "boss")
    stages = by(report["stages"], "stage")
    assert set(stages) == {"INTAKE", "REVIEW"}
    intake, review = stages["INTAKE"], stages["REVIEW"]
    assert intake["count"] == 3 and intake["median_hours"] == 30.0
    assert intake["p90_hours"] == round(30 + (240 - 30) * 0.8, 2)  # percentile_cont between 30 and 240
    assert intake["with_due_date"] == 3 and float(intake["on_time_pct"]) == 66.7
    assert review["count"] == 3 and review["median_hours"] == 20.0 and review["p90_hours"] == 36.0
    assert review["with_due_date"] == 0 and review["on_time_pct"] is None
    tasks = by(report["tasks"], "element_id")
    assert tasks["intake"]["median_hours"] == 30.0 and tasks["review"]["p90_hours"] == 36.0


def test_legal_deadlines_met_and_cases_per_month_and_office(three_cases):
    report = three_cases.get(f"/api/v1/reports/cycle-times?process={PROCESS}", "boss")
    (deadline,) = report["deadlines"]
    assert (deadline["element_id"], deadline["count"], deadline["met"], deadline["missed"]) == ("late", 3, 2, 1)
    assert float(deadline["on_time_pct"]) == 66.7
    assert report["months"] == [{"month": "2024-04", "office": "Norte", "opened": 2, "closed": 2},
                                {"month": "2024-04", "office": "Sur", "opened": 1, "closed": 1}]


def test_one_office_only(three_cases):
    report = three_cases.get(f"/api/v1/reports/cycle-times?process={PROCESS}&office=Norte", "boss")
    assert report["office"] == "Norte"
    intake = by(report["stages"], "stage")["INTAKE"]
    assert intake["count"] == 2 and intake["median_hours"] == 20.0 and intake["on_time_pct"] == 100.0
    assert by(report["tasks"], "element_id")["intake"]["count"] == 2
    assert [(d["count"], d["missed"]) for d in report["deadlines"]] == [(2, 0)]
    assert [m["office"] for m in report["months"]] == ["Norte"]
    empty = three_cases.get("/api/v1/reports/cycle-times?office=Oeste", "boss")
    assert empty["stages"] == empty["tasks"] == empty["deadlines"] == empty["months"] == []


def test_time_spent_suspended(api):
    api.deploy(PROCESS, stage_flow())
    case = api.post(f"/api/v1/processes/{PROCESS}/instances", "clerk", {"variables": {"where": "Norte"}}, expect=201)
    body = {"reason": "Orden del tribunal", "legal_basis": "Regla 1"}
    api.post(f"/api/v1/instances/{case['id']}/suspend", "boss", body)
    later(api, 48)
    api.post(f"/api/v1/instances/{case['id']}/resume", "boss", {})
    api.post(f"/api/v1/instances/{case['id']}/suspend", "boss", body)  # still running
    (row,) = api.get("/api/v1/reports/cycle-times", "boss")["suspensions"]
    assert row == {"process": PROCESS, "count": 1, "cases": 1, "hours": 48.0, "days_moved": 2, "running": 1}
    assert api.get("/api/v1/reports/cycle-times?office=Sur", "boss")["suspensions"] == []
    # The stage the case is still in is no finished period: nothing to report for it yet.
    assert api.get("/api/v1/reports/cycle-times", "boss")["stages"] == []


@pytest.mark.parametrize("user", ["clerk", "reviewer", "owner", "nobody"])
def test_only_supervisors_read_the_report(api, user):
    """Supervisors (and admins, who read every case as the dashboard and the authorization matrix say)."""
    api.get("/api/v1/reports/cycle-times", user, expect=403)
    api.get("/api/v1/reports/cycle-times", "admin")
    api.get("/api/v1/reports/cycle-times?office=" + "x" * 101, "boss", expect=422)


def test_a_cancelled_case_closes_its_stage_and_a_case_from_before_0024_starts_at_its_next_change(api, engine):
    from sqlalchemy import select, update

    from engine.persistence.models import CaseStagePeriod
    from engine.persistence.tables import INSTANCE
    api.deploy(PROCESS, stage_flow())
    cancelled = api.post(f"/api/v1/processes/{PROCESS}/instances", "clerk", {"variables": {"where": "Norte"}}, expect=201)
    later(api, 5)
    api.post(f"/api/v1/instances/{cancelled['id']}/cancel", "boss", {"reason": "desistimiento"})
    legacy = api.post(f"/api/v1/processes/{PROCESS}/instances", "clerk", {"variables": {"where": "Sur"}}, expect=201)
    with engine.db.write_engine.begin() as conn:  # as the case would be had it started before 0024
        meta = conn.execute(select(INSTANCE.c.workflow_meta).where(INSTANCE.c.id == legacy["id"])).scalar()
        meta["tramite"].pop("stage_period")
        conn.execute(update(INSTANCE).where(INSTANCE.c.id == legacy["id"]).values(workflow_meta=meta))
        conn.execute(CaseStagePeriod.__table__.delete().where(CaseStagePeriod.__table__.c.instance_id == legacy["id"]))
    later(api, 3)
    api.post(f"/api/v1/tasks/{api.open_task(legacy, 'intake')['id']}/complete", "clerk", {"data": {}})
    stages = by(api.get("/api/v1/reports/cycle-times", "boss")["stages"], "stage")
    assert (stages["INTAKE"]["count"], stages["INTAKE"]["median_hours"]) == (1, 5.0)  # only the cancelled case's
    assert "REVIEW" not in stages  # the legacy case is in REVIEW now, an exact period still open
    with engine.db.write_engine.begin() as conn:
        rows = conn.execute(select(CaseStagePeriod.__table__.c.stage, CaseStagePeriod.__table__.c.left_at)
                            .where(CaseStagePeriod.__table__.c.instance_id == legacy["id"])).all()
    assert [(r.stage, r.left_at) for r in rows] == [("REVIEW", None)]
