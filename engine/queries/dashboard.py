"""Aggregates for the supervisors' dashboard and the admin pages, read from the projection tables.

Every figure here is a GROUP BY or a bounded list over `process_instance`, `task` and `timer`, so
the dashboard costs the same with 100 cases as with 100,000; no workflow is ever deserialized.
"""
from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import and_, case, func, literal, select, union_all
from sqlalchemy.orm import Session

from engine.kernel import access
from engine.queries import list_totals
from engine.persistence.models import User, UserRole
from engine.persistence.tables import INSTANCE, IS_OPEN, TASK, TIMER

RUNNING = ("active", "error")
# Puerto Rico keeps -04:00 all year, so a fixed shift groups by the local day exactly.
LOCAL_ZONE, LOCAL_SHIFT = "America/Puerto_Rico", "-4 hours"


def _iso(value):
    return value.isoformat() if value is not None else None


def stage_counts(session: Session) -> list[dict]:
    """Running cases per procedure and stage (a case without a stage yet counts under None)."""
    if list_totals.kept(session):
        return [{"process_key": k, "stage": s, "status": st, "count": n} for k, s, st, n
                in list_totals.case_groups(session, "process_key", "stage", "status", statuses=RUNNING)]
    rows = session.execute(
        select(INSTANCE.c.process_key, INSTANCE.c.stage, INSTANCE.c.status, func.count())
        .where(INSTANCE.c.status.in_(RUNNING))
        .group_by(INSTANCE.c.process_key, INSTANCE.c.stage, INSTANCE.c.status)
        .order_by(INSTANCE.c.process_key, INSTANCE.c.stage))
    return [{"process_key": k, "stage": s, "status": st, "count": n} for k, s, st, n in rows]


def status_counts(session: Session) -> dict[str, dict[str, int]]:
    """{process key: {status: cases}} over every case ever started."""
    out: dict[str, dict[str, int]] = {}
    if list_totals.kept(session):
        for key, status, n in list_totals.case_groups(session, "process_key", "status"):
            out.setdefault(key, {})[status] = n
        return out
    for key, status, n in session.execute(select(INSTANCE.c.process_key, INSTANCE.c.status, func.count())
                                          .group_by(INSTANCE.c.process_key, INSTANCE.c.status)):
        out.setdefault(key, {})[status] = n
    return out


def _period(session: Session, column, bucket: str):
    fmt = {"day": ("%Y-%m-%d", "YYYY-MM-DD"), "month": ("%Y-%m", "YYYY-MM")}[bucket]
    if session.get_bind().dialect.name == "sqlite":
        return func.strftime(fmt[0], column, LOCAL_SHIFT)
    # The column holds naive UTC: read it as UTC, then as Puerto Rico's wall clock.
    return func.to_char(func.timezone(LOCAL_ZONE, func.timezone("UTC", column)), fmt[1])


def outcomes_over_time(session: Session, now: datetime, bucket: str = "month", periods: int = 12) -> dict:
    """Ended cases per period and outcome: {"periods": [...], "series": {outcome: [counts]}}."""
    since = now - (timedelta(days=periods) if bucket == "day" else timedelta(days=31 * periods))
    period = _period(session, INSTANCE.c.ended_at, bucket)
    outcome = func.coalesce(INSTANCE.c.outcome, INSTANCE.c.status)
    rows = session.execute(select(period.label("period"), outcome.label("outcome"), func.count())
                           .where(INSTANCE.c.ended_at.is_not(None), INSTANCE.c.ended_at >= since)
                           .group_by(period, outcome).order_by(period)).all()
    labels = sorted({r.period for r in rows})
    series: dict[str, list[int]] = {}
    for r in rows:
        series.setdefault(r.outcome, [0] * len(labels))[labels.index(r.period)] = r[2]
    return {"periods": labels, "series": series}


# The dashboard lists the most urgent deadlines only; past this many it says the list is cut and
# points to the case list's overdue filter, which holds them all (a count badge of "100" read as the
# number of deadlines when 1,000,000 cases had 147,905 overdue).
DEADLINES_SHOWN = 100


def upcoming_deadlines(session: Session, now: datetime, days: int = 7, limit: int = DEADLINES_SHOWN) -> list[dict]:
    """Open tasks and running timers due before now + `days`, overdue ones first (soonest first)."""
    horizon = now + timedelta(days=days)
    tasks = (select(literal("task").label("kind"), TASK.c.id.label("ref"), TASK.c.instance_id,
                    TASK.c.name, TASK.c.element_id, TASK.c.due_at, TASK.c.lane, TASK.c.assignee)
             .where(IS_OPEN, TASK.c.due_at.is_not(None), TASK.c.due_at < horizon))
    timers = (select(literal("timer").label("kind"), TIMER.c.id.label("ref"), TIMER.c.instance_id,
                     TIMER.c.name, TIMER.c.element_id, TIMER.c.due_at, literal(None).label("lane"),
                     literal(None).label("assignee"))
              .where(TIMER.c.fired_at.is_(None), TIMER.c.cancelled.is_(False), TIMER.c.due_at < horizon))
    both = union_all(tasks, timers).subquery()
    rows = session.execute(
        select(both, INSTANCE.c.case_number, INSTANCE.c.process_key)
        .select_from(both.join(INSTANCE, INSTANCE.c.id == both.c.instance_id))
        .where(INSTANCE.c.status.in_(RUNNING))
        .order_by(both.c.due_at, both.c.ref).limit(limit)).all()
    return [{"kind": r.kind, "id": r.ref, "instance_id": r.instance_id, "case_number": r.case_number,
             "process_key": r.process_key, "name": r.name, "element_id": r.element_id,
             "due_at": _iso(r.due_at), "lane": r.lane, "assignee": r.assignee,
             "overdue": r.due_at < now} for r in rows]


def waiting_work(session: Session, now: datetime) -> dict:
    """Open tasks per role (unassigned / assigned / overdue) and per person holding them."""
    overdue = func.sum(case((and_(TASK.c.due_at.is_not(None), TASK.c.due_at < now), 1), else_=0))
    by_role = session.execute(
        select(TASK.c.lane, func.count(TASK.c.assignee), func.count(), overdue)
        .where(IS_OPEN).group_by(TASK.c.lane).order_by(TASK.c.lane))
    by_person = session.execute(
        select(TASK.c.assignee, func.count(), overdue)
        .where(IS_OPEN, TASK.c.assignee.is_not(None))
        .group_by(TASK.c.assignee).order_by(func.count().desc(), TASK.c.assignee))
    return {"by_role": [{"lane": lane, "assigned": assigned, "unassigned": total - assigned, "total": total,
                         "overdue": int(late or 0)} for lane, assigned, total, late in by_role],
            "by_person": [{"assignee": who, "total": total, "overdue": int(late or 0)}
                          for who, total, late in by_person]}


def cases_in_error(session: Session, limit: int = 50) -> list[dict]:
    rows = session.execute(select(INSTANCE.c.id, INSTANCE.c.case_number, INSTANCE.c.process_key,
                                  INSTANCE.c.error_element, INSTANCE.c.error_message, INSTANCE.c.started_at)
                           .where(INSTANCE.c.status == "error")
                           .order_by(INSTANCE.c.started_at.desc(), INSTANCE.c.id.desc()).limit(limit))
    return [{"id": r.id, "case_number": r.case_number, "process_key": r.process_key,
             "element_id": r.error_element, "message": r.error_message, "started_at": _iso(r.started_at)}
            for r in rows]


def filter_values(session: Session) -> dict[str, list[str]]:
    """The outcomes, stages and offices in use, for the case list's filter choices (on PostgreSQL
    from the kept totals' few rows in one statement, not a scan of every case)."""
    if list_totals.kept(session):
        found = list_totals.case_values(session, "outcome", "stage", "office")
    else:
        found = {name: [v for v in session.scalars(select(INSTANCE.c[name]).where(INSTANCE.c[name].is_not(None))
                                                   .group_by(INSTANCE.c[name]).order_by(INSTANCE.c[name]))]
                 for name in ("outcome", "stage", "office")}
    staff_offices = session.scalars(select(User.office).where(User.office.is_not(None)).group_by(User.office))
    return {"outcomes": found["outcome"], "stages": found["stage"],
            "offices": sorted(set(found["office"]) | set(staff_offices))}


def users_holding(session: Session, role: str) -> list[dict]:
    """Active users who hold `role`: the choices when a supervisor reassigns a task of that lane."""
    rows = session.execute(select(User.username, User.full_name, User.office)
                           .join(UserRole, UserRole.user_id == User.id)
                           .where(UserRole.role_id == role, User.active.is_(True)).order_by(User.username))
    return [{"username": u.username, "full_name": u.full_name, "office": u.office} for u in rows]


def case_id_of(session: Session, case_number: str) -> int | None:
    return session.scalar(select(INSTANCE.c.id).where(func.upper(INSTANCE.c.case_number)
                                                      == case_number.strip().upper()))


def overview(session: Session, actor, now: datetime, bucket: str = "month") -> dict:
    """The supervisors' dashboard: cases by stage and status, outcomes over time, the deadlines of
    the coming week, the waiting work and the cases in error."""
    access.require_sees_all_cases(actor, "the dashboard")
    return {"stages": stage_counts(session), "statuses": status_counts(session),
            "outcomes": outcomes_over_time(session, now, bucket),
            **_deadlines(session, now), "work": waiting_work(session, now), "errors": cases_in_error(session)}


def _deadlines(session: Session, now: datetime) -> dict:
    """The week's most urgent deadlines, and whether there are more than the dashboard shows (one
    row more is read to know, rather than counting them all)."""
    found = upcoming_deadlines(session, now, days=7, limit=DEADLINES_SHOWN + 1)
    return {"deadlines": found[:DEADLINES_SHOWN], "more_deadlines": len(found) > DEADLINES_SHOWN}
