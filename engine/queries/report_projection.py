"""The report read from its projection (report_day, engine/reporting/rollup.py) for the days
rolled up, plus the raw facts (engine/reporting/facts.py) of the days since, merged per
procedure and item. Counts and on-time shares are exact; a median or p90 comes from the merged
log buckets, within 1 % (engine/reporting/sketch.py). None when the projection holds nothing
for the filter: the caller then computes every figure from the raw rows, exactly."""
from __future__ import annotations

from datetime import date, datetime

from sqlalchemy import and_, case, null, or_, select

from engine.reporting import facts as report_facts, sketch as report_sketch
from engine.reporting.rollup import DAYS, STATE, month_of, next_month, start_of
from engine.reporting.stats import hours, share

QUANTILES = (0.5, 0.9)
DURATIONS = ("task", "stage")
BY_MONTH = ("opened", "closed")  # shown month by month: never read from year rows


def read(conn, process: str | None, since: datetime | None, until: datetime | None,
         office: str | None) -> dict | None:
    through = conn.execute(select(STATE.c.through).where(STATE.c.id == 1)).scalar()
    first = report_facts.local_day(since) if since else None
    stop = report_facts.local_day(until) if until else None
    if through is None or (first is not None and first >= through):
        return None
    end = min(stop, through) if stop else through
    over = DAYS.c.kind.in_(report_facts.OVER_OFFICES)
    filters = [or_(and_(over, DAYS.c.office == (office or report_facts.ALL)),
                   and_(~over, DAYS.c.office == office) if office else ~over)]
    if process:
        filters.append(DAYS.c.process_key == process)
    columns = (DAYS.c.kind, DAYS.c.day, DAYS.c.process_key, DAYS.c.item, DAYS.c.office, DAYS.c.name, DAYS.c.n,
               DAYS.c.with_due, DAYS.c.on_time,
               # Only tasks and stages have durations: the other rows' empty '{}' is not worth decoding.
               case((DAYS.c.kind.in_(DURATIONS), DAYS.c.buckets), else_=null()))
    # One range of the index (grain, day, …) a statement: an OR of both would read the whole table.
    by_month = DAYS.c.kind.in_(BY_MONTH)
    rows = [row for years, kinds in ((True, ~by_month), (False, by_month))
            for grain, bounds in _spans(first, end, years)
            for row in conn.execute(select(*columns).where(DAYS.c.grain == grain, kinds, *bounds, *filters))]
    if not rows:
        return None
    groups: dict[tuple, dict] = {}
    for kind, day, key, item, where, name, n, with_due, on_time, buckets in rows:
        report_facts.merge(groups, _key(kind, day, key, item, where), name, n, with_due, on_time, buckets or {})
    if not stop or stop > through:
        tail = report_facts.read(conn, start_of(max(first, through) if first else through), until)
        for (day, kind, key, item, where), row in tail.items():
            if (not process or key == process) and report_facts.wanted(kind, where, office):
                report_facts.merge(groups, _key(kind, day, key, item, where), row["name"], row["n"], row["with_due"],
                       row["on_time"], row["buckets"])
    return _shaped(groups)


def _spans(first: date | None, end: date, years: bool) -> list[tuple[str, list]]:
    """[first, end) as (grain, bounds on day): whole years from their year rows (when `years`),
    whole months from their month rows, the days at either edge from their day rows."""
    if years:
        whole_from = first if first is None or (first.month, first.day) == (1, 1) else date(first.year + 1, 1, 1)
        whole_to = date(end.year, 1, 1)
        if whole_from is None or whole_from < whole_to:
            spans = [("year", [DAYS.c.day < whole_to, *((DAYS.c.day >= whole_from,) if whole_from else ())])]
            before = _spans(first, whole_from, False) if first is not None and first < whole_from else []
            after = _spans(whole_to, end, False) if whole_to < end else []
            return spans + before + after
    whole_from = first if first is None or first.day == 1 else next_month(first)
    whole_to = month_of(end)
    if whole_from is not None and whole_from >= whole_to:
        return [("day", [DAYS.c.day >= first, DAYS.c.day < end])]
    spans = [("month", [DAYS.c.day < whole_to, *((DAYS.c.day >= whole_from,) if whole_from else ())])]
    if first is not None and first < whole_from:
        spans.append(("day", [DAYS.c.day >= first, DAYS.c.day < whole_from]))
    if whole_to < end:
        spans.append(("day", [DAYS.c.day >= whole_to, DAYS.c.day < end]))
    return spans


def _key(kind, day, process, item, office) -> tuple:
    if kind in ("opened", "closed"):
        return (kind, day.strftime("%Y-%m"), office)
    return (kind, process, item)


def _shaped(groups: dict[tuple, dict]) -> dict:
    tasks, stages, deadlines, months = [], [], [], {}
    for (kind, *key), row in groups.items():
        if kind in ("task", "stage"):
            median, p90 = report_sketch.quantiles(row["buckets"], QUANTILES)
            shaped = {"process": key[0], "count": row["n"], "median_hours": hours(median), "p90_hours": hours(p90),
                      "with_due_date": row["with_due"], "on_time_pct": share(row["on_time"], row["with_due"])}
            if kind == "task":
                tasks.append({**shaped, "element_id": key[1], "name": row["name"]})
            else:
                stages.append({**shaped, "stage": key[1]})
        elif kind == "deadline":
            deadlines.append({"process": key[0], "element_id": key[1], "name": row["name"], "count": row["n"],
                              "met": row["on_time"], "missed": row["n"] - row["on_time"],
                              "on_time_pct": share(row["on_time"], row["n"])})
        else:
            month = months.setdefault(tuple(key), {"month": key[0], "office": key[1] or None, "opened": 0, "closed": 0})
            month[kind] = row["n"]
    return {"tasks": sorted(tasks, key=lambda t: (t["process"], t["element_id"])),
            "stages": sorted(stages, key=lambda s: (s["process"], s["stage"])),
            "deadlines": sorted(deadlines, key=lambda d: (d["process"], d["element_id"])),
            "months": [months[k] for k in sorted(months)]}
