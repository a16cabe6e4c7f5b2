"""What one task sees beyond the case's merged variables."""
from __future__ import annotations


def task_scope(task) -> dict:
    """The values a task holds for itself, which the case's merged variables cannot show: every
    instance of a parallel multi-instance holds its own item under one name (the merge shows the
    newest), and a step inside a sub-process its sub-process's scope. Empty for any other task."""
    if task.workflow is not task.workflow.top_workflow:
        return dict(task.data)
    parent = task.parent
    item = getattr(getattr(parent, "task_spec", None), "input_item", None)
    if item is not None and item.bpmn_id in task.data:
        return {item.bpmn_id: task.data[item.bpmn_id]}
    return {}
