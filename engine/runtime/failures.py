"""Holds a failed step in ERROR so the case shows it, and re-runs it in the phase it failed in.

SpiffWorkflow sets a task to ERROR only when the task's own run fails (a script). A step can also
fail while the library readies it (a timer expression, a multi-instance input collection, a data
input: evaluated when the previous step completes), while a loop or multi-instance merges an
instance back (its loop or completion condition) or while a task completes (a data output). The
library then raises with the task left FUTURE, STARTED or COMPLETED: nothing would mark the case
in error, the error would be cleared at the next save, and retry would find nothing to re-run.

`hold_failed` puts such a task in ERROR and notes the phase; `retry_failed` re-runs that phase
(the same calls the library made), not the whole task, so a fix to the data or parameters the
expression reads is enough.
"""
from __future__ import annotations

from SpiffWorkflow.bpmn.specs.mixins.multiinstance_task import (
    ParallelMultiInstanceTask, SequentialMultiInstanceTask, StandardLoopTask,
)
from SpiffWorkflow.exceptions import WorkflowException
from SpiffWorkflow.util.task import TaskState

_NOTE = "tramite_failed"
_PRE_SCRIPT = "Error occurred in the Pre-Script"  # the library's note on the exception
# FUTURE is not in the library's PREDICTED_MASK (LIKELY | MAYBE).
_NOT_YET = TaskState.FUTURE | TaskState.LIKELY | TaskState.MAYBE
_READYING = _NOT_YET | TaskState.WAITING


def hold_failed(task, exc=None) -> None:
    """Put `task` in ERROR if the library raised for it without doing so."""
    if task is None or task.state == TaskState.CANCELLED:
        return
    if task.state == TaskState.ERROR:
        # A failed preScript left a user task ERROR before it was ever READY: running it would
        # complete it with nobody's data. Readying it again re-runs the preScript instead.
        if _PRE_SCRIPT in getattr(exc, "notes", ()):
            task.internal_data[_NOTE] = {"phase": "update", "state": int(TaskState.FUTURE)}
        return
    if task.state & _READYING:
        phase = "update"
    elif task.state == TaskState.READY:
        phase = "ready"
    elif task.state == TaskState.STARTED:
        phase = "merge"
    else:  # COMPLETED: its completion (data outputs) failed; running it again redoes that
        phase = "run"
    task.internal_data[_NOTE] = {"phase": phase, "state": int(task.state)}
    task._set_state(TaskState.ERROR)


def update_skipped_siblings(task) -> list:
    """Ready the steps the library skipped when `task` failed while being readied; returns the
    errors they raise in turn (each sibling is its own step)."""
    failed = task.internal_data.get(_NOTE) or {}
    if failed.get("phase") != "update":
        return []
    errors = []
    for sibling in _skipped_siblings(task):
        try:
            sibling.task_spec._update(sibling)
        except WorkflowException as exc:
            errors.append(exc)
    return errors


def retry_failed(task) -> None:
    """Re-run the phase `task` failed in; raises the library's error again if it still fails."""
    failed = task.internal_data.pop(_NOTE, None) or {"phase": "run"}
    phase = failed["phase"]
    if phase == "update":
        task._set_state(failed["state"])
        task.task_spec._update(task)
    elif phase == "ready":
        task._set_state(TaskState.FUTURE)
        task._ready()
    elif phase == "merge":
        task._set_state(TaskState.STARTED)
        _resume_merge(task)
    else:
        task._set_state(TaskState.READY)
        task.run()


def _skipped_siblings(task) -> list:
    # The library readies a finished task's children in order and stopped at the one that failed:
    # the ones after it (a parallel split's other branches) were never readied.
    parent = task.parent
    if parent is None or parent.state != TaskState.COMPLETED or task not in parent.children:
        return []
    return [s for s in parent.children[parent.children.index(task) + 1:] if s.has_state(_NOT_YET)]


def _resume_merge(task) -> None:
    """The rest of the library's merge_child after the instance was merged: decide whether the
    loop or multi-instance is done, else start the next instance."""
    spec = task.task_spec
    if isinstance(spec, StandardLoopTask):
        if spec.loop_complete(task):
            task._set_state(TaskState.READY)
        else:
            spec.create_child(task)
    elif isinstance(spec, SequentialMultiInstanceTask):
        if spec.children_complete(task) or spec.check_completion_condition(task):
            task._set_state(TaskState.READY)
        else:
            spec.add_next_child(task)
    elif isinstance(spec, ParallelMultiInstanceTask):
        if spec.check_completion_condition(task):
            for child in spec._instances(task):
                child.cancel()
            task._set_state(TaskState.READY)
        elif spec.children_complete(task):
            task._set_state(TaskState.READY)
