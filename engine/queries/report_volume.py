"""The report's counts beside the cycle times: legal deadlines met, time spent suspended, cases
opened and closed per month and office (engine/queries/reports.py assembles them)."""
from __future__ import annotations

from sqlalchemy import and_, case, func, or_, select

from engine.persistence.models import CaseSuspension
from engine.persistence.tables import INSTANCE, TIMER
from engine.reporting.facts import boundary_timers
from engine.reporting.stats import hours, share, window

SUSPENSION = CaseSuspension.__table__
# Puerto Rico keeps -04:00 all year: a fixed shift gives the local month exactly.
_ZONE, _SHIFT = "America/Puerto_Rico", "-4 hours"


def _case_filters(process, office) -> list:
    return [c for c in ((INSTANCE.c.process_key == process) if process else None,
                        (INSTANCE.c.office == office) if office else None) if c is not None]


def deadlines_met(conn, process, since, until, office) -> list[dict]:
    """Per legal deadline (a boundary timer of the diagram) due in the window and settled: met when
    the work it guards was done first (the timer was cancelled), missed when it ran out (fired).
    A waiting timer (an intermediate event) is no deadline: it is meant to fire, and is left out.
    Cancelled cases are left out too: their timers were cancelled with them."""
    settled = TIMER.c.fired_at.is_not(None) | TIMER.c.cancelled.is_(True)
    groups = [INSTANCE.c.process_key, INSTANCE.c.definition_id, TIMER.c.element_id]
    missed = func.sum(case((TIMER.c.fired_at.is_not(None), 1), else_=0))
    rows = conn.execute(
        select(*groups, func.max(TIMER.c.name), func.count(), missed)
        .select_from(TIMER.join(INSTANCE, INSTANCE.c.id == TIMER.c.instance_id))
        .where(settled, INSTANCE.c.status != "cancelled", *window(TIMER.c.due_at, since, until),
               *_case_filters(process, office))
        .group_by(*groups)).all()
    boundary = boundary_timers(conn, {r.definition_id for r in rows})
    merged: dict[tuple, dict] = {}
    for key, definition_id, element, name, count, late in rows:
        if element not in boundary.get(definition_id, ()):
            continue
        row = merged.setdefault((key, element), {"process": key, "element_id": element, "name": name,
                                                 "count": 0, "met": 0, "missed": 0})
        row["count"] += count
        row["missed"] += int(late or 0)
        row["met"] = row["count"] - row["missed"]
    out = sorted(merged.values(), key=lambda r: (r["process"], r["element_id"]))
    for row in out:
        row["on_time_pct"] = share(row["met"], row["count"])
    return out


def _suspended_seconds(conn):
    if conn.dialect.name == "postgresql":
        return func.extract("epoch", SUSPENSION.c.resumed_at - SUSPENSION.c.since)
    return (func.julianday(SUSPENSION.c.resumed_at) - func.julianday(SUSPENSION.c.since)) * 86400.0


def suspended_time(conn, process, since, until, office) -> list[dict]:
    """Per procedure, the suspensions resumed in the window: how many, of how many cases, the
    hours the clock stood still and the calendar days the deadlines moved; and those still running."""
    seconds = _suspended_seconds(conn)
    resumed = SUSPENSION.c.resumed_at.is_not(None)
    rows = conn.execute(
        select(INSTANCE.c.process_key, func.count(), func.count(func.distinct(SUSPENSION.c.instance_id)),
               func.sum(case((resumed, seconds), else_=0)), func.sum(func.coalesce(SUSPENSION.c.days, 0)),
               func.sum(case((resumed, 0), else_=1)))
        .select_from(SUSPENSION.join(INSTANCE, INSTANCE.c.id == SUSPENSION.c.instance_id))
        .where(or_(resumed.is_(False), and_(resumed, *window(SUSPENSION.c.resumed_at, since, until))),
               *_case_filters(process, office))
        .group_by(INSTANCE.c.process_key).order_by(INSTANCE.c.process_key)).all()
    return [{"process": key, "count": count - int(running or 0), "cases": cases, "hours": hours(total or 0),
             "days_moved": int(days or 0), "running": int(running or 0)}
            for key, count, cases, total, days, running in rows]


def _month(conn, column):
    if conn.dialect.name == "postgresql":
        return func.to_char(func.timezone(_ZONE, func.timezone("UTC", column)), "YYYY-MM")
    return func.strftime("%Y-%m", column, _SHIFT)


def cases_per_month(conn, process, since, until, office) -> list[dict]:
    """[{month, office, opened, closed}], month by month in Puerto Rico's calendar: opened by
    started_at, closed (completed or cancelled) by ended_at, each in the window."""
    out: dict[tuple, dict] = {}
    for column, what in ((INSTANCE.c.started_at, "opened"), (INSTANCE.c.ended_at, "closed")):
        month = _month(conn, column).label("month")
        for m, where, n in conn.execute(
                select(month, INSTANCE.c.office, func.count())
                .where(column.is_not(None), *window(column, since, until), *_case_filters(process, office))
                .group_by(month, INSTANCE.c.office)):
            row = out.setdefault((m, where or ""), {"month": m, "office": where, "opened": 0, "closed": 0})
            row[what] = n
    return [out[k] for k in sorted(out)]
