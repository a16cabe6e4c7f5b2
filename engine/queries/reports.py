"""Cycle times (API.md "Work management"): per task element of a procedure, how long its completed
tasks took (median, p90, hours from opening to completion) and how many were done by their due
date. SQL over the task table (ix_task_completed), never the audit history."""
from __future__ import annotations

from collections import defaultdict
from datetime import date, datetime, time, timedelta

from sqlalchemy import Float, case, cast, func, select

from engine.errors import ValidationFailed
from engine.identity.actor import Actor
from engine.kernel import access
from engine.persistence.tables import INSTANCE, TASK, task_state_is
from engine.rules.calendar import PUERTO_RICO


def _seconds(conn):
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


def _percentile(sorted_values: list[float], fraction: float) -> float:
    """Linear interpolation between closest ranks (PostgreSQL's percentile_cont)."""
    position = (len(sorted_values) - 1) * fraction
    low = int(position)
    high = min(low + 1, len(sorted_values) - 1)
    return sorted_values[low] + (sorted_values[high] - sorted_values[low]) * (position - low)


def cycle_times(conn, actor: Actor, process: str | None = None, start: str | None = None,
                end: str | None = None) -> dict:
    access.check_list_all_tasks(actor)
    since, until = _day("from", start, False), _day("to", end, True)
    seconds = _seconds(conn).label("seconds")
    conditions = [task_state_is("completed"), TASK.c.completed_at.is_not(None)]
    if since:
        conditions.append(TASK.c.completed_at >= since)
    if until:
        conditions.append(TASK.c.completed_at < until)
    joined = TASK.join(INSTANCE, INSTANCE.c.id == TASK.c.instance_id)
    if process:
        conditions.append(INSTANCE.c.process_key == process)
    with_due = func.sum(case((TASK.c.due_at.is_not(None), 1), else_=0))
    on_time = func.sum(case((TASK.c.completed_at <= TASK.c.due_at, 1), else_=0))
    totals = conn.execute(
        select(INSTANCE.c.process_key, TASK.c.element_id, func.max(TASK.c.name), func.count(), with_due, on_time)
        .select_from(joined).where(*conditions).group_by(INSTANCE.c.process_key, TASK.c.element_id)).all()
    durations: dict[tuple, list[float]] = defaultdict(list)
    if conn.dialect.name == "postgresql":
        for key, element, p50, p90 in conn.execute(
                select(INSTANCE.c.process_key, TASK.c.element_id,
                       func.percentile_cont(0.5).within_group(cast(seconds, Float)),
                       func.percentile_cont(0.9).within_group(cast(seconds, Float)))
                .select_from(joined).where(*conditions).group_by(INSTANCE.c.process_key, TASK.c.element_id)):
            durations[(key, element)] = [p50, p90]
        quantiles = {k: tuple(v) for k, v in durations.items()}
    else:  # SQLite has no percentile aggregate: the durations come sorted, one column each
        for key, element, value in conn.execute(
                select(INSTANCE.c.process_key, TASK.c.element_id, seconds).select_from(joined).where(*conditions)
                .order_by(INSTANCE.c.process_key, TASK.c.element_id, seconds)):
            durations[(key, element)].append(float(value))
        quantiles = {k: (_percentile(v, 0.5), _percentile(v, 0.9)) for k, v in durations.items()}
    tasks = []
    for key, element, name, count, due_count, done_on_time in totals:
        p50, p90 = quantiles[(key, element)]
        tasks.append({"process": key, "element_id": element, "name": name, "count": count,
                      "median_hours": round(float(p50) / 3600, 2), "p90_hours": round(float(p90) / 3600, 2),
                      "with_due_date": int(due_count or 0),
                      "on_time_pct": round(100.0 * int(done_on_time or 0) / due_count, 1) if due_count else None})
    tasks.sort(key=lambda t: (t["process"], t["element_id"]))
    return {"process": process, "from": start, "to": end, "tasks": tasks}
