"""The report's facts day by day, read from the rows the engine keeps (tasks, stage periods,
timers, cases) through their indexes: what the projection (engine/reporting/rollup.py) stores
for finished days and what the report reads directly for the days not rolled up yet.

One fact row per (Puerto Rico day, kind, procedure, item, office): `n`, how many had a due date
(`with_due`), how many were on time (`on_time`; for a legal deadline, met), and a histogram of
the durations (engine/reporting/sketch.py). The conditions are the raw report's
(engine/queries/reports.py, report_volume.py), so both agree."""
from __future__ import annotations

from datetime import datetime

from sqlalchemy import select

from engine.persistence.models import CaseStagePeriod
from engine.persistence.tables import DEFINITION, INSTANCE, TASK, TIMER, task_state_is
from engine.reporting import sketch as report_sketch
from engine.reporting.stats import window
from engine.rules import calendar

PERIOD = CaseStagePeriod.__table__
KINDS = ("task", "stage", "deadline", "opened", "closed")
# The kinds the report sums over every office unless one is asked for: each of their facts is also
# counted under the office ALL, so a report of all offices merges a fifth of the rows. (Cases opened
# and closed are shown per office anyway.)
ALL, OVER_OFFICES = "*", ("task", "stage", "deadline")


# The one calendar's "Puerto Rico day of an instant" (it refuses a naive instant rather than guess its zone).
local_day = calendar.local_date


class Facts(dict):
    """{(day, kind, process, item, office): {"name", "n", "with_due", "on_time", "buckets"}}."""

    def add(self, moment, kind, process, item, office, name=None, seconds=None, due=False, on_time=False):
        day = local_day(moment)
        self._add((day, kind, process, item or "", office or ""), name, seconds, due, on_time)
        if kind in OVER_OFFICES:
            self._add((day, kind, process, item or "", ALL), name, seconds, due, on_time)

    def _add(self, key, name, seconds, due, on_time):
        sketch = {report_sketch.bucket(seconds): 1} if seconds is not None else {}
        merge(self, key, name, 1, 1 if due else 0, 1 if on_time else 0, sketch)


def merge(groups: dict, key: tuple, name, n: int, with_due: int, on_time: int, buckets: dict) -> None:
    """Add one row's figures to `groups[key]`: counts summed, name the greatest (max(name), as the
    raw GROUP BY picks it), histograms merged."""
    found = groups.get(key)
    if found is None:
        groups[key] = {"name": name, "n": n, "with_due": with_due, "on_time": on_time, "buckets": dict(buckets)}
        return
    if name is not None and (found["name"] is None or name > found["name"]):
        found["name"] = name
    found["n"] += n
    found["with_due"] += with_due
    found["on_time"] += on_time
    sketch = found["buckets"]
    for bucket, count in buckets.items():
        sketch[bucket] = sketch.get(bucket, 0) + count


def wanted(kind: str, where: str, office: str | None) -> bool:
    """Whether a fact row of `where` belongs in a report of `office` (None: every office)."""
    if kind in OVER_OFFICES:
        return where == (office or ALL)
    return not office or where == office


def read(conn, since: datetime | None, until: datetime | None, instance_ids=None) -> Facts:
    """Every fact whose moment is in [since, until); only those of `instance_ids` when given."""
    facts = Facts()
    mine = (lambda column: [column.in_(instance_ids)]) if instance_ids is not None else (lambda column: [])
    tasks = conn.execute(
        select(TASK.c.completed_at, TASK.c.created_at, TASK.c.due_at, TASK.c.element_id, TASK.c.name,
               INSTANCE.c.process_key, INSTANCE.c.office)
        .select_from(TASK.join(INSTANCE, INSTANCE.c.id == TASK.c.instance_id))
        .where(task_state_is("completed"), TASK.c.completed_at.is_not(None),
               *window(TASK.c.completed_at, since, until), *mine(TASK.c.instance_id)))
    for done, created, due, element, name, process, office in tasks:
        facts.add(done, "task", process, element, office, name, (done - created).total_seconds(),
                  due is not None, due is not None and done <= due)
    periods = conn.execute(
        select(PERIOD.c.left_at, PERIOD.c.seconds, PERIOD.c.on_time, PERIOD.c.stage, PERIOD.c.process_key,
               PERIOD.c.office)
        .where(PERIOD.c.left_at.is_not(None), PERIOD.c.seconds.is_not(None),
               *window(PERIOD.c.left_at, since, until), *mine(PERIOD.c.instance_id)))
    for left, seconds, on_time, stage, process, office in periods:
        facts.add(left, "stage", process, stage, office, None, seconds, on_time is not None, on_time is True)
    _deadlines(conn, facts, since, until, mine)
    for column, kind in ((INSTANCE.c.started_at, "opened"), (INSTANCE.c.ended_at, "closed")):
        for moment, process, office in conn.execute(
                select(column, INSTANCE.c.process_key, INSTANCE.c.office)
                .where(column.is_not(None), *window(column, since, until), *mine(INSTANCE.c.id))):
            facts.add(moment, kind, process, "", office)
    return facts


def _deadlines(conn, facts: Facts, since, until, mine) -> None:
    """Boundary timers due in the window and settled, of cases not cancelled (report_volume.deadlines_met)."""
    settled = TIMER.c.fired_at.is_not(None) | TIMER.c.cancelled.is_(True)
    rows = conn.execute(
        select(TIMER.c.due_at, TIMER.c.fired_at, TIMER.c.element_id, TIMER.c.name, INSTANCE.c.definition_id,
               INSTANCE.c.process_key, INSTANCE.c.office)
        .select_from(TIMER.join(INSTANCE, INSTANCE.c.id == TIMER.c.instance_id))
        .where(settled, INSTANCE.c.status != "cancelled", *window(TIMER.c.due_at, since, until),
               *mine(TIMER.c.instance_id))).all()
    boundary = boundary_timers(conn, {r.definition_id for r in rows})
    for due, fired, element, name, definition_id, process, office in rows:
        if element in boundary.get(definition_id, ()):
            facts.add(due, "deadline", process, element, office, name, None, True, fired is None)


def boundary_timers(conn, definition_ids: set) -> dict[int, set]:
    """{definition id: its boundary timer element ids}, from the summary saved at deploy time."""
    if not definition_ids:
        return {}
    out = {}
    for definition_id, summary in conn.execute(select(DEFINITION.c.id, DEFINITION.c.summary)
                                               .where(DEFINITION.c.id.in_(definition_ids))):
        out[definition_id] = {e["id"] for e in (summary or {}).get("elements", [])
                              if e.get("type") == "boundaryEvent" and e.get("timer")}
    return out
