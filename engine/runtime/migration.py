"""Moving one live workflow onto another version's specs, with the library's own spec diff.

SpiffWorkflow 3.2 aligns two versions of a process (`SpecDiff`: by element id first, then by
shape) and says which of a workflow's tasks sit on removed or changed specs (`WorkflowDiff`).
Its `migrate_workflow` then resets every READY and WAITING task, which would re-arm a timer from
now and drop what a waiting task holds: here only the task specs are swapped, and the predictions
ahead of each live task are drawn again from the new diagram (what `reset_branch` does, without
the reset). So a waiting timer keeps its due instant, an open task keeps its id (and with it its
assignee and due date), and what the case already did stays done.

A case is blocked, and left as it was, when the target cannot carry it: a live or kept task on an
element the target lacks (unless a mapping names its new id), a live element whose kind changes
(a user task become a script, a timer become a message catch), a running sub-process the target
no longer has. `plan` says so without changing anything; `apply` does what `plan` described, so
the preview and the run cannot differ.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from SpiffWorkflow.bpmn.util.diff import SpecDiff
from SpiffWorkflow.util.task import TaskState

from engine.runtime import serializer
from engine.runtime.predictions import AHEAD as _AHEAD
from engine.runtime.predictions import redraw_ahead

_LIVE = TaskState.READY | TaskState.WAITING | TaskState.STARTED | TaskState.ERROR


@dataclass
class Plan:
    """What moving one workflow would do: the new spec of each task, or why it cannot move."""
    blocked: list[str] = field(default_factory=list)
    specs: dict = field(default_factory=dict)        # task -> new spec
    drop: list = field(default_factory=list)         # predicted tasks with no counterpart
    workflows: list = field(default_factory=list)    # (workflow, new spec) pairs


def _label(spec) -> str:
    name = getattr(spec, "bpmn_name", None) or spec.name
    element = getattr(spec, "bpmn_id", None) or spec.name
    return f"«{name}» ({element})" if name != element else f"«{element}»"


def _mapped(old_spec, new_spec_set, mapping: dict):
    """The spec an element renamed by `mapping` (old id → new id) becomes, if any; the library's
    own specs around an element (`<id>.BoundaryEventSplit`, `<id>.BoundaryEventJoin`) follow it."""
    element = getattr(old_spec, "bpmn_id", None)
    if element not in mapping:
        element = next((k for k in mapping if old_spec.name.startswith(k + ".")), None)
        if element is None:
            return None
    renamed = mapping[element] + old_spec.name[len(element):] if old_spec.name.startswith(element) else None
    return new_spec_set.task_specs.get(renamed) or next(
        (s for s in new_spec_set.task_specs.values() if getattr(s, "bpmn_id", None) == mapping[element]), None)


def _kind(spec) -> tuple:
    definition = getattr(spec, "event_definition", None)
    return type(spec).__name__, type(definition).__name__ if definition is not None else None


def _spec_diff(old, new, diffs: dict | None):
    """The library's diff of two specs; a run over many cases of one version computes it once
    (the specs come from the version cache, so every case holds the same objects)."""
    if diffs is None:
        return SpecDiff(serializer._SERIALIZER.registry, old, new)
    key = (id(old), id(new))
    if key not in diffs:
        # The specs are kept with their diff so their ids cannot be reused meanwhile.
        diffs[key] = (old, new, SpecDiff(serializer._SERIALIZER.registry, old, new))
    return diffs[key][2]


def _align_workflow(plan: Plan, workflow, new_spec, mapping: dict, version_label: str, diffs=None) -> None:
    diff = _spec_diff(workflow.spec, new_spec, diffs)
    plan.workflows.append((workflow, new_spec))
    for task in workflow.tasks.values():
        old = task.task_spec
        target = _mapped(old, new_spec, mapping) or diff.alignment.get(old) or new_spec.task_specs.get(old.name)
        if target is None:
            if task.has_state(_AHEAD):
                plan.drop.append(task)
            elif task.has_state(_LIVE):
                plan.blocked.append(f"El caso está en el paso {_label(old)}, que no existe en la versión "
                                    f"{version_label}.")
            else:
                plan.blocked.append(f"El caso conserva el paso ya cumplido {_label(old)}, que no existe en la "
                                    f"versión {version_label}; indique su nuevo identificador en el mapeo.")
            continue
        if task.has_state(_LIVE) and _kind(old) != _kind(target):
            plan.blocked.append(f"El paso {_label(old)} cambia de tipo en la versión {version_label} "
                                f"({_kind(old)[0]} → {_kind(target)[0]}): el resultado no estaría definido.")
            continue
        plan.specs[task] = target


def plan(workflow, new_spec, new_subprocess_specs: dict, mapping: dict | None = None,
         version_label: str = "nueva", diffs: dict | None = None) -> Plan:
    """What moving `workflow` onto `new_spec` would do; nothing is changed."""
    mapping = mapping or {}
    result = Plan()
    _align_workflow(result, workflow, new_spec, mapping, version_label, diffs)
    for sub in workflow.subprocesses.values():
        name = sub.spec.name
        target = new_spec if name == new_spec.name else new_subprocess_specs.get(name)
        if target is None:
            if any(t.has_state(_LIVE) for t in sub.tasks.values()):
                result.blocked.append(f"El subproceso «{name}» en curso no existe en la versión {version_label}.")
            continue
        _align_workflow(result, sub, target, mapping, version_label, diffs)
    return result


def apply(workflow, new_spec, new_subprocess_specs: dict, moving: Plan) -> None:
    """Carry out `moving` (a plan with nothing blocked) on `workflow`."""
    assert not moving.blocked, moving.blocked
    for task in moving.drop:
        if task.id in task.workflow.tasks:
            task.workflow._remove_task(task.id)
    for wf, spec in moving.workflows:
        wf.spec = spec
    workflow.subprocess_specs = new_subprocess_specs
    for task, spec in moving.specs.items():
        task.task_spec = spec
    # What lies ahead of each live task is drawn again from the new diagram: the old predictions
    # may name steps the new version moved, and the library refuses to replace a FUTURE child.
    for wf, _spec in moving.workflows:
        for task in list(wf.tasks.values()):
            if task.id in wf.tasks and task.has_state(TaskState.READY | TaskState.WAITING):
                redraw_ahead(task)

