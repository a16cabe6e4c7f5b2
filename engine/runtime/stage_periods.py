"""The time a case spends in each stage, kept as it happens (case_stage_period, migration 0024).

`stage` is a case variable the diagram sets; the case row keeps only the current one and the
history does not record its changes, so a stage's duration could not be read back later. Each
command that changes it closes the case's open period and opens the next; the report groups closed
periods by an index and never reads the audit table. The open period's id, stage and earliest due
date ride in the case's notes, so a command that leaves the stage alone writes nothing here.

A period is on time when the case left the stage by the earliest due date its open tasks had while
it was in it; one without any due date counts in the durations but not in the on-time share.
"""
from __future__ import annotations

import functools
from datetime import datetime

from sqlalchemy import bindparam, insert, update

from engine.persistence.models import CaseStagePeriod
from engine.runtime.store import Deferred

PERIOD = CaseStagePeriod.__table__
_OPEN = insert(PERIOD).returning(PERIOD.c.id)
# Built once with bound values: building one per call cost more CPU than running it.
_DUE = update(PERIOD).where(PERIOD.c.id == bindparam("p_id")).values(due_at=bindparam("p_due_at"))
_CLOSE = update(PERIOD).where(PERIOD.c.id == bindparam("p_id")).values(
    left_at=bindparam("p_left_at"), office=bindparam("p_office"), seconds=bindparam("p_seconds"),
    on_time=bindparam("p_on_time"))
_OPEN_ONE = (PERIOD.c.instance_id == bindparam("p_iid")) & PERIOD.c.left_at.is_(None)
_DUE_OPEN = update(PERIOD).where(_OPEN_ONE).values(due_at=bindparam("p_due_at"))
_CLOSE_OPEN = update(PERIOD).where(_OPEN_ONE).values(
    left_at=bindparam("p_left_at"), office=bindparam("p_office"), seconds=bindparam("p_seconds"),
    on_time=bindparam("p_on_time"))
ENDED = ("completed", "cancelled")


def _deferred(name: str, sql: str, values: dict) -> Deferred:
    """`sql` with `:name` per column, bound as `<cte name>_<column>` with the column's type."""
    params = {f"{name}_{column}": value for column, value in values.items()}
    return Deferred(name, sql.replace(":", f":{name}_"), _binds(name, tuple(values)), params)


@functools.cache
def _binds(name: str, columns: tuple) -> tuple:
    # Built once per kind of write: building the bind objects at every command cost ~0.5-1 % of the
    # engine's CPU per case (issue 21), and the saving statement they go into is built once too.
    return tuple(bindparam(f"{name}_{column}", type_=PERIOD.c[column].type) for column in columns)


def _update(conn, case_id: int, deferred: list | None, name: str, sets: dict, period_id) -> None:
    """One UPDATE of the case's open period: by its id, or (PostgreSQL, whose periods opened within
    the saving statement have no id in the notes) as the case's one period not left yet."""
    if deferred is not None:
        where = {"id": period_id} if period_id is not None else {"instance_id": case_id}
        clause = "id = :id" if period_id is not None else "instance_id = :instance_id AND left_at IS NULL"
        sql = f"UPDATE case_stage_period SET {', '.join(f'{c} = :{c}' for c in sets)} WHERE {clause}"
        deferred.append(_deferred(name + ("" if period_id is not None else "_open"), sql, {**sets, **where}))
        return
    statement = {"period_due": (_DUE, _DUE_OPEN), "period_closed": (_CLOSE, _CLOSE_OPEN)}[name][period_id is None]
    params = {f"p_{c}": v for c, v in sets.items()}
    params.update({"p_id": period_id} if period_id is not None else {"p_iid": case_id})
    conn.execute(statement, params)


def track(ctx, instance, stage_before: str | None, deferred: list | None = None) -> None:
    """After the case's stage, status and next due date are settled for this command. With a
    `deferred` list (PostgreSQL), its writes go there for the saving statement to run: none needs
    an answer, and nothing reads a period before the commit."""
    current = instance.notes.get("stage_period")  # [period id or None, stage, entered at, earliest due], ISO texts
    stage = None if instance.status in ENDED else instance.stage
    due = instance.next_due_at
    if current and current[1] == stage:
        if due is not None and (current[3] is None or due < datetime.fromisoformat(current[3])):
            _update(ctx.conn, instance.id, deferred, "period_due", {"due_at": due}, current[0])
            _note(instance, [*current[:3], due.isoformat()])
        return
    if not current and stage == stage_before:
        # A case that was in this stage before periods were kept (0024): its entry is unknown, so
        # its first period starts at its next change of stage.
        return
    now = ctx.now
    if current:
        earliest = datetime.fromisoformat(current[3]) if current[3] else None
        _update(ctx.conn, instance.id, deferred, "period_closed", {
            "left_at": now, "office": instance.office,
            "seconds": (now - datetime.fromisoformat(current[2])).total_seconds(),
            "on_time": None if earliest is None else now <= earliest}, current[0])
    period = None
    if stage:
        values = {"instance_id": instance.id, "process_key": instance.process_key, "stage": stage,
                  "entered_at": now, "due_at": due}
        if deferred is None:
            period_id = ctx.conn.execute(_OPEN, values).scalar_one()
        else:  # the saving statement inserts it, after the UPDATEs above (which cannot see it)
            period_id = None
            deferred.append(_deferred("period_opened", "INSERT INTO case_stage_period (instance_id, process_key, "
                                      "stage, entered_at, due_at) VALUES (:instance_id, :process_key, :stage, "
                                      ":entered_at, :due_at)", values))
        period = [period_id, stage, now.isoformat(), due.isoformat() if due else None]
    _note(instance, period)


def _note(instance, period) -> None:
    instance.workflow_meta = {**(instance.workflow_meta or {}),
                              "tramite": {**instance.notes, "stage_period": period}}
