"""The supervisors' report (API.md "Work management", `GET /api/v1/reports/cycle-times`): per task
element and per stage of a procedure how long the work took (median, p90 hours) and how much of it
was done by its due date; the legal deadlines met, the time spent suspended, and the cases opened and
closed per month and office (engine/queries/report_volume.py). The days the worker has rolled up
come from the projection report_day (engine/queries/report_projection.py, quantiles within 1 %),
the days since from the raw rows; when the projection holds nothing for the filter, every figure
is a GROUP BY over the raw rows through their indexes (task: ix_task_completed; case_stage_period:
ix_stage_period_report; process_instance: ix_instance_started_office, ix_instance_ended), exact.
Never the audit history."""
from __future__ import annotations

from datetime import date, datetime, time, timedelta

from sqlalchemy import case, func, select

from engine.errors import ValidationFailed
from engine.identity.actor import Actor
from engine.kernel import access
from engine.persistence.models import CaseStagePeriod
from engine.persistence.tables import INSTANCE, TASK, task_state_is
from engine.queries import report_projection, report_volume
from engine.reporting.stats import hours, quantiles, ranked_quantiles, share, window
from engine.rules.calendar import PUERTO_RICO

PERIOD = CaseStagePeriod.__table__


def _task_seconds(conn):
    """completed_at − created_at in seconds, in the database's own arithmetic."""
    if conn.dialect.name == "postgresql":
        return func.extract("epoch", TASK.c.completed_at - TASK.c.created_at)
    return (func.julianday(TASK.c.completed_at) - func.julianday(TASK.c.created_at)) * 86400.0


def _day(field: str, value: str | None, end: bool) -> datetime | None:
    if not value:
        return None
    try:
        day = date.fromisoformat(value) + timedelta(days=1 if end else 0)
    except (ValueError, OverflowError):
        raise ValidationFailed(f"{field} is not a date", {field: ["expected YYYY-MM-DD"]}) from None
    return datetime.combine(day, time(), PUERTO_RICO)


def cycle_times(conn, actor: Actor, process: str | None = None, start: str | None = None,
                end: str | None = None, office: str | None = None) -> dict:
    access.check_list_all_tasks(actor)
    since, until = _day("from", start, False), _day("to", end, True)
    figures = report_projection.read(conn, process, since, until, office) or raw(conn, process, since, until, office)
    return {"process": process, "from": start, "to": end, "office": office, **figures,
            "suspensions": report_volume.suspended_time(conn, process, since, until, office)}


def raw(conn, process, since, until, office) -> dict:
    """Every figure from the raw rows (exact quantiles): when nothing of the window is rolled up."""
    return {"tasks": task_times(conn, process, since, until, office),
            "stages": stage_times(conn, process, since, until, office),
            "deadlines": report_volume.deadlines_met(conn, process, since, until, office),
            "months": report_volume.cases_per_month(conn, process, since, until, office)}


def task_times(conn, process, since, until, office) -> list[dict]:
    """Tasks completed in the window, per procedure and element."""
    conditions = [task_state_is("completed"), TASK.c.completed_at.is_not(None),
                  *window(TASK.c.completed_at, since, until)]
    joined = TASK.join(INSTANCE, INSTANCE.c.id == TASK.c.instance_id)
    if process:
        conditions.append(INSTANCE.c.process_key == process)
    if office:
        conditions.append(INSTANCE.c.office == office)
    groups = [INSTANCE.c.process_key, TASK.c.element_id]
    with_due = func.sum(case((TASK.c.due_at.is_not(None), 1), else_=0))
    on_time = func.sum(case((TASK.c.completed_at <= TASK.c.due_at, 1), else_=0))
    totals = conn.execute(select(*groups, func.max(TASK.c.name), func.count(), with_due, on_time)
                          .select_from(joined).where(*conditions).group_by(*groups)).all()
    spread = quantiles(conn, groups, _task_seconds(conn), joined, conditions)
    rows = [{"process": key, "element_id": element, "name": name, "count": count,
             "median_hours": hours(spread[(key, element)][0]), "p90_hours": hours(spread[(key, element)][1]),
             "with_due_date": int(due_count or 0), "on_time_pct": share(done_on_time, due_count)}
            for key, element, name, count, due_count, done_on_time in totals]
    return sorted(rows, key=lambda t: (t["process"], t["element_id"]))


def stage_times(conn, process, since, until, office) -> list[dict]:
    """Stages left in the window, per procedure and stage: how long cases stayed in them
    (engine/runtime/stage_periods.py), and how many left by the earliest due date they had there."""
    conditions = [PERIOD.c.left_at.is_not(None), PERIOD.c.seconds.is_not(None),
                  *window(PERIOD.c.left_at, since, until)]
    if process:
        conditions.append(PERIOD.c.process_key == process)
    if office:
        conditions.append(PERIOD.c.office == office)
    groups = [PERIOD.c.process_key, PERIOD.c.stage]
    with_due = func.sum(case((PERIOD.c.on_time.is_not(None), 1), else_=0))
    on_time = func.sum(case((PERIOD.c.on_time.is_(True), 1), else_=0))
    totals = conn.execute(select(*groups, func.count(), with_due, on_time)
                          .where(*conditions).group_by(*groups)).all()
    spread = ranked_quantiles(conn, groups, PERIOD.c.seconds, conditions, {(k, s): n for k, s, n, *_ in totals})
    rows = [{"process": key, "stage": stage, "count": count,
             "median_hours": hours(spread[(key, stage)][0]), "p90_hours": hours(spread[(key, stage)][1]),
             "with_due_date": int(due_count or 0), "on_time_pct": share(done_on_time, due_count)}
            for key, stage, count, due_count, done_on_time in totals]
    return sorted(rows, key=lambda s: (s["process"], s["stage"]))
