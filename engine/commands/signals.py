"""Broadcast a signal (POST /signals/{name}): every active case waiting for it receives it.

A signal, unlike a message, names no case (BPMN): it reaches every catch event, boundary event
and event-based gateway waiting for that name. Deploy accepts a signal catch only because this
command can send one; which versions catch which names is read from their deploy summaries.
"""
from __future__ import annotations

from SpiffWorkflow.bpmn.util.event import BpmnEvent
from SpiffWorkflow.spiff.specs.event_definitions import SignalEventDefinition
from SpiffWorkflow.util.task import TaskState
from sqlalchemy import select

from engine.definitions.parsing import describe
from engine.errors import ValidationFailed
from engine.kernel import access
from engine.persistence.models import ProcessDefinition, ProcessInstance
from engine.runtime.case import Case


def _versions_catching(session, name: str) -> list[int]:
    found = []
    for version_id, summary, files in session.execute(
            select(ProcessDefinition.id, ProcessDefinition.summary, ProcessDefinition.files)):
        signals = summary.get("signals")
        if signals is None:  # deployed before summaries listed their signals
            signals = describe({n: c for n, c in files.items() if n.endswith(".bpmn")})["signals"]
        if name in signals:
            found.append(version_id)
    return found


def _catchers(case: Case, event: BpmnEvent) -> list:
    workflow = case.workflow
    return [task for wf in (workflow, *workflow.subprocesses.values()) for task in wf.tasks.values()
            if task.state == TaskState.WAITING and hasattr(task.task_spec, "catches")
            and task.task_spec.catches(task, event)]


def send_signal(ctx, name: str, payload: dict | None) -> dict:
    """`{"delivered_to": [case ids]}`; a signal nobody waits for is lost, as BPMN says (200, empty)."""
    access.require_supervisor(ctx.actor, "send signals")
    payload = {} if payload is None else payload
    if not isinstance(payload, dict):
        raise ValidationFailed("payload must be an object", {"payload": ["must be an object"]})
    versions = _versions_catching(ctx.session, name)
    if not versions:
        return {"delivered_to": []}
    ids = ctx.session.scalars(select(ProcessInstance.id).where(
        ProcessInstance.definition_id.in_(versions), ProcessInstance.status == "active")
        .order_by(ProcessInstance.id)).all()
    delivered = []
    for instance_id in ids:
        case = Case.open(ctx, instance_id)
        case.advance()  # a deadline already due decides before the signal does
        event = BpmnEvent(SignalEventDefinition(name), payload)
        catchers = _catchers(case, event) if case.instance.status == "active" else []
        if catchers:
            ctx.audit("signal_received", instance_id=instance_id, element_id=catchers[0].task_spec.bpmn_id,
                      data={"name": name, "payload": payload})
            case.deliver(name, payload, SignalEventDefinition(name))
            delivered.append(instance_id)
        case.close()
    return {"delivered_to": delivered}
