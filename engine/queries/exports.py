"""Every row of a case or task list's filter, in batches, for CSV downloads.

Each batch is its own short read that goes on after the last row of the one before (keyset, never
OFFSET), so a million-row download holds neither a connection nor the rows in memory, and costs the
same per batch at its end as at its start. A row added while a download runs is in it only if it
sorts after the rows already sent (a case list runs newest first, so a new case is not).
"""
from __future__ import annotations

from datetime import datetime

from sqlalchemy import and_, bindparam, or_, select
from sqlalchemy.orm import Session

from engine.identity import absences
from engine.identity.actor import Actor
from engine.persistence.models import ProcessInstance
from engine.persistence.tables import INSTANCE, TASK, TASK_COLUMNS
from engine.queries import cases, shapes

BATCH = 1000


def instance_batch(session: Session, actor: Actor, now, *, after: tuple | None = None, limit: int | None = None,
                   **filters) -> tuple[list[dict], tuple | None]:
    """(up to `limit` cases of the list's filter, newest first, after the key `after`; the key to go
    on from, None at the end)."""
    limit = limit or BATCH
    conditions = cases.instance_conditions(session, actor, now, **filters)
    if after is not None:
        started, last_id = datetime.fromisoformat(after[0]), after[1]
        conditions.append(or_(ProcessInstance.started_at < started,
                              and_(ProcessInstance.started_at == started, ProcessInstance.id < last_id)))
    rows = session.execute(select(*cases.ITEM_COLUMNS).where(and_(True, *conditions))
                           .order_by(*cases.NEWEST_FIRST).limit(limit)).all()
    items = cases.instance_items(session, rows)
    more = len(rows) == limit
    return items, ((items[-1]["started_at"], items[-1]["id"]) if more else None)


_TASK_BATCHES: dict = {}


def task_batch(session: Session, actor: Actor, now, *, after: int = 0, limit: int | None = None, scope=None,
               state="open", process=None, instance=None, element_id=None, overdue=None):
    """(up to `limit` tasks of the list's filter in the order they were created, after task id
    `after`; the id to go on from, None at the end). The same visibility as `cases.list_tasks`,
    a substitute's stand-in tasks included (marked `on_behalf_of`) while the absence lasts."""
    limit = limit or BATCH
    office, params = cases.task_list_params(actor, now, scope=scope, state=state, process=process,
                                            instance=instance, element_id=element_id, overdue=overdue)
    absent = absences.stood_in_for(session, actor.username, now) if scope in (None, "mine") else []
    params["absent"] = absent
    standing_in = bool(absent)
    key = (scope, state, bool(instance), bool(element_id), bool(overdue), bool(process), bool(office), standing_in)
    if key not in _TASK_BATCHES:
        parts, conditions = cases.task_filters(scope, state, instance, element_id, overdue, process, office,
                                               standing_in)
        statement = (
            select(*TASK_COLUMNS, INSTANCE.c.case_number, INSTANCE.c.process_key)
            .select_from(TASK.join(INSTANCE, INSTANCE.c.id == TASK.c.instance_id))
            .where(or_(*parts), TASK.c.id > bindparam("after"), *conditions)
            .order_by(TASK.c.id).limit(bindparam("limit")))
        _TASK_BATCHES[key] = (statement, frozenset(statement.compile().params))
    statement, names = _TASK_BATCHES[key]
    params = {k: v for k, v in params.items() if k in names}
    rows = session.execute(statement, {**params, "after": after, "limit": limit}).all()
    items = [shapes.task(dict(r._mapping), r.case_number, r.process_key) for r in rows]
    for item in items:
        if item["assignee"] in absent:
            item["on_behalf_of"] = item["assignee"]
    return items, (rows[-1].id if len(rows) == limit else None)
