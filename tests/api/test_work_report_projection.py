"""The report's projection (report_day, engine/reporting/rollup.py) gives the figures the raw
rows give: counts, on-time shares, deadlines and months exactly, medians and p90 within 1 %;
across day and month edges, per office, procedure and window, with the days since the last
round read raw, and after a case's past facts change (cancelled, suspended and resumed)."""
from __future__ import annotations

import math
from decimal import Decimal

from sqlalchemy import func, select

from engine.identity.actor import SYSTEM
from engine.persistence.models import ReportDay
from engine.queries import reports
from engine.reporting import rollup as report_rollup
from engine.worker import roll_up_reports
from tests.api.test_work_report_stages import PROCESS, case_through, later, now, stage_flow

URL = "/api/v1/reports/cycle-times"


def raw(engine, process=None, start=None, end=None, office=None) -> dict:
    since, until = reports._day("from", start, False), reports._day("to", end, True)
    return engine.read_rows(reports.raw, process, since, until, office)


def plain(value):
    """The API's numbers as the query's floats (the test client reads JSON numbers as Decimal)."""
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain(v) for v in value]
    return float(value) if isinstance(value, Decimal) else value


def close(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=0.011, abs_tol=0.011)


def assert_same(api, engine, **filters) -> dict:
    query = "&".join(f"{'from' if k == 'start' else 'to' if k == 'end' else k}={v}" for k, v in filters.items())
    projected = plain(api.get(f"{URL}?{query}", "boss"))
    exact = raw(engine, **filters)
    assert projected["deadlines"] == exact["deadlines"] and projected["months"] == exact["months"]
    for part in ("tasks", "stages"):
        assert len(projected[part]) == len(exact[part])
        for got, want in zip(projected[part], exact[part]):
            assert {k: v for k, v in got.items() if "hours" not in k} == {k: v for k, v in want.items() if "hours" not in k}
            for field in ("median_hours", "p90_hours"):
                assert close(got[field], want[field]), (part, field, got, want)
    return projected


def rolled_rows(engine, grain: str) -> int:
    return engine.read_rows(lambda conn: conn.execute(
        select(func.count()).select_from(ReportDay.__table__).where(ReportDay.__table__.c.grain == grain)).scalar())


def months_of_cases(api) -> None:
    """Cases over April and May 2024 in two offices, a deadline missed in each month."""
    api.deploy(PROCESS, stage_flow())
    for office, intake, review in (("Norte", 10, 20), ("Norte", 30, 41), ("Sur", 24 * 10, 2), ("Sur", 7, 3),
                                   ("Norte", 23, 25), ("Sur", 24 * 7, 50), ("Norte", 1, 0.5), ("Sur", 60, 9)):
        case_through(api, office, intake, review)
        later(api, 24 * 4)


def test_the_projection_gives_the_raw_figures_per_filter_and_window(api, engine):
    months_of_cases(api)
    assert roll_up_reports(engine)["through"] == now(api).date()
    assert rolled_rows(engine, "day") and rolled_rows(engine, "month")  # April is whole: a month row
    for filters in ({}, {"office": "Norte"}, {"office": "Sur"}, {"process": PROCESS}, {"process": "other"},
                    {"start": "2024-04-01", "end": "2024-04-30"}, {"start": "2024-04-09", "end": "2024-05-03"},
                    {"start": "2024-04-15"}, {"end": "2024-04-20", "office": "Sur"}):
        assert_same(api, engine, **filters)
    assert assert_same(api, engine)["tasks"][0]["count"] == 8


def test_days_after_the_round_are_read_raw_and_the_next_round_takes_them(api, engine):
    months_of_cases(api)
    roll_up_reports(engine)
    case_through(api, "Norte", 2, 3)  # today, after the round: not in the projection yet
    report = assert_same(api, engine)
    assert {t["element_id"]: t["count"] for t in report["tasks"]} == {"intake": 9, "review": 9}
    later(api, 24)
    roll_up_reports(engine)
    assert assert_same(api, engine, start=now(api).date().replace(day=1).isoformat())["tasks"]


def test_a_case_cancelled_after_the_round_leaves_the_deadlines_at_the_next(api, engine):
    months_of_cases(api)
    case = api.post(f"/api/v1/processes/{PROCESS}/instances", "clerk", {"variables": {"where": "Norte"}}, expect=201)
    later(api, 24 * 7)  # its 5-day deadline ran out: a missed deadline on a past day
    roll_up_reports(engine)
    assert assert_same(api, engine)["deadlines"][0]["missed"] == 3
    api.post(f"/api/v1/instances/{case['id']}/cancel", "boss", {"reason": "desistimiento"})
    roll_up_reports(engine)  # the cancelled case's deadline leaves the report, as in the raw rows
    assert assert_same(api, engine)["deadlines"][0]["missed"] == 2


def test_a_suspension_and_resume_across_the_round(api, engine):
    api.deploy(PROCESS, stage_flow())
    case = api.post(f"/api/v1/processes/{PROCESS}/instances", "clerk", {"variables": {"where": "Sur"}}, expect=201)
    api.post(f"/api/v1/instances/{case['id']}/suspend", "boss", {"reason": "Orden del tribunal", "legal_basis": "Regla 1"})
    later(api, 24 * 3)
    engine.execute(report_rollup.roll_up, SYSTEM)
    api.post(f"/api/v1/instances/{case['id']}/resume", "boss", {})
    later(api, 24)
    intake = api.open_task(api.get(f"/api/v1/instances/{case['id']}", "boss"), "intake")
    api.post(f"/api/v1/tasks/{intake['id']}/complete", "clerk", {"data": {}})
    case_through(api, "Norte", 5, 6)
    later(api, 24 * 8)
    roll_up_reports(engine)
    report = assert_same(api, engine)
    assert report["deadlines"][0]["count"] == 2 and report["suspensions"][0]["days_moved"] == 3
    assert assert_same(api, engine, office="Sur")["stages"][0]["count"] == 1


def test_migration_0028_backfills_the_projection_of_the_cases_already_there(api, engine):
    from alembic import command
    from alembic.config import Config

    from engine.persistence.database import MIGRATIONS
    months_of_cases(api)
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    with engine.db.write_engine.connect() as conn:
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, "0027")  # as the database was before the projection
        command.upgrade(cfg, "head")
        conn.commit()
    assert rolled_rows(engine, "month")  # rolled up to the engine clock's day, April whole
    assert assert_same(api, engine, office="Sur")["tasks"][0]["count"] == 4
    assert assert_same(api, engine, start="2024-04-20")


def test_a_whole_year_is_read_from_its_year_rows(api, engine):
    months_of_cases(api)
    api.move_clock("2024-12-30T09:00:00-04:00")
    case_through(api, "Norte", 24 * 3, 5)  # across the new year
    case_through(api, "Sur", 4, 24 * 2)
    later(api, 24 * 3)
    roll_up_reports(engine)
    assert rolled_rows(engine, "year")
    for filters in ({}, {"office": "Sur"}, {"start": "2024-04-15"}, {"end": "2025-01-01"},
                    {"start": "2024-01-01", "end": "2024-12-31", "process": PROCESS}):
        assert_same(api, engine, **filters)
    assert [m["month"] for m in assert_same(api, engine, office="Norte")["months"]][-2:] == ["2024-12", "2025-01"]
