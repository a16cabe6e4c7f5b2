"""Keeps the `task` and `timer` tables in step with a case's workflow at the end of each command.

Lists, inboxes, dashboards and the timer worker read only these tables, never a workflow.
"""
from __future__ import annotations

from datetime import datetime, timezone

from SpiffWorkflow.bpmn.specs.event_definitions.timer import TimerEventDefinition
from SpiffWorkflow.util.task import TaskState
from sqlalchemy import select

from ..persistence.models import Task, Timer

_LOCAL_TZ_FALLBACK = timezone.utc


def _due_of(task) -> datetime | None:
    value = task.internal_data.get("event_value")
    if isinstance(value, dict):  # cycle timers keep their next instant under "next"
        value = value.get("next")
    if not value:
        return None
    try:
        due = TimerEventDefinition.get_datetime(value) if isinstance(value, str) else value
    except ValueError:
        return None
    if due.tzinfo is None:
        due = due.replace(tzinfo=_LOCAL_TZ_FALLBACK)
    return due.astimezone(timezone.utc)


def _is_timer(task) -> bool:
    return isinstance(getattr(task.task_spec, "event_definition", None), TimerEventDefinition)


def waiting_timers(case) -> dict[str, tuple]:
    """{spiff task id: (task, due instant)} for every timer that is counting down."""
    found = {}
    for wf in case._workflows():
        for task in wf.tasks.values():
            if task.state != TaskState.WAITING:
                continue
            if _is_timer(task):
                due = _due_of(task)
                if due is not None:
                    found[str(task.id)] = (task, due)
            # An event-based gateway holds its timer's due instant itself.
            elif any(_is_timer(c) for c in task.children):
                due = _due_of(task)
                timer_child = next(c for c in task.children if _is_timer(c))
                if due is not None:
                    found[str(task.id)] = (timer_child, due)
    return found


def _task_due(task, timers_by_parent) -> datetime | None:
    """A user task's due date is the earliest boundary timer attached to it."""
    return timers_by_parent.get(task._parent)


def sync(ctx, case) -> None:
    session, instance, now = ctx.session, case.instance, ctx.now
    timers = waiting_timers(case)
    _sync_timers(ctx, case, timers)

    timers_by_parent: dict = {}
    for task, due in timers.values():
        key = task._parent
        if key not in timers_by_parent or due < timers_by_parent[key]:
            timers_by_parent[key] = due

    ready = {}
    if instance.status not in ("cancelled",):
        for task in case.workflow.get_tasks(state=TaskState.READY, manual=True):
            ready[str(task.id)] = task
    open_rows = session.scalars(select(Task).where(Task.instance_id == instance.id, Task.state == "open")).all()
    for row in open_rows:
        if row.spiff_task_id not in ready:
            row.state, row.completed_at = "cancelled", now
    have = {row.spiff_task_id for row in open_rows}
    for task_id, task in ready.items():
        if task_id in have:
            continue
        spec = task.task_spec
        session.add(Task(instance_id=instance.id, spiff_task_id=task_id, element_id=spec.bpmn_id,
                         name=spec.bpmn_name or spec.bpmn_id, lane=spec.lane, state="open",
                         created_at=now, due_at=_task_due(task, timers_by_parent)))


def _sync_timers(ctx, case, timers) -> None:
    session, instance, now = ctx.session, case.instance, ctx.now
    rows = session.scalars(select(Timer).where(Timer.instance_id == instance.id,
                                               Timer.fired_at.is_(None), Timer.cancelled.is_(False))).all()
    by_task = {row.spiff_task_id: row for row in rows}
    for task_id, row in by_task.items():
        if task_id in timers:
            due = timers[task_id][1]
            if row.due_at != due:  # a running deadline was moved (an extension)
                row.due_at = due
            continue
        task = case.find_task(task_id)
        if task is not None and task.state == TaskState.COMPLETED:
            row.fired_at = now
        else:
            row.cancelled = True
    for task_id, (task, due) in timers.items():
        if task_id not in by_task:
            spec = task.task_spec
            session.add(Timer(instance_id=instance.id, spiff_task_id=task_id,
                              element_id=spec.bpmn_id or spec.name,
                              name=spec.bpmn_name or spec.bpmn_id or spec.name, due_at=due))
