"""Refuses, as the script's own error, a value a case cannot save (engine.persistence.saveable).

Checked right after each script, the value is taken out again and the script task fails naming the
variable, so the case goes to `error` at that element instead of failing the save with a 500, and a
retry runs the script again.
"""
from __future__ import annotations

from SpiffWorkflow.bpmn.exceptions import WorkflowTaskException

from engine.persistence.saveable import first_unsaveable


def refuse_unsaveable(task) -> None:
    """Fail `task` naming the first variable of its data a case cannot save; that variable is
    removed first, so the failed step's data can still be saved with the case in error."""
    found = first_unsaveable(task.data)
    if found:
        del task.data[found[0]]
        raise WorkflowTaskException(found[1], task=task)
