"""Read models: the JSON shapes of API.md built from the projection tables, never from workflows."""
from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from .persistence.models import AuditEvent, ProcessDefinition, ProcessInstance, Task, Timer, User
from .runtime.serializer import to_json_value


def jsonable(value):
    return to_json_value(value)


def _iso(value):
    return value.isoformat() if value is not None else None


def task(session: Session, row: Task, instance: ProcessInstance | None = None) -> dict:
    instance = instance or session.get(ProcessInstance, row.instance_id)
    return {
        "id": row.id, "instance_id": row.instance_id, "case_number": instance.case_number,
        "process_key": instance.process_key, "element_id": row.element_id, "name": row.name,
        "lane": row.lane, "assignee": row.assignee, "state": row.state,
        "created_at": _iso(row.created_at), "due_at": _iso(row.due_at),
        "completed_at": _iso(row.completed_at), "completed_by": row.completed_by,
    }


def deadlines(session: Session, instance_id: int) -> list[dict]:
    rows = session.scalars(select(Timer).where(Timer.instance_id == instance_id, Timer.fired_at.is_(None),
                                               Timer.cancelled.is_(False)).order_by(Timer.due_at)).all()
    return [{"name": t.name, "element_id": t.element_id, "due_at": _iso(t.due_at)} for t in rows]


def case(session: Session, instance: ProcessInstance) -> dict:
    definition = session.get(ProcessDefinition, instance.definition_id)
    open_tasks = session.scalars(select(Task).where(Task.instance_id == instance.id, Task.state == "open")
                                 .order_by(Task.id)).all()
    return {
        "id": instance.id, "case_number": instance.case_number, "process_key": instance.process_key,
        "version": definition.version, "status": instance.status, "outcome": instance.outcome,
        "stage": instance.stage, "variables": instance.variables or {},
        "open_tasks": [task(session, t, instance) for t in open_tasks],
        "deadlines": deadlines(session, instance.id),
        "started_at": _iso(instance.started_at), "ended_at": _iso(instance.ended_at),
        "started_by": instance.started_by, "office": instance.office,
        "error": ({"message": instance.error_message, "element_id": instance.error_element}
                  if instance.status == "error" else None),
    }


def history(session: Session, instance_id: int) -> list[dict]:
    rows = session.scalars(select(AuditEvent).where(AuditEvent.instance_id == instance_id)
                           .order_by(AuditEvent.id)).all()
    out = []
    for e in rows:
        out.append({"at": _iso(e.at), "actor": e.actor, "type": e.type, "element_id": e.element_id,
                    "task_id": e.task_id, "data": e.data or {}, "rule_ids": e.rule_ids or [],
                    "message": e.message})
    return out


def activity(session: Session, instance: ProcessInstance) -> dict:
    """{element id: {state, count}}: counts of completed visits plus what is active or waiting now."""
    out = {element: {"state": "completed", "count": n} for element, n in (instance.activity or {}).items()}
    for row in session.scalars(select(Task).where(Task.instance_id == instance.id, Task.state == "open")):
        out.setdefault(row.element_id, {"count": 0})["state"] = "active"
    for row in session.scalars(select(Timer).where(Timer.instance_id == instance.id, Timer.fired_at.is_(None),
                                                   Timer.cancelled.is_(False))):
        out.setdefault(row.element_id, {"count": 0})["state"] = "waiting"
    for element in (instance.workflow_meta or {}).get("tramite", {}).get("waiting_messages", []):
        out.setdefault(element, {"count": 0})["state"] = "waiting"
    if instance.status == "error" and instance.error_element:
        out.setdefault(instance.error_element, {"count": 0})["state"] = "error"
    return out


def user(u: User) -> dict:
    return {"id": u.id, "username": u.username, "full_name": u.full_name, "roles": u.role_ids,
            "office": u.office, "active": u.active}


def definition(d: ProcessDefinition, with_files: bool = False) -> dict:
    out = {"key": d.key, "version": d.version, "name": d.name, "hash": d.hash,
           "deployed_by": d.deployed_by, "deployed_at": _iso(d.deployed_at),
           "starter_lane": d.summary.get("starter_lane"), "lanes": d.summary.get("lanes", []),
           "elements": d.summary.get("elements", []), "messages": d.summary.get("messages", []),
           "children": d.summary.get("children", {})}
    if with_files:
        import json
        out["forms"] = {name: json.loads(content) for name, content in d.files.items()
                        if name.endswith(".json")}
        out["files"] = sorted(d.files)
    return out
