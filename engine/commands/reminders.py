"""Reminders and escalation (API.md "Work management"): a task due within `work.reminderDaysBefore`
days reminds its assignee (or its lane's people when nobody holds it); an overdue one tells the
supervisors. Each once, through the notifications outbox.

Run by the timer worker's round and at the end of a manual clock move. The due tasks are found by
the open-task due-date index (ix_task_open_due), never by walking the cases; `task_reminder` records
what was sent, and inserting its row first (ON CONFLICT DO NOTHING) makes a second sender — another
worker in the same instant — skip the task instead of sending it twice.
"""
from __future__ import annotations

from datetime import timedelta

from sqlalchemy import exists, select
from sqlalchemy.dialects import postgresql, sqlite

from engine.identity import absences
from engine.identity.actor import SYSTEM
from engine.kernel import access
from engine.persistence.models import TaskReminder, User, UserRole
from engine.persistence.tables import INSTANCE, IS_OPEN, TASK
from engine.commands import work_mail
from engine.commands.digest import send_digests
from engine.commands.notice_period import days_before

REMINDER = TaskReminder.__table__
_USER, _USER_ROLE = User.__table__, UserRole.__table__
BATCH = 500
KINDS = ("due_soon", "overdue")


def _due(ctx, kind: str, until):
    """Open tasks due before `until` with no `kind` reminder yet, soonest first (index order)."""
    sent = exists().where(REMINDER.c.task_id == TASK.c.id, REMINDER.c.kind == kind)
    return ctx.conn.execute(
        select(TASK.c.id, TASK.c.name, TASK.c.lane, TASK.c.assignee, TASK.c.due_at, TASK.c.instance_id,
               TASK.c.element_id, INSTANCE.c.case_number, INSTANCE.c.office)
        .select_from(TASK.join(INSTANCE, INSTANCE.c.id == TASK.c.instance_id))
        .where(IS_OPEN, TASK.c.due_at.is_not(None), TASK.c.due_at <= until, ~sent)
        .order_by(TASK.c.due_at, TASK.c.id).limit(BATCH)).all()


def _mark(ctx, task_id: int, kind: str) -> bool:
    """Record the reminder; False when someone else already did (then it is theirs to send)."""
    dialect = postgresql if ctx.conn.dialect.name == "postgresql" else sqlite
    statement = (dialect.insert(REMINDER).values(task_id=task_id, kind=kind, sent_at=ctx.now)
                 .on_conflict_do_nothing().returning(REMINDER.c.task_id))
    return ctx.conn.execute(statement).first() is not None  # (rowcount is not reliable here with psycopg)


def _holders(ctx, role: str, office: str | None) -> list[str]:
    """Active users holding `role`, of the case's office or of none."""
    query = (select(_USER.c.username).select_from(_USER.join(_USER_ROLE, _USER_ROLE.c.user_id == _USER.c.id))
             .where(_USER_ROLE.c.role_id == role, _USER.c.active.is_(True)).order_by(_USER.c.username))
    if office is not None:
        query = query.where(access.office_sql(_USER.c.office, office))
    return list(ctx.conn.execute(query).scalars())


def _holder_and_stand_in(ctx, assignee: str) -> list[str]:
    """The task's holder, and whoever stands in for them now: the one who will act on it meanwhile."""
    substitute = absences.substitute_of(ctx.conn, assignee, ctx.now)
    return [assignee] + ([substitute] if substitute else [])


def _notify(ctx, task, kind: str, recipients: list[str]) -> int:
    """E-mail each recipient at their address (work_mail); one outbox row each."""
    subject, body = work_mail.reminder(task, kind)
    for recipient, address in work_mail.addresses(ctx.conn, recipients).items():
        work_mail.send(ctx, recipient, address, subject, body, task.instance_id, task.element_id)
    return len(recipients)


def send_reminders(ctx) -> dict:
    """One pass: remind what is due soon, escalate what is overdue; returns how many notices."""
    access.require_engine(ctx.actor, "send task reminders")
    days = days_before(ctx)
    counts = {"due_soon": 0, "overdue": 0, "tasks": 0}
    for kind, until in (("overdue", ctx.now), ("due_soon", ctx.now + timedelta(days=days))):
        due = _due(ctx, kind, until)
        counts["tasks"] = max(counts["tasks"], len(due))
        for task in due:
            if not _mark(ctx, task.id, kind):
                continue
            if kind == "overdue":
                _mark(ctx, task.id, "due_soon")  # past its date, a "due soon" would come too late
                recipients = _holders(ctx, "supervisor", None)
            else:
                recipients = _holder_and_stand_in(ctx, task.assignee) if task.assignee else \
                    _holders(ctx, task.lane, task.office)
            counts[kind] += _notify(ctx, task, kind, recipients)
    return counts


def run(engine, max_passes: int = 100) -> dict:
    """For the worker round and the clock move (they hold an engine, not a command's context): one
    transaction per batch, until a batch is not full; then the supervisors' daily digests."""
    total = {"due_soon": 0, "overdue": 0}
    for _ in range(max_passes):
        counts = engine.execute(send_reminders, SYSTEM)
        total = {k: total[k] + counts[k] for k in total}
        if counts["tasks"] < BATCH:
            break
    total["digests"] = engine.execute(send_digests, SYSTEM)
    return total
