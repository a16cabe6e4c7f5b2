"""A supervisor's move (API.md §Running cases): the open work at one element is cancelled and
another element becomes active, to repair a case that took a wrong path on a data error.

The move goes through the library's own task operations — `Task.cancel` for the open work, and
for the new step what `Task.reset_branch` does (a FUTURE child predicted and updated, which makes
a task READY or a catch event WAITING) — so the saved state is one the library built. It is
refused where the result would be undefined: work inside a multi-instance, a target for which some
join ahead would see other branches arrive than from the source (a target inside a parallel branch
set, or out of one while its sibling branches run), a target in another sub-process, a joining
gateway, or an event that only its host can start.
"""
from __future__ import annotations

from copy import deepcopy

from SpiffWorkflow.bpmn.specs.control import BoundaryEventSplit, _EndJoin
from SpiffWorkflow.bpmn.specs.mixins.events.intermediate_event import BoundaryEvent
from SpiffWorkflow.bpmn.specs.mixins.events.start_event import StartEvent
from SpiffWorkflow.bpmn.specs.mixins.multiinstance_task import LoopTask
from SpiffWorkflow.bpmn.specs.mixins.unstructured_join import UnstructuredJoin
from SpiffWorkflow.util.task import TaskState

from engine.errors import Conflict, ValidationFailed
from engine.kernel import access
from engine.queries import shapes as views
from engine.runtime.case import Case
from engine.runtime.predictions import start_under

_OPEN = TaskState.READY | TaskState.WAITING | TaskState.STARTED | TaskState.ERROR


def _refuse(message: str, field: str = "to_element"):
    raise ValidationFailed(message, {field: [message], "rule": ["MOVE_UNDEFINED"]})


def _open_at(case: Case, element: str) -> list:
    return [t for wf in (case.workflow, *case.workflow.subprocesses.values())
            for t in wf.get_tasks(state=_OPEN, skip_subprocesses=True) if t.task_spec.bpmn_id == element]


def _unit(task):
    """The task whose subtree is the open work: a task with boundary events is opened by its split."""
    parent = task.parent
    return parent if parent is not None and isinstance(parent.task_spec, BoundaryEventSplit) else task


def _entry_spec(spec_set, element: str):
    """The spec to activate for `element`: its boundary split when it carries boundary events."""
    specs = [s for s in spec_set.task_specs.values() if s.bpmn_id == element]
    if not specs:
        return None
    spec = specs[0]
    split = next((s for s in spec_set.task_specs.values()
                  if isinstance(s, BoundaryEventSplit) and spec in s.outputs), None)
    return split or spec


def _reachable(spec) -> set:
    seen, stack = set(), [spec]
    while stack:
        current = stack.pop()
        if current in seen:
            continue
        seen.add(current)
        stack.extend(current.outputs)
    return seen


def _joins_ahead(spec) -> dict:
    """{join: the join's inputs reachable from `spec`} for the joins that wait for branches."""
    ahead = _reachable(spec)
    # The end join waits for every thread whatever end event it reaches: not a join of branches.
    return {j: frozenset(i for i in j.inputs if i in ahead) for j in ahead
            if isinstance(j, UnstructuredJoin) and not isinstance(j, _EndJoin) and len(j.inputs) > 1}


def _join_mismatch(source_spec, target_spec):
    """A join the move would change the arrivals of (it would wait for a branch that never comes,
    or count one twice), or None when the target stands where the source stood for every join."""
    before, after = _joins_ahead(source_spec), _joins_ahead(target_spec)
    for join in set(before) | set(after):
        if before.get(join) != after.get(join):
            return join
    return None


def _check_target(spec_set, spec, element: str) -> None:
    if isinstance(spec, (BoundaryEvent, StartEvent)):
        _refuse(f"«{element}» es un evento de inicio o de borde: sólo su proceso o su tarea lo activan.")
    if isinstance(spec, UnstructuredJoin):
        _refuse(f"«{element}» es una compuerta que une ramas: active el elemento que la sigue o las ramas antes de "
                f"su división.")
    if any(isinstance(s, LoopTask) and s.task_spec == spec.name for s in spec_set.task_specs.values()):
        _refuse(f"«{element}» está dentro de una tarea de instancias múltiples: el resultado no estaría definido.")


def move_case(ctx, instance_id: int, from_element: str, to_element: str, reason: str) -> dict:
    access.require_supervisor(ctx.actor, "move a case")
    if not isinstance(reason, str) or not reason.strip():
        raise ValidationFailed("a reason is required", {"reason": ["required"]})
    case = Case.open(ctx, instance_id)
    if case.instance.status not in ("active", "error"):
        raise Conflict(f"case {case.instance.case_number} is {case.instance.status}", code="CASE_NOT_ACTIVE")
    found = _open_at(case, from_element)
    if not found:
        raise Conflict(f"El caso no tiene trabajo abierto en «{from_element}».", code="NOT_AT_ELEMENT")
    if len(found) > 1 or any(isinstance(t.parent.task_spec, LoopTask) for t in found if t.parent):
        _refuse(f"«{from_element}» tiene varias instancias abiertas: el resultado no estaría definido.",
                "from_element")
    source = _unit(found[0])
    workflow = source.workflow
    target = _entry_spec(workflow.spec, to_element)
    if target is None:
        _refuse(f"«{to_element}» no es un elemento del proceso en que está «{from_element}».")
    _check_target(workflow.spec, target, to_element)
    join = _join_mismatch(found[0].task_spec, target)
    if join is not None:
        others = sorted({t.task_spec.bpmn_id or t.task_spec.name for t in workflow.get_tasks(
            state=_OPEN, skip_subprocesses=True) if t is not source and not t.is_descendant_of(source)
            and not source.is_descendant_of(t) and not isinstance(t.task_spec, LoopTask)})
        where = f"«{join.bpmn_id or join.name}»"
        if others:
            _refuse(f"El caso tiene otras ramas abiertas ({', '.join(others)}): desde «{from_element}» a "
                    f"«{to_element}» la unión {where} contaría mal sus ramas.", "from_element")
        _refuse(f"«{to_element}» está dentro de un conjunto de ramas en paralelo: la unión {where} esperaría "
                f"ramas que no llegarían.")
    anchor = source.parent
    data = deepcopy(found[0].data)
    source.cancel()
    step = start_under(anchor, target, data)
    if not step.has_state(_OPEN | TaskState.COMPLETED):
        # The library would not start it (its inputs are not met): the transaction rolls back.
        _refuse(f"«{to_element}» no puede empezar desde «{from_element}».")
    ctx.audit("case_moved", instance_id=instance_id, element_id=to_element, message=reason,
              data={"from_element": from_element, "to_element": to_element, "reason": reason})
    case.advance()
    case.close()
    return views.case_of(case)
