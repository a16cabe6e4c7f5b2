"""The engine's own script helpers: the clock's date, a case's frozen parameters, legal deadline
arithmetic, moving a running deadline, and the notices outbox. Procedures add theirs beside these.
"""
from __future__ import annotations

from datetime import date
from typing import Callable

from SpiffWorkflow.bpmn.specs.event_definitions.timer import TimerEventDefinition
from SpiffWorkflow.util.task import TaskState

from engine.config import parameters
from engine.registries import notifications
from engine.rules import calendar
from engine.rules.money import money
from engine.scripting.current import current_element, current_task

HELPER_NAMES = frozenset({
    "today", "now", "param", "last_timely_day", "deadline_timer", "add_years", "add_months",
    "valid_until", "as_date", "money", "extend_deadline", "local_now", "notify",
})


def as_date(value) -> date:
    """The legal day of a value: a date, an ISO text, or an instant read as a Puerto Rico date."""
    return calendar.as_local_date(value)


def engine_helpers(ctx, instance_id: int | None, frozen: Callable[[], dict],
                   check_notice: Callable | None = None) -> dict[str, Callable]:
    """`check_notice(recipient, address)` refuses a notice the case's process may not write."""
    def param(name: str):
        return parameters.typed_value(name, frozen(), ctx.conn)

    def today() -> date:
        return calendar.local_date(ctx.now)

    def last_timely_day(days, start=None) -> date:
        return calendar.last_timely_day(
            as_date(start) if start is not None else today(), int(days),
            roll_forward=bool(param("calendar.rollForwardNonBusinessDay")),
            holidays=calendar.parse_holidays(param("calendar.holidays") or []))

    def deadline_timer(last_day) -> str:
        return calendar.to_timer_iso(calendar.deadline_instant(as_date(last_day)))

    def notify(recipient, subject, body, channel="correo", address=None) -> dict:
        if check_notice is not None:
            check_notice(recipient, address)
        return notifications.record(ctx, instance_id, recipient, subject, body, channel, address,
                                    current_element())

    return {
        "today": today, "now": lambda: ctx.now, "param": param,
        # An arrival stamp in Puerto Rico time: the day it shows is the legal day of the act.
        "local_now": lambda: calendar.to_timer_iso(ctx.now),
        "last_timely_day": last_timely_day, "deadline_timer": deadline_timer,
        "add_years": lambda day, n: calendar.add_years(as_date(day), int(n)),
        "add_months": lambda day, n: calendar.add_months(as_date(day), int(n)),
        "valid_until": lambda day, n: calendar.valid_until(as_date(day), int(n)),
        "as_date": as_date, "money": money, "notify": notify,
        "extend_deadline": lambda element_id, last_day: _extend_deadline(
            ctx, instance_id, str(element_id), deadline_timer(last_day)),
    }


def _waiting_timer(workflow, element_id: str):
    """The task that holds the running due time of timer `element_id` (an event gateway holds its own)."""
    for wf in (workflow, *workflow.subprocesses.values()):
        for task in wf.tasks.values():
            if task.state != TaskState.WAITING:
                continue
            if task.task_spec.bpmn_id == element_id and \
                    isinstance(getattr(task.task_spec, "event_definition", None), TimerEventDefinition):
                return task
            if any(c.task_spec.bpmn_id == element_id and c.state & TaskState.NOT_FINISHED_MASK
                   for c in task.children) and "event_value" in task.internal_data:
                return task
    return None


def _extend_deadline(ctx, instance_id, element_id: str, due: str) -> str:
    """Move a running deadline (an extension): the timer fires after the new last day, and the
    projections move its `timer` row when the command saves the case."""
    running = current_task()
    if running is None:
        raise ValueError("extend_deadline() runs only inside a script task")
    waiting = _waiting_timer(running.workflow.top_workflow, element_id)
    if waiting is None:
        raise ValueError(f"no running timer {element_id!r} in this case to move")
    before = waiting.internal_data.get("event_value")
    waiting.internal_data["event_value"] = due
    ctx.audit("deadline_moved", instance_id=instance_id, element_id=element_id, actor="engine",
              data={"from": before, "to": due})
    return due
