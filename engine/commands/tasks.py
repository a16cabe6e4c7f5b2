"""Claim, release, assign and complete human tasks."""
from __future__ import annotations

from SpiffWorkflow.util.task import TaskState
from sqlalchemy import select

from .. import accounts, forms, views
from ..errors import Conflict, Forbidden, NotFound, ValidationFailed
from ..persistence.models import ProcessDefinition, ProcessInstance, Task
from ..runtime.case import Case
from ..rules.decision import RuleViolation
from ..runtime.functions import completion_rule


def _open_task(ctx, task_id: int) -> Task:
    row = ctx.session.scalars(select(Task).where(Task.id == task_id).with_for_update()).first()
    if row is None:
        raise NotFound(f"there is no task {task_id}")
    if row.state != "open":
        raise Conflict(f"task {task_id} is {row.state}, not open", code="TASK_NOT_OPEN")
    return row


def _check_lane(actor, row: Task) -> None:
    if not actor.holds(row.lane):
        raise Forbidden(f"task {row.id} belongs to the role {row.lane!r}")


def _check_not_someone_elses(actor, row: Task) -> None:
    if row.assignee and row.assignee != actor.username:
        raise Conflict(f"task {row.id} is claimed by {row.assignee}", code="TASK_CLAIMED_BY_OTHER")


def claim(ctx, task_id: int) -> dict:
    row = _open_task(ctx, task_id)
    _check_lane(ctx.actor, row)
    _check_not_someone_elses(ctx.actor, row)
    if row.assignee != ctx.actor.username:
        row.assignee = ctx.actor.username
        ctx.audit("task_claimed", instance_id=row.instance_id, task_id=row.id, element_id=row.element_id)
    return views.task(ctx.session, row)


def unclaim(ctx, task_id: int) -> dict:
    row = _open_task(ctx, task_id)
    if row.assignee != ctx.actor.username and not ctx.actor.is_supervisor:
        if not ctx.actor.holds(row.lane):
            raise Forbidden(f"task {row.id} belongs to the role {row.lane!r}")
        raise Conflict(f"task {row.id} is claimed by {row.assignee}", code="TASK_CLAIMED_BY_OTHER")
    if row.assignee is not None:
        ctx.audit("task_released", instance_id=row.instance_id, task_id=row.id,
                  element_id=row.element_id, data={"was": row.assignee})
        row.assignee = None
    return views.task(ctx.session, row)


def assign(ctx, task_id: int, username: str) -> dict:
    if not ctx.actor.is_supervisor:
        raise Forbidden("only a supervisor may assign tasks")
    row = _open_task(ctx, task_id)
    user = accounts.get_user(ctx.session, username)
    if row.lane not in user.role_ids:
        raise ValidationFailed(f"{username} does not hold the role {row.lane!r}",
                               {"username": [f"does not hold the role {row.lane}"]})
    ctx.audit("task_assigned", instance_id=row.instance_id, task_id=row.id, element_id=row.element_id,
              data={"from": row.assignee, "to": username})
    row.assignee = username
    return views.task(ctx.session, row)


def complete(ctx, task_id: int, data: dict) -> dict:
    row = _open_task(ctx, task_id)
    _check_lane(ctx.actor, row)
    _check_not_someone_elses(ctx.actor, row)
    if not isinstance(data, dict):
        raise ValidationFailed("data must be an object", {"data": ["must be an object"]})
    instance = ctx.session.get(ProcessInstance, row.instance_id)
    definition = ctx.session.get(ProcessDefinition, instance.definition_id)
    data = forms.validate(forms.find(definition.files, forms.schema_file(row.element_id)), data)
    case = Case.open(ctx, row.instance_id)
    if case.instance.status not in ("active", "error"):
        raise Conflict(f"case {instance.case_number} is {instance.status}", code="CASE_NOT_ACTIVE")
    rule = completion_rule(instance.process_key, row.element_id)
    if rule is not None:
        try:
            rule(data, case.variables())
        except RuleViolation as refusal:
            refusal.record = {"type": "task_refused", "instance_id": row.instance_id, "task_id": row.id,
                              "element_id": row.element_id, "rule_ids": refusal.rule_ids,
                              "message": refusal.message, "data": {"code": refusal.code, "submitted": data}}
            raise
    spiff_task = case.spiff_task(row.spiff_task_id)
    if spiff_task.state != TaskState.READY:
        raise Conflict(f"task {task_id} is not ready", code="TASK_NOT_OPEN")
    row.assignee = row.assignee or ctx.actor.username
    row.state, row.completed_at, row.completed_by = "completed", ctx.now, ctx.actor.username
    row.data = views.jsonable(data)
    ctx.audit("task_completed", instance_id=row.instance_id, task_id=row.id,
              element_id=row.element_id, data=data)
    case.run_user_task(spiff_task, data)
    case.close()
    ctx.session.flush()
    return {"task": views.task(ctx.session, row), "instance": views.case(ctx.session, case.instance)}
