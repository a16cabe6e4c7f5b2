"""Keeps the report's projection (report_day, migration 0028): the background worker rolls the
finished Puerto Rico days up from the rows the engine keeps (engine/reporting/facts.py), and
the report reads those days from here and only the days since (today, normally) from the raw rows.

Exact, not estimated: a day is rebuilt whole from its raw facts, never patched. A case whose facts
on a rolled day may have changed since (its office moved, it was cancelled, a deadline of a past
day settled late) has a history event after the rolled audit id, so each round rebuilds the days
of the cases named in the history since the last one. Whole months are summed once more into
month rows, and whole years into year rows, so a report of three years merges some hundred rows,
not every day's.

It writes, unlike its siblings: it is a query module because the report (a query) and the worker
share its reading of the projection, and the layers keep commands and queries apart."""
from __future__ import annotations

import json
from datetime import date, datetime, time, timedelta

from sqlalchemy import delete, func, insert, select, update

from engine.persistence.models import AuditEvent, CaseStagePeriod, ReportDay, ReportRollup
from engine.persistence.tables import INSTANCE, TASK, TIMER
from engine.reporting import facts as report_facts
from engine.rules.calendar import PUERTO_RICO

DAYS, STATE, AUDIT, PERIOD = ReportDay.__table__, ReportRollup.__table__, AuditEvent.__table__, CaseStagePeriod.__table__
CHUNK = 500
COLUMNS = ("grain", "kind", "day", "process_key", "item", "office", "name", "n", "with_due", "on_time", "buckets")


def start_of(day: date) -> datetime:
    return datetime.combine(day, time(), PUERTO_RICO)


def month_of(day: date) -> date:
    return day.replace(day=1)


def next_month(day: date) -> date:
    return (day.replace(day=28) + timedelta(days=4)).replace(day=1)


def roll_up(ctx) -> dict:
    """The worker's round (engine.execute(roll_up, SYSTEM)): every day before today."""
    return refresh(ctx.conn, report_facts.local_day(ctx.now))


def refresh(conn, today: date) -> dict:
    state = conn.execute(select(STATE).where(STATE.c.id == 1).with_for_update()).first()
    if state is None:
        conn.execute(insert(STATE).values(id=1, through=None, audit_id=0))
        state = conn.execute(select(STATE).where(STATE.c.id == 1).with_for_update()).first()
    last_audit = conn.execute(select(func.max(AUDIT.c.id))).scalar() or 0
    through = state.through
    if through is None and not conn.execute(select(INSTANCE.c.id).limit(1)).first():
        return {"days": 0, "through": None}  # nothing yet: the report reads the raw rows
    ranges: list[tuple[date | None, date]] = []
    if through is None or through < today:
        ranges.append((through, today))
    if through is not None:
        ranges += _ranges(sorted(d for d in _changed_days(conn, state.audit_id, last_audit, through) if d < through))
    months: set[date] = set()
    summed: dict[date, dict] = {}
    for first, stop in ranges:
        months |= _rebuild(conn, first, stop, summed)
    last = max(today, through or today)
    _rebuild_months(conn, {m for m in months if next_month(m) <= last}, summed)
    _rebuild_years(conn, {m.year for m in months if date(m.year + 1, 1, 1) <= last})
    conn.execute(update(STATE).where(STATE.c.id == 1).values(
        through=max(today, through) if through else today, audit_id=last_audit,
        rolled_at=datetime.now(PUERTO_RICO)))
    return {"ranges": len(ranges), "months": len(months), "through": max(today, through) if through else today}


def _changed_days(conn, after_audit: int, last_audit: int, through: date) -> set[date]:
    """The days before `through` holding a fact of a case named in the history since `after_audit`."""
    ids = conn.execute(select(AUDIT.c.instance_id).distinct()
                       .where(AUDIT.c.id > after_audit, AUDIT.c.id <= last_audit,
                              AUDIT.c.instance_id.is_not(None))).scalars().all()
    cutoff = start_of(through)
    days: set[date] = set()
    for i in range(0, len(ids), CHUNK):
        chunk = ids[i:i + CHUNK]
        for column, owner in ((TASK.c.completed_at, TASK.c.instance_id), (PERIOD.c.left_at, PERIOD.c.instance_id),
                              (TIMER.c.due_at, TIMER.c.instance_id), (INSTANCE.c.started_at, INSTANCE.c.id),
                              (INSTANCE.c.ended_at, INSTANCE.c.id)):
            for moment in conn.execute(select(column).where(owner.in_(chunk), column < cutoff)).scalars():
                days.add(report_facts.local_day(moment))
    return days


def _ranges(days: list[date]) -> list[tuple[date, date]]:
    """Sorted days as [first, stop) runs of consecutive days."""
    out: list[tuple[date, date]] = []
    for day in days:
        if out and out[-1][1] == day:
            out[-1] = (out[-1][0], day + timedelta(days=1))
        else:
            out.append((day, day + timedelta(days=1)))
    return out


def _rebuild(conn, first: date | None, stop: date, summed: dict[date, dict]) -> set[date]:
    """Replace the day rows of [first, stop) by the raw facts; the months they touch. The months
    the range holds whole are summed on the way into `summed` (no need to read their rows back)."""
    facts = report_facts.read(conn, start_of(first) if first else None, start_of(stop))
    conn.execute(delete(DAYS).where(DAYS.c.grain == "day", DAYS.c.day < stop,
                                    *((DAYS.c.day >= first,) if first else ())))
    _insert(conn, "day", ((day, rest, row) for (day, *rest), row in facts.items()))
    months = {month_of(day) for day, *_ in facts}
    if first:
        months |= {month_of(first), month_of(stop - timedelta(days=1))}
    for (day, *rest), row in facts.items():
        month = month_of(day)
        if (first is None or month >= first) and next_month(month) <= stop:
            report_facts.merge(summed.setdefault(month, {}), tuple(rest), row["name"], row["n"], row["with_due"],
                               row["on_time"], row["buckets"])
    for month in months:  # a month the range holds whole but without a fact: no rows
        if (first is None or month >= first) and next_month(month) <= stop:
            summed.setdefault(month, {})
    return months


def _rebuild_months(conn, months: set[date], summed: dict[date, dict]) -> None:
    """Each whole month's rows: the sum of its day rows."""
    for month in sorted(months):
        conn.execute(delete(DAYS).where(DAYS.c.grain == "month", DAYS.c.day == month))
        rows = summed.get(month)
        if rows is None:
            rows = {}
            for row in conn.execute(select(DAYS.c.kind, DAYS.c.process_key, DAYS.c.item, DAYS.c.office, DAYS.c.name,
                                           DAYS.c.n, DAYS.c.with_due, DAYS.c.on_time, DAYS.c.buckets)
                                    .where(DAYS.c.grain == "day", DAYS.c.day >= month, DAYS.c.day < next_month(month))):
                report_facts.merge(rows, tuple(row[:4]), *row[4:])
        _insert(conn, "month", ((month, key, row) for key, row in rows.items()))


def _rebuild_years(conn, years: set[int]) -> None:
    """Each whole year's rows (all but the cases opened and closed, shown month by month): the sum
    of its month rows, so a report of several years merges a handful of rows per procedure."""
    for year in sorted(years):
        first = date(year, 1, 1)
        conn.execute(delete(DAYS).where(DAYS.c.grain == "year", DAYS.c.day == first))
        rows: dict[tuple, dict] = {}
        for row in conn.execute(select(DAYS.c.kind, DAYS.c.process_key, DAYS.c.item, DAYS.c.office, DAYS.c.name,
                                       DAYS.c.n, DAYS.c.with_due, DAYS.c.on_time, DAYS.c.buckets)
                                .where(DAYS.c.grain == "month", DAYS.c.day >= first, DAYS.c.day < date(year + 1, 1, 1),
                                       DAYS.c.kind.in_(report_facts.OVER_OFFICES))):
            report_facts.merge(rows, tuple(row[:4]), *row[4:])
        _insert(conn, "year", ((first, key, row) for key, row in rows.items()))


def _insert(conn, grain: str, rows) -> None:
    """COPY on PostgreSQL (a backfill writes hundreds of thousands of rows), else executemany."""
    values = [(grain, kind, day, process, item, office, row["name"], row["n"], row["with_due"], row["on_time"],
               row["buckets"]) for day, (kind, process, item, office), row in rows]
    if not values:
        return
    if conn.dialect.name == "postgresql":
        with conn.connection.driver_connection.cursor() as cursor:
            with cursor.copy(f"COPY report_day ({', '.join(COLUMNS)}) FROM STDIN") as copy:
                for value in values:
                    copy.write_row((*value[:-1], json.dumps(value[-1])))
        return
    conn.execute(insert(DAYS), [dict(zip(COLUMNS, value)) for value in values])
