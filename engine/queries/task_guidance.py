"""What the diagram tells the person doing a task: the modeler's "instructions for the end user"
(`spiffworkflow:instructionsForEndUser`), or the element's `bpmn:documentation` when it has none.
Raw text as the process owner wrote it (Markdown with `{{ variable }}` placeholders); the pages
render it sanitized."""
from __future__ import annotations

from engine.definitions.repository import specs_for


def instructions(versions, session, definition, element_id: str) -> str:
    spec, subprocess_specs = specs_for(versions, session, definition)
    for process in (spec, *subprocess_specs.values()):
        for task_spec in process.task_specs.values():
            if getattr(task_spec, "bpmn_id", None) == element_id:
                text = (getattr(task_spec, "extensions", None) or {}).get("instructionsForEndUser")
                return str(text or getattr(task_spec, "documentation", None) or "").strip()
    return ""
