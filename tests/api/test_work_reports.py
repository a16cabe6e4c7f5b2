"""The cycle-time report (API.md "Work management"): per task element, count, median and p90 hours
and the share done by the due date, over tasks whose times the test sets by moving the clock."""
from datetime import datetime, timedelta

from tests.support.diagrams import reminder_flow


def review_done_after(api, hours: float) -> dict:
    """A case whose review is opened now and completed `hours` later (the clock moved between)."""
    case = api.post("/api/v1/processes/test_reminder/instances", "clerk", {"variables": {}}, expect=201)
    task = api.open_task(case, "review")
    now = datetime.fromisoformat(api.get("/api/v1/admin/clock", "boss")["now"])
    api.move_clock((now + timedelta(hours=hours)).isoformat())
    api.post(f"/api/v1/tasks/{task['id']}/complete", "reviewer", {"data": {}})
    return task


def test_cycle_times_per_task_with_median_p90_and_on_time(api):
    api.deploy("test_reminder", reminder_flow())
    for hours in (10, 20, 30, 40):
        review_done_after(api, hours)
    late = review_done_after(api, 24 * 30)  # past its 20-day deadline
    report = api.get("/api/v1/reports/cycle-times?process=test_reminder", "boss")
    (row,) = report["tasks"]
    assert row["element_id"] == "review" and row["count"] == 5
    assert row["median_hours"] == 30.0
    assert row["p90_hours"] == round(40 + (720 - 40) * 0.6, 2)  # percentile_cont between 40 and 720
    assert row["with_due_date"] == 5 and row["on_time_pct"] == 80.0
    assert late["due_at"] is not None


def test_cycle_times_by_completion_dates_and_who_may_read_them(api):
    api.deploy("test_reminder", reminder_flow())
    review_done_after(api, 5)  # completed on 2024-04-01 (17:00 in Puerto Rico)
    assert api.get("/api/v1/reports/cycle-times?from=2024-04-02", "boss")["tasks"] == []
    assert api.get("/api/v1/reports/cycle-times?from=2024-04-01&to=2024-04-01", "boss")["tasks"][0]["count"] == 1
    assert api.get("/api/v1/reports/cycle-times?process=other", "boss")["tasks"] == []
    api.get("/api/v1/reports/cycle-times", "clerk", expect=403)
    api.get("/api/v1/reports/cycle-times?from=2024-13-01", "boss", expect=422)
