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

from datetime import datetime

from sqlalchemy import bindparam, insert, update

from engine.persistence.models import CaseStagePeriod
from engine.runtime.store import Deferred

PERIOD = CaseStagePeriod.__table__
_OPEN = insert(PERIOD).returning(PERIOD.c.id)
# Built once with bound values: building one per call cost more CPU than running it.
_DUE = update(PERIOD).where(PERIOD.c.id == bindparam("p_id")).values(due_at=bindparam("p_due"))
_CLOSE = update(PERIOD).where(PERIOD.c.id == bindparam("p_id")).values(
    left_at=bindparam("p_left_at"), office=bindparam("p_office"), seconds=bindparam("p_seconds"),
    on_time=bindparam("p_on_time"))
ENDED = ("completed", "cancelled")
# The same two UPDATEs as text, for the statement that saves the case (PostgreSQL): nothing reads a
# period before the commit, and neither needs an answer. Bound as `sp_*`, with the columns' types.
_DEFERRED = {
    "period_due": ("UPDATE case_stage_period SET due_at = :sp_due WHERE id = :sp_id",
                   {"sp_due": PERIOD.c.due_at.type, "sp_id": PERIOD.c.id.type}),
    "period_closed": (("UPDATE case_stage_period SET left_at = :sp_left_at, office = :sp_office, "
                       "seconds = :sp_seconds, on_time = :sp_on_time WHERE id = :sp_id"),
                      {"sp_left_at": PERIOD.c.left_at.type, "sp_office": PERIOD.c.office.type,
                       "sp_seconds": PERIOD.c.seconds.type, "sp_on_time": PERIOD.c.on_time.type,
                       "sp_id": PERIOD.c.id.type}),
}
_DEFERRED_BINDS = {name: tuple(bindparam(key, type_=kind) for key, kind in types.items())
                   for name, (_sql, types) in _DEFERRED.items()}


def _write(ctx, deferred: list | None, name: str, statement, params: dict) -> None:
    if deferred is None:
        ctx.conn.execute(statement, params)
    else:
        deferred.append(Deferred(name, _DEFERRED[name][0], _DEFERRED_BINDS[name],
                                 {"s" + key: value for key, value in params.items()}))


def track(ctx, instance, stage_before: str | None, deferred: list | None = None) -> None:
    """After the case's stage, status and next due date are settled for this command. With a
    `deferred` list, the writes that need no answer go there for the saving statement to run."""
    current = instance.notes.get("stage_period")  # [period id, stage, entered at, earliest due], ISO texts
    stage = None if instance.status in ENDED else instance.stage
    due = instance.next_due_at
    if current and current[1] == stage:
        if due is not None and (current[3] is None or due < datetime.fromisoformat(current[3])):
            _write(ctx, deferred, "period_due", _DUE, {"p_id": current[0], "p_due": due})
            _note(instance, [*current[:3], due.isoformat()])
        return
    if not current and stage == stage_before:
        # A case that was in this stage before periods were kept (0024): its entry is unknown, so
        # its first period starts at its next change of stage.
        return
    now = ctx.now
    if current:
        earliest = datetime.fromisoformat(current[3]) if current[3] else None
        _write(ctx, deferred, "period_closed", _CLOSE, {
            "p_id": current[0], "p_left_at": now, "p_office": instance.office,
            "p_seconds": (now - datetime.fromisoformat(current[2])).total_seconds(),
            "p_on_time": None if earliest is None else now <= earliest})
    period = None
    if stage:
        period_id = ctx.conn.execute(_OPEN, {"instance_id": instance.id, "process_key": instance.process_key,
                                             "stage": stage, "entered_at": now, "due_at": due}).scalar_one()
        period = [period_id, stage, now.isoformat(), due.isoformat() if due else None]
    _note(instance, period)


def _note(instance, period) -> None:
    instance.workflow_meta = {**(instance.workflow_meta or {}),
                              "tramite": {**instance.notes, "stage_period": period}}
