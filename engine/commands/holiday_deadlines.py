"""What a newly declared holiday does to deadlines already running (issue 19).

Decision (also in the report): a holiday added after a deadline was computed moves that deadline
when, and only when, TC-2 would have moved it had the holiday been known:
- the deadline's last day is the new holiday (a day earlier changes nothing: the days count as
  calendar days, TC-1, and only the last day rolls);
- the case's rule rolls forward (`calendar.rollForwardNonBusinessDay`, frozen in the case);
- the deadline is a count of days: the case's history has the decision that fixed that last day from
  a number of days, or the diagram's own script counted it (`d = last_timely_day(n)` feeding the
  timer through `t = deadline_timer(d)`: the surplus claim, category and request windows and the
  pickup period, TC-1/TC-2 by SUR-22 and RULES.md). Year and month periods (TC-3: validity,
  renewal, retention: `add_years`, `valid_until`) never roll, and any other timer is left as it is
  rather than guessed at;
- the case is running and not suspended: a suspended case's deadlines move when it resumes, past
  the holidays in force then.
The timer moves to the next business day with the variables the diagram feeds it from (as a
resumption moves them), and the case's history records each deadline before and after
(`deadline_holiday`), which the deadline's explanation reads. Deadlines already due (fired timers)
stay as they fell.
"""
from __future__ import annotations

import re
from datetime import date

from sqlalchemy import and_, select

from engine.config import parameters
from engine.definitions.parsing import describe
from engine.definitions.repository import info
from engine.persistence.models import AuditEvent
from engine.persistence.tables import INSTANCE, TIMER
from engine.rules import calendar
from engine.runtime import records, suspension
from engine.runtime.case import Case

AUDIT = AuditEvent.__table__
_COUNTED = re.compile(r"^\s*(\w+)\s*=\s*last_timely_day\(", re.MULTILINE)


def script_counted_timers(scripts: list[dict], links: dict[str, str]) -> frozenset[str]:
    """The timer variables whose last day a script counted in days (`last_timely_day`)."""
    counted = {name for script in scripts for name in _COUNTED.findall(script.get("source") or "")}
    return frozenset(timer for timer, day in links.items() if day in counted)


def _timer_variable(task) -> str | None:
    expression = getattr(getattr(task.task_spec, "event_definition", None), "expression", None)
    return expression.strip() if isinstance(expression, str) else None


def _counted_days(ctx, instance_id: int, last: date) -> bool:
    """Whether a decision of the case fixed `last` as a count of days (TC-1/TC-2)."""
    rows = ctx.conn.execute(select(AUDIT.c.data).where(AUDIT.c.instance_id == instance_id,
                                                       AUDIT.c.type == "decision")).scalars()
    for data in rows:
        data = data or {}
        inputs = data.get("inputs") or {}
        if str(data.get("outcome"))[:10] == last.isoformat() and isinstance(inputs.get("days"), int) \
                and not isinstance(inputs.get("days"), bool):
            return True
    return False


def _ending_on(day: date):
    """The running, not suspended cases with a timer at the deadline instant of `day`."""
    return select(TIMER.c.instance_id).distinct().join(
        INSTANCE, and_(INSTANCE.c.id == TIMER.c.instance_id, INSTANCE.c.status == "active",
                       INSTANCE.c.suspended_since.is_(None))).where(
        TIMER.c.fired_at.is_(None), TIMER.c.cancelled.is_(False), TIMER.c.due_at == calendar.deadline_instant(day))


def running_on(ctx, day: date) -> int:
    """How many running cases have a deadline ending on `day` (what the confirmation tells the admin)."""
    return len(ctx.conn.execute(_ending_on(day)).scalars().all())


def roll_running_deadlines(ctx, day: date, name_es: str | None, name_en: str | None = None) -> list[dict]:
    """Move the running deadlines that end on the new holiday `day`; [{case_number, element_id, before, after}].

    A holiday of the managed calendar comes with its names; a day typed into the `calendar.holidays`
    parameter has none (`name_es` None), and its history says where it came from."""
    cases = ctx.conn.execute(_ending_on(day).order_by(TIMER.c.instance_id)).scalars().all()
    moved_all = []
    for instance_id in cases:
        frozen = records.frozen_parameters(ctx.conn, instance_id)
        if not parameters.typed_value("calendar.rollForwardNonBusinessDay", frozen, ctx.conn):
            continue
        holidays = calendar.parse_holidays(parameters.typed_value("calendar.holidays", frozen, ctx.conn))
        decided = _counted_days(ctx, instance_id, day)
        record = records.load(ctx.conn, instance_id)
        definition = info(ctx.versions, ctx.conn, record.definition_id)
        scripts = describe({n: c for n, c in definition.files.items() if n.endswith(".bpmn")})["scripts"]
        links = suspension.deadline_links(scripts)
        counted = script_counted_timers(scripts, links)
        if not (decided or counted):
            continue  # nothing of this case counts days to that last day: its timer is not a TC-2 term
        case = Case.open(ctx, instance_id, record)

        def ends_on_holiday(task, at):
            return calendar.last_day_of(at) == day and (decided or _timer_variable(task) in counted)
        moved = suspension.move_deadlines(case, 0, roll_forward=True, holidays=holidays, links=links,
                                          only=ends_on_holiday)
        if moved:
            source = name_es or "parámetro calendar.holidays"
            ctx.audit("deadline_holiday", instance_id=instance_id,
                      message=f"{day.isoformat()} declarado feriado ({source})",
                      data={"holiday": day, "name_es": name_es, "name_en": name_en or name_es,
                            "source": "calendar" if name_es else "calendar.holidays", "deadlines": moved})
            moved_all += [{"case_number": case.instance.case_number, **m} for m in moved]
        case.close()
    return moved_all
