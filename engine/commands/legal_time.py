"""Legal time (API.md §Legal time): a supervisor suspends a case's deadlines and resumes them.

While a case is suspended no timer of it fires — the worker's queries skip it, `fire_timer` checks
again under the case's row lock, and any command that advances it lets the library see the
instant the clock stopped. On resume every running deadline moves later by the calendar days
suspended, then past a weekend or holiday where TC-2 says so (`calendar.rollForwardNonBusinessDay`),
and the history keeps each deadline before and after. A suspension with `until` ends by itself
at the start of the day after it (`resume_due`, run by the timer worker and the clock move).
"""
from __future__ import annotations

from datetime import date, datetime, timedelta

from sqlalchemy import select

from engine.config import parameters
from engine.definitions.parsing import describe
from engine.errors import Conflict, ValidationFailed
from engine.identity.actor import SYSTEM
from engine.kernel import access
from engine.persistence.models import CaseSuspension
from engine.queries import shapes as views
from engine.rules import calendar
from engine.runtime import records, suspension
from engine.runtime.case import Case

SUSPENSION = CaseSuspension.__table__


def _text(value, field: str, errors: dict) -> str:
    if not isinstance(value, str) or not value.strip():
        errors[field] = ["required"]
        return ""
    if len(value) > 2000:
        errors[field] = ["at most 2000 characters"]
    return value.strip()


def _until(value, today: date, errors: dict) -> date | None:
    if value in (None, ""):
        return None
    try:
        day = value if isinstance(value, date) else date.fromisoformat(str(value))
    except ValueError:
        errors["until"] = ["a date YYYY-MM-DD"]
        return None
    if day < today:
        errors["until"] = ["must not be before today"]
    return day


def resume_instant(until: date) -> datetime:
    """A suspension until day D ends at 00:00 Puerto Rico time on D+1 (D is still suspended)."""
    return calendar.deadline_instant(until)


def suspend_case(ctx, instance_id: int, reason, legal_basis, until=None) -> dict:
    access.require_supervisor(ctx.actor, "suspend a case")
    errors: dict = {}
    reason, legal_basis = _text(reason, "reason", errors), _text(legal_basis, "legal_basis", errors)
    until = _until(until, calendar.local_date(ctx.now), errors)
    if errors:
        raise ValidationFailed("the suspension needs a reason and its legal basis", errors)
    case = Case.open(ctx, instance_id)
    record = case.instance
    if record.status not in ("active", "error"):
        raise Conflict(f"case {record.case_number} is {record.status}", code="CASE_NOT_ACTIVE")
    if record.suspended_since is not None:
        raise Conflict(f"case {record.case_number} is already suspended", code="ALREADY_SUSPENDED")
    case.advance()  # what fell due before the order stands: a deadline already passed is not revived
    record.suspended_since = ctx.now
    details = {"since": ctx.now.isoformat(), "reason": reason, "legal_basis": legal_basis,
               "until": until.isoformat() if until else None, "by": ctx.actor.username}
    record.workflow_meta = {**(record.workflow_meta or {}), "tramite": {**record.notes, "suspension": details}}
    ctx.conn.execute(SUSPENSION.insert().values(
        instance_id=record.id, since=ctx.now, until=until, reason=reason, legal_basis=legal_basis,
        suspended_by=ctx.actor.username))
    ctx.audit("case_suspended", instance_id=record.id, message=reason,
              data={"reason": reason, "legal_basis": legal_basis, "until": until,
                    "deadlines": [{"element_id": d["element_id"], "name": d["name"], "due_at": d["due_at"]}
                                  for d in case.deadlines or []]})
    case.close()
    return views.case_of(case)


def _calendar_rule(ctx, record) -> tuple[bool, frozenset]:
    frozen = records.frozen_parameters(ctx.conn, record.id)
    roll = parameters.typed_value("calendar.rollForwardNonBusinessDay", frozen, ctx.conn)
    holidays = parameters.typed_value("calendar.holidays", frozen, ctx.conn)
    return bool(roll), calendar.parse_holidays(holidays)


def resume_case(ctx, instance_id: int, at: datetime | None = None) -> dict:
    """End the case's suspension (supervisor; or the engine at `until`) and move its deadlines."""
    if at is None:
        access.require_supervisor(ctx.actor, "resume a case")
    else:
        access.require_engine(ctx.actor, "resume a case on its date")
    case = Case.open(ctx, instance_id)
    record = case.instance
    if record.suspended_since is None:
        raise Conflict(f"case {record.case_number} is not suspended", code="NOT_SUSPENDED")
    resumed = at or ctx.now
    # Calendar days the clock stood still: the days between the two Puerto Rico dates.
    days = max(0, (calendar.local_date(resumed) - calendar.local_date(record.suspended_since)).days)
    roll, holidays = _calendar_rule(ctx, record)
    scripts = describe({n: c for n, c in case.definition.files.items() if n.endswith(".bpmn")})["scripts"]
    moved = suspension.move_deadlines(case, days, roll_forward=roll, holidays=holidays,
                                      links=suspension.deadline_links(scripts))
    record.suspended_since = None
    notes = dict(record.notes)
    notes.pop("suspension", None)
    notes["suspended_days"] = notes.get("suspended_days", 0) + days
    record.workflow_meta = {**(record.workflow_meta or {}), "tramite": notes}
    row = ctx.conn.execute(select(SUSPENSION.c.id).where(SUSPENSION.c.instance_id == record.id,
                                                         SUSPENSION.c.resumed_at.is_(None))).scalar()
    ctx.conn.execute(SUSPENSION.update().where(SUSPENSION.c.id == row).values(
        resumed_at=resumed, resumed_by=ctx.actor.username, days=days, deadlines=moved))
    ctx.audit("case_resumed", instance_id=record.id,
              data={"days": days, "roll_forward": roll, "deadlines": moved, "scheduled": at is not None})
    case.advance()
    case.close()
    return views.case_of(case)


def next_due_resumption(ctx, until: datetime) -> tuple[int, datetime] | None:
    """The suspension that ends first by `until` (its `until` day passed): (case id, instant)."""
    access.require_engine(ctx.actor, "resume cases")
    last_day = calendar.local_date(until) - timedelta(days=1)
    row = ctx.conn.execute(select(SUSPENSION.c.instance_id, SUSPENSION.c.until).where(
        SUSPENSION.c.resumed_at.is_(None), SUSPENSION.c.until.is_not(None), SUSPENSION.c.until <= last_day)
        .order_by(SUSPENSION.c.until, SUSPENSION.c.id).limit(1)).first()
    return (row.instance_id, resume_instant(row.until)) if row else None


def resume_due(engine, until: datetime) -> int:
    """Resume every suspension whose `until` day is over by `until`, each in its own transaction."""
    resumed = 0
    while True:
        due = engine.execute(next_due_resumption, SYSTEM, until)
        if due is None:
            return resumed
        try:
            engine.execute(resume_case, SYSTEM, due[0], due[1])
            resumed += 1
        except Conflict:  # another worker resumed it first (the case row's lock orders the two)
            if engine.execute(next_due_resumption, SYSTEM, until) == due:
                return resumed
