"""The supervisors' daily digest (API.md "Work management"): a supervisor who chose it (the
`daily_digest` preference) gets one e-mail per Puerto Rico day, on the engine clock, listing the
overdue and due-soon open tasks of the cases they supervise (their office's and those of none).

Run with the reminders, by the worker's round and at the end of a clock move, from the hour
`work.digestHour` on (Puerto Rico time; 7 by default: the digest is there when the office opens,
not at midnight). `work_digest` holds a row per supervisor and day, inserted first (ON CONFLICT DO NOTHING):
whoever inserts it sends the digest, so a second round that day, or a second worker at the same
instant, sends nothing. The tasks come from the open-task due-date index, never from the cases.
"""
from __future__ import annotations

from datetime import timedelta

from sqlalchemy import select
from sqlalchemy.dialects import postgresql, sqlite

from engine.commands import work_mail
from engine.commands.notice_period import days_before, digest_hour
from engine.kernel import access
from engine.persistence.models import User, UserRole, WorkDigest
from engine.persistence.tables import INSTANCE, IS_OPEN, TASK
from engine.rules.calendar import PUERTO_RICO

DIGEST = WorkDigest.__table__
_USER, _USER_ROLE = User.__table__, UserRole.__table__
LISTED = 200  # tasks listed in one digest; the rest are counted


def _subscribers(ctx) -> list:
    return ctx.conn.execute(
        select(_USER.c.username, _USER.c.email, _USER.c.office)
        .select_from(_USER.join(_USER_ROLE, _USER_ROLE.c.user_id == _USER.c.id))
        .where(_USER_ROLE.c.role_id == "supervisor", _USER.c.active.is_(True), _USER.c.daily_digest.is_(True))
        .order_by(_USER.c.username)).all()


def _claim(ctx, username: str, day) -> bool:
    """This day's digest is ours to send; False when it went already (or another worker has it)."""
    dialect = postgresql if ctx.conn.dialect.name == "postgresql" else sqlite
    statement = (dialect.insert(DIGEST).values(username=username, day=day, sent_at=ctx.now)
                 .on_conflict_do_nothing().returning(DIGEST.c.username))
    return ctx.conn.execute(statement).first() is not None


def _open_tasks_due(ctx, until, office: str | None) -> list:
    query = (select(TASK.c.id, TASK.c.name, TASK.c.assignee, TASK.c.due_at, INSTANCE.c.case_number)
             .select_from(TASK.join(INSTANCE, INSTANCE.c.id == TASK.c.instance_id))
             .where(IS_OPEN, TASK.c.due_at.is_not(None), TASK.c.due_at <= until)
             .order_by(TASK.c.due_at, TASK.c.id).limit(LISTED + 1))
    if office is not None:
        query = query.where(access.office_sql(INSTANCE.c.office, office))
    return ctx.conn.execute(query).all()


def send_digests(ctx) -> int:
    """Today's digest to each supervisor who chose it and has not had it; returns how many."""
    access.require_engine(ctx.actor, "send the daily digests")
    local = ctx.now.astimezone(PUERTO_RICO)
    if local.hour < digest_hour(ctx):
        return 0
    subscribers = _subscribers(ctx)
    if not subscribers:
        return 0
    until = ctx.now + timedelta(days=days_before(ctx))
    sent = 0
    for supervisor in subscribers:
        if not _claim(ctx, supervisor.username, local.date()):
            continue
        tasks = _open_tasks_due(ctx, until, supervisor.office)
        listed, more = tasks[:LISTED], max(0, len(tasks) - LISTED)
        overdue = [t for t in listed if t.due_at <= ctx.now]
        due_soon = [t for t in listed if t.due_at > ctx.now]
        subject, body = work_mail.digest(local.date(), overdue, due_soon, more)
        work_mail.send(ctx, supervisor.username, supervisor.email, subject, body)
        sent += 1
    return sent
