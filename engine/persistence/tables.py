"""The table catalogue the hot Core statements are written against: tables, the task columns every
task shape reads, and the open-task test written so SQLite keeps its partial indexes."""
from __future__ import annotations

from sqlalchemy import literal_column

from engine.persistence.models import ProcessDefinition, ProcessInstance, Task, Timer

INSTANCE, TASK, TIMER, DEFINITION = (ProcessInstance.__table__, Task.__table__, Timer.__table__,
                                     ProcessDefinition.__table__)
TASK_COLUMNS = (TASK.c.id, TASK.c.instance_id, TASK.c.spiff_task_id, TASK.c.element_id, TASK.c.name,
                TASK.c.lane, TASK.c.assignee, TASK.c.state, TASK.c.created_at, TASK.c.due_at,
                TASK.c.completed_at, TASK.c.completed_by, TASK.c.priority)


def task_state_is(state: str):
    """`task.state = '<state>'` written as a literal, never a bound parameter: SQLite re-prepares a
    statement on every run when a bound value decides whether a partial index applies (the open-task
    indexes of 0008/0009 hold `state = 'open'`), which cost more than running the query."""
    if state not in TASK_STATES:
        raise ValueError(f"unknown task state {state!r}")
    return TASK.c.state == literal_column(f"'{state}'")


TASK_STATES = ("open", "completed", "cancelled")
IS_OPEN = task_state_is("open")
