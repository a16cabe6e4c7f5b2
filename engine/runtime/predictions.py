"""What lies ahead of a task, drawn again by the library after the engine changed the task's place.

SpiffWorkflow 3.2 has no public call for "start this element here" or "forget the old predictions":
migration (a task's spec replaced) and move (open work cancelled, another element started) both need
them, so the two private calls live here once, next to each other, where a library upgrade is checked.
"""
from __future__ import annotations

from SpiffWorkflow.util.task import TaskState

AHEAD = TaskState.PREDICTED_MASK | TaskState.FUTURE


def redraw_ahead(task) -> None:
    """Drop the predicted children of a live task and let its (possibly new) spec predict them again."""
    for child in list(task.children):
        if child.has_state(AHEAD):
            task.workflow._remove_task(child.id)
    task.task_spec._predict_hook(task)
    for child in task.children:
        if child.has_state(AHEAD):
            child.task_spec._predict(child, mask=AHEAD)


def start_under(anchor, spec, data: dict):
    """Add `spec` as a child of `anchor` carrying `data` and let the library start it if its inputs are met."""
    step = anchor._add_child(spec, TaskState.FUTURE)
    step.data = data
    spec._predict(step, mask=AHEAD)
    spec._update(step)
    return step
