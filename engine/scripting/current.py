"""What a running script belongs to: the element, the SpiffWorkflow task and the command's helpers.

A leaf: the binding sets these while a script or expression runs; helpers that must know where
they were called from (the history's element id, the waiting timer to move) read them through the
two functions below, never through the variables themselves.
"""
from __future__ import annotations

from contextvars import ContextVar

element: ContextVar[str | None] = ContextVar("tramite_current_element", default=None)
task: ContextVar = ContextVar("tramite_current_task", default=None)
binding: ContextVar = ContextVar("tramite_script_binding", default=None)


def current_element() -> str | None:
    """The BPMN id of the element whose script or expression is running (None outside one)."""
    return element.get()


def current_task():
    """The SpiffWorkflow task whose script is running (None outside one)."""
    return task.get()
