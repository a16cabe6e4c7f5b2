"""What a resumption does to a suspended case's workflow: every running timer moves later.

The due instant of a waiting timer lives in the library's task (`internal_data["event_value"]`,
as `extend_deadline` moves it too); the projections then move the `timer` row and the due dates of
the tasks a boundary timer limits when the command saves the case.

A diagram also keeps a deadline in its data: `review_timer = deadline_timer(review_deadline)`
feeds the timer (`timeDate` `review_timer`) from the last day a later script compares with today
(`review_request_timely(today(), review_deadline)`). Those two variables move with their timer:
the link is read from the version's own scripts (`deadline_links`), never named per procedure.
"""
from __future__ import annotations

import re
from datetime import date, timezone

from SpiffWorkflow.util.task import TaskState

from engine.rules import calendar
from engine.runtime import projections


def running_deadlines(case) -> list[tuple]:
    """(task, due instant) of every timer the case waits on, soonest first."""
    return sorted(projections.waiting_timers(case).values(), key=lambda pair: pair[1])


_LINK = re.compile(r"^\s*(\w+)\s*=\s*deadline_timer\(\s*(\w+)\s*\)", re.MULTILINE)
_NAME = re.compile(r"^\w+$")


def deadline_links(scripts: list[dict]) -> dict[str, str]:
    """{timer variable: last-day variable} from the scripts' `x = deadline_timer(y)` lines."""
    return {timer: day for script in scripts for timer, day in _LINK.findall(script.get("source") or "")}


def _set_in_live_data(case, name: str, value, only_if=None) -> None:
    """The variable in every live task and in the task each inherits from: a waiting catch event
    takes its parent's data again when it fires (the library's `_inherit_data`)."""
    for wf in (case.workflow, *case.workflow.subprocesses.values()):
        live = wf.get_tasks(state=TaskState.READY | TaskState.WAITING, skip_subprocesses=True)
        for task in {*live, *(t.parent for t in live if t.parent is not None)}:
            if name in task.data and (only_if is None or task.data[name] == only_if):
                task.data[name] = value


def _follow_in_data(case, task, links: dict, before, after) -> None:
    expression = getattr(getattr(task.task_spec, "event_definition", None), "expression", None)
    if not isinstance(expression, str) or not _NAME.match(expression.strip()):
        return
    timer_var = expression.strip()
    _set_in_live_data(case, timer_var, calendar.to_timer_iso(after))
    day_var, old_day, new_day = links.get(timer_var), calendar.last_day_of(before), calendar.last_day_of(after)
    if day_var and old_day and new_day:
        for old, new in ((old_day.isoformat(), new_day.isoformat()), (old_day, new_day)):
            _set_in_live_data(case, day_var, new if isinstance(new, str) else date(new.year, new.month, new.day),
                              only_if=old)


def move_deadlines(case, days: int, *, roll_forward: bool, holidays, links: dict | None = None,
                   only=None) -> list[dict]:
    """Move every running timer `days` later (TC-2 roll-forward as the rule says), and the variables
    the diagram feeds it from; each deadline before and after, for the history. `only(task, due)`
    picks the timers to move (a newly declared holiday moves those ending on it, days = 0)."""
    moved = []
    for task, due in running_deadlines(case):
        if only is not None and not only(task, due):
            continue
        after = calendar.moved_by_suspension(due, days, roll_forward=roll_forward, holidays=holidays)
        value = task.internal_data.get("event_value")
        if isinstance(value, dict):  # a cycle timer keeps its next instant under "next"
            value = {**value, "next": calendar.to_timer_iso(after)}
        else:
            value = calendar.to_timer_iso(after)
        task.internal_data["event_value"] = value
        _follow_in_data(case, task, links or {}, due, after)
        spec = task.task_spec
        moved.append({"element_id": spec.bpmn_id or spec.name, "name": spec.bpmn_name or spec.bpmn_id or spec.name,
                      "before": due.astimezone(timezone.utc).isoformat(),
                      "after": after.astimezone(timezone.utc).isoformat()})
    return moved
