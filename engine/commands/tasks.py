"""Claim, release, assign and complete human tasks."""
from __future__ import annotations

from types import SimpleNamespace

from SpiffWorkflow.util.task import TaskState
from sqlalchemy import bindparam, delete, exists, select, update

from engine.identity import absences, accounts
from engine.definitions import form_files, forms
from engine.queries import shapes as views
from engine.errors import Conflict, NotFound, ValidationFailed
from engine.kernel import access
from engine.letters.issue import issue_letters
from engine.rules.decision import RuleViolation
from engine.rules.reasons import explain_refusal
from engine.runtime import records
from engine.runtime.case import Case
from engine.runtime.store import Deferred
from engine.rules.calendar import local_date
from engine.rules.facts import Facts
from engine.persistence import compiled
from engine.persistence.models import TaskDraft
from engine.persistence.tables import INSTANCE, TASK, TASK_COLUMNS


# The row lock makes a second claim or completion of the same task wait, then see it closed.
_OPEN_TASK = (select(*TASK_COLUMNS, INSTANCE.c.case_number, INSTANCE.c.process_key, INSTANCE.c.office)
              .select_from(TASK.join(INSTANCE, INSTANCE.c.id == TASK.c.instance_id))
              .where(TASK.c.id == bindparam("task_id")).with_for_update(of=TASK))
_DRAFT = TaskDraft.__table__
# A completion needs the case row too, locked as well: one statement instead of two. It also says
# whether the task has drafts, so that the DELETE of them runs only when there is one (a draft is
# saved under the same task row lock, so none can appear between this read and the commit).
_OPEN_TASK_AND_CASE = (select(*TASK_COLUMNS, INSTANCE.c.case_number, INSTANCE.c.process_key, INSTANCE.c.office,
                              *records.labelled_columns("case_"),
                              exists().where(_DRAFT.c.task_id == TASK.c.id).label("has_drafts"))
                       .select_from(TASK.join(INSTANCE, INSTANCE.c.id == TASK.c.instance_id))
                       .where(TASK.c.id == bindparam("task_id")).with_for_update(of=[TASK, INSTANCE]))
_DROP_DRAFTS = delete(_DRAFT).where(_DRAFT.c.task_id == bindparam("task_id"))
_SET_ASSIGNEE = update(TASK).where(TASK.c.id == bindparam("p_id")).values(assignee=bindparam("p_assignee"))
_COMPLETED_COLUMNS = ("assignee", "state", "completed_at", "completed_by", "data")
_SET_COMPLETED = update(TASK).where(TASK.c.id == bindparam("p_id")).values(
    **{c: bindparam(f"p_{c}") for c in _COMPLETED_COLUMNS})
# PostgreSQL: the completed task's row is written by the statement that saves its case, as one more
# of its CTEs (one round trip fewer per completion). Nothing in the command reads the row back
# before: the projections leave it out of the case's open rows (`Case.closed_task_ids`). Bound with
# the columns' types, as _SET_COMPLETED binds them; the names are the CTE's own (store.Deferred).
_COMPLETED_SQL = ("UPDATE task SET " + ", ".join(f"{c} = :task_done_{c}" for c in _COMPLETED_COLUMNS)
                  + " WHERE id = :task_done_id")
_COMPLETED_BINDS = tuple(bindparam(f"task_done_{c}", type_=TASK.c[c].type) for c in (*_COMPLETED_COLUMNS, "id"))


def _open_task(ctx, task_id: int, statement=_OPEN_TASK) -> SimpleNamespace:
    row = compiled.run(ctx.conn, statement, {"task_id": task_id}).first()
    if row is None:
        raise NotFound(f"there is no task {task_id}")
    if row.state != "open":
        raise Conflict(f"task {task_id} is {row.state}, not open", code="TASK_NOT_OPEN")
    return SimpleNamespace(**row._mapping)


def _set(ctx, row, **values) -> None:
    statement = _SET_ASSIGNEE if set(values) == {"assignee"} else _SET_COMPLETED
    ctx.conn.execute(statement, {"p_id": row.id, **{f"p_{k}": v for k, v in values.items()}})
    for key, value in values.items():
        setattr(row, key, value)


def _set_completed(ctx, case, row, **values) -> None:
    """`_set` of a completion; on PostgreSQL the write rides in the case's saving statement."""
    if ctx.conn.dialect.name != "postgresql":
        _set(ctx, row, **values)
        return
    for key, value in values.items():
        setattr(row, key, value)
    case.deferred_writes.append(Deferred("task_done", _COMPLETED_SQL, _COMPLETED_BINDS,
                                         {**{f"task_done_{k}": v for k, v in values.items()}, "task_done_id": row.id}))
    case.closed_task_ids.add(row.id)


def _view(row) -> dict:
    return views.task(vars(row), row.case_number, row.process_key)



def _check_lane(ctx, row) -> None:
    access.check_task_actor(ctx.actor, row.id, row.lane, row.office,
                            ctx.procedures.lane_refusal(row.process_key, row.element_id))


def _check_not_someone_elses(actor, row) -> None:
    if row.assignee and row.assignee != actor.username:
        raise Conflict(f"task {row.id} is claimed by {row.assignee}", code="TASK_CLAIMED_BY_OTHER")


def _standing_in_for(ctx, row) -> str | None:
    """The absent assignee whose substitute the actor is while the absence lasts (engine clock)."""
    if row.assignee in (None, ctx.actor.username):
        return None
    return row.assignee if absences.substitute_of(ctx.conn, row.assignee, ctx.now) == ctx.actor.username else None


def claim(ctx, task_id: int) -> dict:
    row = _open_task(ctx, task_id)
    _check_lane(ctx, row)
    _check_not_someone_elses(ctx.actor, row)
    if row.assignee != ctx.actor.username:
        _set(ctx, row, assignee=ctx.actor.username)
        ctx.audit("task_claimed", instance_id=row.instance_id, task_id=row.id, element_id=row.element_id)
    return _view(row)


def unclaim(ctx, task_id: int) -> dict:
    row = _open_task(ctx, task_id)
    if row.assignee != ctx.actor.username and not ctx.actor.is_supervisor:
        _check_lane(ctx, row)  # another role or another office learns nothing about the holder
        raise Conflict(f"task {row.id} is claimed by {row.assignee}", code="TASK_CLAIMED_BY_OTHER")
    if row.assignee is not None:
        ctx.audit("task_released", instance_id=row.instance_id, task_id=row.id,
                  element_id=row.element_id, data={"was": row.assignee})
        _set(ctx, row, assignee=None)
    return _view(row)


def assign(ctx, task_id: int, username: str) -> dict:
    access.require_supervisor(ctx.actor, "assign tasks")
    row = _open_task(ctx, task_id)
    user = accounts.get_user(ctx.session, username)
    if row.lane not in user.role_ids:
        raise ValidationFailed(f"{username} does not hold the role {row.lane!r}",
                               {"username": [f"does not hold the role {row.lane}"]})
    ctx.audit("task_assigned", instance_id=row.instance_id, task_id=row.id, element_id=row.element_id,
              data={"from": row.assignee, "to": username})
    _set(ctx, row, assignee=username)
    return _view(row)


def complete(ctx, task_id: int, data: dict) -> dict:
    row = _open_task(ctx, task_id, _OPEN_TASK_AND_CASE)
    _check_lane(ctx, row)
    on_behalf_of = _standing_in_for(ctx, row)
    if on_behalf_of is None:
        _check_not_someone_elses(ctx.actor, row)
    if not isinstance(data, dict):
        raise ValidationFailed("data must be an object", {"data": ["must be an object"]})
    case = Case.open(ctx, row.instance_id, records.from_labelled(vars(row), "case_"))
    data = forms.validate(form_files.task_form(case.definition.files, row.element_id).schema, data)
    if case.instance.status not in ("active", "error"):
        raise Conflict(f"case {row.case_number} is {case.instance.status}", code="CASE_NOT_ACTIVE")
    spiff_task = case.spiff_task(row.spiff_task_id)
    def facts():
        return Facts(case=case.task_context(spiff_task), today=local_date(ctx.now), actor=ctx.actor.username,
                     office=ctx.actor.office)
    try:
        ctx.procedures.check_completion(ctx, row.process_key, row.element_id, data, facts)
    except RuleViolation as refusal:
        ctx.keep_refusal("task_refused", instance_id=row.instance_id, task_id=row.id, element_id=row.element_id,
                         rule_ids=refusal.rule_ids, message=refusal.message,
                         data={"code": refusal.code, "submitted": data, "reasons": explain_refusal(refusal)})
        raise
    if spiff_task.state != TaskState.READY:
        raise Conflict(f"task {task_id} is not ready", code="TASK_NOT_OPEN")
    _set_completed(ctx, case, row, assignee=row.assignee or ctx.actor.username, state="completed",
                   completed_at=ctx.now, completed_by=ctx.actor.username, data=views.jsonable(data))
    case.completed_here += 1
    if row.has_drafts:  # a completed task's drafts are no one's work now
        ctx.conn.execute(_DROP_DRAFTS, {"task_id": row.id})
    ctx.audit("task_completed", instance_id=row.instance_id, task_id=row.id, element_id=row.element_id, data=data,
              message=f"on behalf of {on_behalf_of}" if on_behalf_of else None)
    if on_behalf_of:
        ctx.audit("task_completed_on_behalf", instance_id=row.instance_id, task_id=row.id, element_id=row.element_id,
                  data={"on_behalf_of": on_behalf_of, "substitute": ctx.actor.username})
    case.run_user_task(spiff_task, data)
    issue_letters(ctx, case, task_id=row.id, element_id=row.element_id)
    case.close()
    return {"task": _view(row), "instance": views.case_of(case)}
