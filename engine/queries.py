"""List and detail queries over the projection tables, with the visibility rules of each role."""
from __future__ import annotations

from datetime import datetime

from sqlalchemy import and_, exists, func, or_, select
from sqlalchemy.orm import Session

from . import forms, views
from .context import Actor
from .errors import Forbidden, NotFound
from .persistence.models import ProcessDefinition, ProcessInstance, Task


def _page(query, page: int, per_page: int):
    return query.limit(per_page).offset((page - 1) * per_page)


def sees_everything(actor: Actor) -> bool:
    return actor.is_supervisor or actor.is_admin


def _visible_instances(actor: Actor):
    if sees_everything(actor):
        return None
    lane_task = exists().where(Task.instance_id == ProcessInstance.id, Task.lane.in_(sorted(actor.roles)))
    return or_(lane_task, ProcessInstance.started_by == actor.username)


def list_instances(session: Session, actor: Actor, now: datetime, *, page=1, per_page=50, process=None,
                   status=None, outcome=None, stage=None, role=None, office=None, overdue=None, q=None):
    conditions = []
    visible = _visible_instances(actor)
    if visible is not None:
        conditions.append(visible)
    for column, value in ((ProcessInstance.process_key, process), (ProcessInstance.status, status),
                          (ProcessInstance.outcome, outcome), (ProcessInstance.stage, stage),
                          (ProcessInstance.office, office)):
        if value:
            conditions.append(column == value)
    if role:
        conditions.append(exists().where(Task.instance_id == ProcessInstance.id, Task.state == "open",
                                         Task.lane == role))
    if overdue:
        conditions.append(exists().where(Task.instance_id == ProcessInstance.id, Task.state == "open",
                                         Task.due_at < now))
    if q:
        like = f"%{q.strip()}%"
        conditions.append(or_(ProcessInstance.case_number.ilike(like), ProcessInstance.started_by.ilike(like)))
    where = and_(*conditions) if conditions else True
    total = session.scalar(select(func.count()).select_from(ProcessInstance).where(where))
    rows = session.scalars(_page(select(ProcessInstance).where(where)
                                 .order_by(ProcessInstance.started_at.desc(), ProcessInstance.id.desc()),
                                 page, per_page)).all()
    versions = dict(session.execute(select(ProcessDefinition.id, ProcessDefinition.version)).all()) if rows else {}
    items = [{"id": r.id, "case_number": r.case_number, "process_key": r.process_key,
              "version": versions.get(r.definition_id), "status": r.status, "outcome": r.outcome,
              "stage": r.stage, "started_at": r.started_at.isoformat(),
              "ended_at": r.ended_at.isoformat() if r.ended_at else None, "started_by": r.started_by,
              "office": r.office} for r in rows]
    return items, total


def get_instance(session: Session, actor: Actor, instance_id: int) -> ProcessInstance:
    instance = session.get(ProcessInstance, instance_id)
    if instance is None:
        raise NotFound(f"there is no case {instance_id}")
    visible = _visible_instances(actor)
    if visible is not None and not session.scalar(select(func.count()).select_from(ProcessInstance)
                                                  .where(ProcessInstance.id == instance_id, visible)):
        raise Forbidden(f"case {instance.case_number} is not in any of your roles")
    return instance


def list_tasks(session: Session, actor: Actor, now: datetime, *, page=1, per_page=50, scope=None,
               state="open", process=None, instance=None, element_id=None, overdue=None):
    conditions = []
    mine = Task.assignee == actor.username
    available = and_(Task.state == "open", Task.assignee.is_(None), Task.lane.in_(sorted(actor.roles)))
    if scope == "all":
        if not sees_everything(actor):
            raise Forbidden("only supervisors may list every task")
    elif scope == "mine":
        conditions.append(mine)
    elif scope == "available":
        conditions.append(available)
    else:
        conditions.append(or_(mine, available))
    if state and state != "any":
        conditions.append(Task.state == state)
    if instance:
        conditions.append(Task.instance_id == instance)
    if element_id:
        conditions.append(Task.element_id == element_id)
    if overdue:
        conditions.append(and_(Task.state == "open", Task.due_at < now))
    query = select(Task, ProcessInstance).join(ProcessInstance, ProcessInstance.id == Task.instance_id)
    if process:
        conditions.append(ProcessInstance.process_key == process)
    where = and_(*conditions)
    total = session.scalar(select(func.count()).select_from(Task)
                           .join(ProcessInstance, ProcessInstance.id == Task.instance_id).where(where))
    # Priority first (MAT-28 puts disaster cases ahead), then the nearest due date, then age.
    rows = session.execute(_page(query.where(where).order_by(
        Task.priority.desc(), Task.due_at.is_(None), Task.due_at, Task.id), page, per_page)).all()
    return [views.task(session, t, i) for t, i in rows], total


def get_task(session: Session, actor: Actor, task_id: int) -> dict:
    row = session.get(Task, task_id)
    if row is None:
        raise NotFound(f"there is no task {task_id}")
    if not (sees_everything(actor) or actor.holds(row.lane) or row.assignee == actor.username):
        raise Forbidden(f"task {task_id} belongs to the role {row.lane!r}")
    instance = session.get(ProcessInstance, row.instance_id)
    definition = session.get(ProcessDefinition, instance.definition_id)
    out = views.task(session, row, instance)
    out["form"] = {"schema": forms.find(definition.files, forms.schema_file(row.element_id)) or {},
                   "ui": forms.find(definition.files, forms.ui_file(row.element_id)) or {}}
    out["data"] = {"case": instance.variables or {}, "submitted": row.data or {}}
    return out


def list_processes(session: Session) -> list[dict]:
    rows = session.execute(select(ProcessDefinition.key, ProcessDefinition.version, ProcessDefinition.name,
                                  ProcessDefinition.id).order_by(ProcessDefinition.key,
                                                                 ProcessDefinition.version)).all()
    running = dict(session.execute(select(ProcessInstance.definition_id, func.count())
                                   .where(ProcessInstance.status.in_(["active", "error"]))
                                   .group_by(ProcessInstance.definition_id)).all())
    out: dict[str, dict] = {}
    for key, version, name, def_id in rows:
        entry = out.setdefault(key, {"key": key, "versions": [], "running_cases": {}})
        entry["versions"].append(version)
        entry["latest_version"], entry["name"] = version, name
        entry["running_cases"][str(version)] = running.get(def_id, 0)
    return list(out.values())
