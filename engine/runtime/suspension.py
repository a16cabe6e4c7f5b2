"""What a resumption does to a suspended case's workflow: every running timer moves later.

The due instant of a waiting timer lives in the library's task (`internal_data["event_value"]`,
as `extend_deadline` moves it too); the projections then move the `timer` row and the due dates of
the tasks a boundary timer limits when the command saves the case.
"""
from __future__ import annotations

from datetime import timezone

from engine.rules import calendar
from engine.runtime import projections


def running_deadlines(case) -> list[tuple]:
    """(task, due instant) of every timer the case waits on, soonest first."""
    return sorted(projections.waiting_timers(case).values(), key=lambda pair: pair[1])


def move_deadlines(case, days: int, *, roll_forward: bool, holidays) -> list[dict]:
    """Move every running timer `days` later (TC-2 roll-forward as the rule says); each deadline
    before and after, for the history."""
    moved = []
    for task, due in running_deadlines(case):
        after = calendar.moved_by_suspension(due, days, roll_forward=roll_forward, holidays=holidays)
        value = task.internal_data.get("event_value")
        if isinstance(value, dict):  # a cycle timer keeps its next instant under "next"
            value = {**value, "next": calendar.to_timer_iso(after)}
        else:
            value = calendar.to_timer_iso(after)
        task.internal_data["event_value"] = value
        spec = task.task_spec
        moved.append({"element_id": spec.bpmn_id or spec.name, "name": spec.bpmn_name or spec.bpmn_id or spec.name,
                      "before": due.astimezone(timezone.utc).isoformat(),
                      "after": after.astimezone(timezone.utc).isoformat()})
    return moved
