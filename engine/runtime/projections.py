"""Keeps the `task` and `timer` tables in step with a case's workflow at the end of each command.

Lists, inboxes, dashboards and the timer worker read only these tables, never a workflow. The
rows this leaves open are handed back to the command, which answers with them without reading
them again.
"""
from __future__ import annotations

from datetime import datetime, timezone

from SpiffWorkflow.bpmn.specs.event_definitions.multiple import MultipleEventDefinition
from SpiffWorkflow.bpmn.specs.event_definitions.timer import TimerEventDefinition
from SpiffWorkflow.util.task import TaskState
from sqlalchemy import bindparam, insert, select, update

from engine.definitions import case_index
from engine.persistence.models import ProcessInstance, Timer
from engine.persistence.tables import IS_OPEN, TASK, TASK_COLUMNS
from engine.runtime.scopes import task_scope
from engine.runtime.serializer import to_json_value

TIMER = Timer.__table__
_OPEN_TASKS = (select(*TASK_COLUMNS)
               .where(TASK.c.instance_id == bindparam("instance_id"), IS_OPEN).order_by(TASK.c.id))
_OPEN_TASKS_OF = (select(*TASK_COLUMNS)
                  .where(TASK.c.instance_id.in_(bindparam("ids", expanding=True)), IS_OPEN).order_by(TASK.c.id))
_CANCEL_TASKS = (update(TASK).where(TASK.c.id.in_(bindparam("ids", expanding=True)))
                 .values(state="cancelled", completed_at=bindparam("now")))
_INSERT_TASK = insert(TASK).returning(TASK.c.id)
_REPRIORITIZE = (update(TASK).where(TASK.c.instance_id == bindparam("instance_id"), IS_OPEN)
                 .values(priority=bindparam("priority")))
_RUNNING_TIMERS = select(TIMER.c.id, TIMER.c.spiff_task_id, TIMER.c.element_id, TIMER.c.name, TIMER.c.due_at).where(
    TIMER.c.instance_id == bindparam("instance_id"), TIMER.c.fired_at.is_(None), TIMER.c.cancelled.is_(False))
_INSERT_TIMER = insert(TIMER).returning(TIMER.c.id)
# Built once, with bound values: a statement built per call cost more CPU than its round trip
# (SQLAlchemy makes its cache key and looks it up each time).
_TASK_DUE = update(TASK).where(TASK.c.id == bindparam("p_id")).values(due_at=bindparam("p_due"))
_TIMER_DUE = update(TIMER).where(TIMER.c.id == bindparam("p_id")).values(due_at=bindparam("p_due"))
# A timer done with has no lease either: the worker firing it need not write its row again.
_TIMER_FIRED = update(TIMER).where(TIMER.c.id == bindparam("p_id")).values(
    fired_at=bindparam("p_now"), lock_owner=None, lock_expires_at=None)
_TIMER_CANCELLED = update(TIMER).where(TIMER.c.id == bindparam("p_id")).values(
    cancelled=True, lock_owner=None, lock_expires_at=None)
_INSTANCE = ProcessInstance.__table__
_PARENT_INDEX = select(*(_INSTANCE.c[name] for name in case_index.SHOWN)).where(
    _INSTANCE.c.id == bindparam("parent_id"))


def index_case(ctx, record, variables: dict) -> None:
    """The case row's applicant and reference columns, from the variables its procedure names."""
    index = ctx.procedures.case_index(record.process_key)
    inherited = None
    if index.inherit_from_parent and record.parent_instance_id is not None:
        # The row as it is (inherited before, or the parent's own): read once per save of such a
        # case, and only for the procedures that declare it (a farmer's membership case).
        inherited = {name: getattr(record, name) for name in case_index.SHOWN}
        if not inherited["applicant_name"]:
            row = ctx.conn.execute(_PARENT_INDEX, {"parent_id": record.parent_instance_id}).first()
            inherited = dict(row._mapping) if row else None
    for name, value in case_index.project(index, variables, inherited).items():
        setattr(record, name, value)


def _due_of(task) -> datetime | None:
    value = task.internal_data.get("event_value")
    if isinstance(value, dict):  # cycle timers keep their next instant under "next"
        value = value.get("next")
    if not value:
        return None
    try:
        due = TimerEventDefinition.get_datetime(value) if isinstance(value, str) else value
    except ValueError:
        return None
    if due.tzinfo is None:
        due = due.replace(tzinfo=timezone.utc)
    return due.astimezone(timezone.utc)


def _is_timer(task) -> bool:
    definition = getattr(task.task_spec, "event_definition", None)
    # An event-based gateway waits itself, with its timer inside a MultipleEventDefinition.
    parts = definition.event_definitions if isinstance(definition, MultipleEventDefinition) else [definition]
    return any(isinstance(d, TimerEventDefinition) for d in parts)


def waiting_timers(case) -> dict[str, tuple]:
    """{spiff task id: (task, due instant)} for every timer that is counting down."""
    found = {}
    for wf in case._workflows():
        for task in wf.tasks.values():
            if task.state != TaskState.WAITING:
                continue
            if _is_timer(task):
                due = _due_of(task)
                if due is not None:
                    found[str(task.id)] = (task, due)
    return found


def sync(ctx, case) -> tuple[list[dict], list[dict]]:
    """Bring both projections up to date; returns (open task rows, running deadlines)."""
    timers = waiting_timers(case)
    deadlines = _sync_timers(ctx, case, timers)
    earliest_boundary: dict = {}
    for task, due in timers.values():
        if task._parent not in earliest_boundary or due < earliest_boundary[task._parent]:
            earliest_boundary[task._parent] = due
    return _sync_tasks(ctx, case, earliest_boundary), deadlines


def task_priority(variables: dict) -> int:
    """Inbox order set by the diagram (e.g. MAT-28 puts disaster cases first): `task_priority`."""
    value = variables.get("task_priority")
    return int(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else 0


def _writes(ctx, case):
    """Where a write whose result nobody reads goes: the connection, or the lot's collector."""
    return case.writes if case.writes is not None else ctx.conn


def _sync_tasks(ctx, case, earliest_boundary) -> list[dict]:
    conn, record, now = ctx.conn, case.instance, ctx.now
    writes = _writes(ctx, case)
    priority = task_priority(record.variables or {})
    ready = {}
    if record.status != "cancelled":
        for task in case.workflow.get_tasks(state=TaskState.READY, manual=True):
            ready[str(task.id)] = task
    open_rows = _open_rows(conn, case)
    gone = [r["id"] for r in open_rows if r["spiff_task_id"] not in ready]
    if gone:
        writes.execute(_CANCEL_TASKS, {"ids": gone, "now": now})
    still_open = [r for r in open_rows if r["spiff_task_id"] in ready]
    for row in still_open:
        # A boundary deadline moved (an extension, a suspension's end): the task's due date follows.
        due = earliest_boundary.get(ready[row["spiff_task_id"]]._parent)
        if due is not None and row.get("due_at") != due:
            writes.execute(_TASK_DUE, {"p_id": row["id"], "p_due": due})
            row["due_at"] = due
    if any(r.get("priority", priority) != priority for r in still_open):
        conn.execute(_REPRIORITIZE, {"instance_id": record.id, "priority": priority})
    have = {r["spiff_task_id"] for r in open_rows}
    for task_id, task in ready.items():
        if task_id in have:
            continue
        spec = task.task_spec
        row = {"instance_id": record.id, "spiff_task_id": task_id, "element_id": spec.bpmn_id,
               "name": spec.bpmn_name or spec.bpmn_id, "lane": spec.lane, "assignee": None, "state": "open",
               "priority": priority, "created_at": now, "due_at": earliest_boundary.get(task._parent),
               "completed_at": None, "completed_by": None,
               # While open, `data` holds what the task sees beyond the case's merged variables (its
               # multi-instance item, its sub-process's scope): a task page shows the right item.
               # A completion overwrites it with what was submitted.
               "data": to_json_value(task_scope(task)) or None}
        if case.new_task_rows is None:
            row["id"] = conn.execute(_INSERT_TASK, row).scalar_one()
        else:  # inserted by the statement that saves the case, which fills in its id
            row["id"] = None
            case.new_task_rows.append(row)
        still_open.append(row)
    record.workflow_meta = {**(record.workflow_meta or {}), "tramite": {**record.notes, "open_tasks": len(still_open)}}
    return still_open


def _open_rows(conn, case) -> list[dict]:
    """The case's open task rows. Only this module opens and cancels them, and a completion closes
    one, so the count it noted last time tells when there is none left to read."""
    if case.is_new:
        return []
    if case.open_task_rows is not None:
        return case.open_task_rows
    noted = case.instance.notes.get("open_tasks")
    if noted is not None and noted - case.completed_here <= 0:
        return []
    # A task this command completed is still open in the database until the saving statement.
    return [dict(r._mapping) for r in conn.execute(_OPEN_TASKS, {"instance_id": case.instance.id})
            if r.id not in case.closed_task_ids]


def open_rows_of(conn, instance_ids: list[int]) -> dict[int, list[dict]]:
    """The open task rows of several cases in one statement (a timer lot), for `Case.open_task_rows`."""
    found: dict[int, list[dict]] = {iid: [] for iid in instance_ids}
    for row in conn.execute(_OPEN_TASKS_OF, {"ids": list(instance_ids)}):
        found[row.instance_id].append(dict(row._mapping))
    return found


def _sync_timers(ctx, case, timers) -> list[dict]:
    conn, record, now = ctx.conn, case.instance, ctx.now
    writes = _writes(ctx, case)
    notes = record.notes
    rows = []
    # Most commands of most cases have no timer running: skip the read when none was left last time.
    if case.running_timers is not None:  # the command read them already (a firing: its one timer)
        rows = case.running_timers
    elif notes.get("timers") and not case.is_new:
        rows = [dict(r._mapping) for r in conn.execute(_RUNNING_TIMERS, {"instance_id": record.id})]
    running = []
    for row in rows:
        task_id = row["spiff_task_id"]
        if task_id in timers:
            due = timers[task_id][1]
            if row["due_at"] != due:  # a running deadline was moved (an extension)
                writes.execute(_TIMER_DUE, {"p_id": row["id"], "p_due": due})
                row["due_at"] = due
            running.append(row)
            continue
        task = case.find_task(task_id)
        fired = task is not None and task.state == TaskState.COMPLETED
        if fired:
            writes.execute(_TIMER_FIRED, {"p_id": row["id"], "p_now": now})
        else:
            writes.execute(_TIMER_CANCELLED, {"p_id": row["id"]})
        case.settled_timers.add(row["id"])
    known = {row["spiff_task_id"] for row in rows}
    for task_id, (task, due) in timers.items():
        if task_id in known:
            continue
        spec = task.task_spec
        row = {"instance_id": record.id, "spiff_task_id": task_id, "element_id": spec.bpmn_id or spec.name,
               "name": spec.bpmn_name or spec.bpmn_id or spec.name, "due_at": due}
        if case.new_timer_rows is None:
            row["id"] = conn.execute(_INSERT_TIMER, row).scalar_one()
        else:  # inserted by the statement that saves the case; nothing in the command needs its id
            row["id"] = None
            case.new_timer_rows.append(row)
        running.append(row)
    record.workflow_meta = {**(record.workflow_meta or {}), "tramite": {**notes, "timers": len(running)}}
    return sorted(({"name": r["name"], "element_id": r["element_id"], "due_at": r["due_at"]} for r in running),
                  key=lambda d: d["due_at"])


def relabel(ctx, case) -> None:
    """After a migration, the open task and running timer rows name the element each task now
    stands on (a renamed element, a new name or lane); ids, assignees and due instants stay. Only
    rows whose words changed are written."""
    conn, instance_id = ctx.conn, case.instance.id
    rows = {r["spiff_task_id"]: r for r in case.open_tasks}
    for task in case.workflow.get_tasks(state=TaskState.READY, manual=True):
        row, spec = rows.get(str(task.id)), task.task_spec
        now = {"element_id": spec.bpmn_id, "name": spec.bpmn_name or spec.bpmn_id, "lane": spec.lane}
        if row is not None and any(row.get(k) != v for k, v in now.items()):
            conn.execute(update(TASK).where(TASK.c.id == row["id"]).values(**now))
            row.update(now)
    for task_id, (task, _due) in waiting_timers(case).items():
        spec = task.task_spec
        element = spec.bpmn_id or spec.name
        conn.execute(update(TIMER).where(TIMER.c.instance_id == instance_id, TIMER.c.spiff_task_id == task_id,
                                         TIMER.c.fired_at.is_(None), TIMER.c.cancelled.is_(False),
                                         (TIMER.c.element_id != element) | (TIMER.c.name != (spec.bpmn_name or element)))
                     .values(element_id=element, name=spec.bpmn_name or element))
