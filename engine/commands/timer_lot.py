"""A worker's leased lot of timers fired in one transaction, with one statement per lot where a
firing used to send its own: the timers and their cases (read and locked together), the cases'
workflow rows, their open task rows, and the writes nobody reads back (a timer fired or released,
a task cancelled), each kind sent once for the lot. What stays per firing is the case's own save.

A case with two timers in the lot is fired once here; its other timer is fired after the lot's
writes are sent (by then the first firing may have settled it, and it is then skipped), exactly as
a firing on its own would see it.
"""
from __future__ import annotations

from typing import NamedTuple

from sqlalchemy import bindparam, select

from engine.commands.timers import DONE_WITH, TIMER_AND_CASE, fire_read, fire_timer
from engine.kernel import access
from engine.persistence.pipelined import Pipeline
from engine.persistence.tables import INSTANCE, TIMER
from engine.runtime import projections, store

# The timers of the lot and their cases, locked in the cases' order: two lots (two workers) that
# meet on one case lock it in the same order as every other case they share, so neither deadlocks.
_LOT = (TIMER_AND_CASE.where(TIMER.c.id.in_(bindparam("ids", expanding=True)))
        .order_by(TIMER.c.instance_id, TIMER.c.id).with_for_update(of=[TIMER, INSTANCE]))


# The lot's cases' workflow rows; on PostgreSQL their jsonb bodies are decoded by orjson where exact, as
# every json value the engines read is (engine/persistence/json_text.py, the engines' json_deserializer).
_STATE = store.STATE
_STATE_ROWS = select(_STATE.c.instance_id, _STATE.c.workflow_uuid, _STATE.c.task_uuid,
                     _STATE.c.body, _STATE.c.digest).where(
    _STATE.c.instance_id.in_(bindparam("ids", expanding=True)))


class StateRow(NamedTuple):
    """One workflow task row as `store.load(rows=…)` reads it."""
    workflow_uuid: str
    task_uuid: str
    body: dict
    digest: str


def state_rows_of(conn, instance_ids: list[int]) -> dict[int, list[StateRow]]:
    """The workflow rows of a lot's cases in one statement, for `store.load(rows=…)`."""
    found: dict[int, list[StateRow]] = {iid: [] for iid in instance_ids}
    # Fetched at once: row by row, the fetch cost more than the decoding.
    for iid, owner, task_id, body, digest in conn.execute(_STATE_ROWS, {"ids": list(instance_ids)}).all():
        found[iid].append(StateRow(owner, task_id, body, digest))
    return found


class LotWrites:
    """Collects writes whose result nobody reads and sends each statement once: an executemany of
    its calls, or one call whose list parameter (`id IN …`) holds every call's ids. The statements
    in `last` run after all the others: a firing's `DONE_WITH` reads the due instant close() may
    have just moved (a cycle timer re-armed), so it must see that move, whichever case came first.
    The cases' saves (PostgreSQL) wait in `saves` and go first, together in one round trip."""

    def __init__(self, last=()):
        self._calls: dict = {}
        self._last = tuple(last)
        self.saves = Pipeline()

    def execute(self, statement, params: dict) -> None:
        self._calls.setdefault(statement, []).append(params)

    def flush(self, conn) -> None:
        self.saves.send(conn)
        calls, self._calls = self._calls, {}
        ordered = sorted(calls.items(), key=lambda item: item[0] in self._last)  # stable: the rest keep their order
        for statement, params in ordered:
            for batch in _merged(params):
                conn.execute(statement, batch)


def _merged(calls: list[dict]) -> list:
    """Calls with a list parameter become one call per set of their other values; the rest one
    executemany (a list of parameter sets)."""
    listed = [name for name, value in calls[0].items() if isinstance(value, list)]
    if not listed:
        return [calls if len(calls) > 1 else calls[0]]
    (name,) = listed
    merged: dict = {}
    for call in calls:
        rest = tuple(sorted((k, v) for k, v in call.items() if k != name))
        merged.setdefault(rest, []).extend(call[name])
    return [{**dict(rest), name: ids} for rest, ids in merged.items()]


def _fires(row) -> bool:
    """Whether firing this row opens its case (the others are skipped, released or cancelled)."""
    return (row.fired_at is None and not row.cancelled and row.case_suspended_since is None
            and row.case_status == "active")


def fire_timers(ctx, timer_ids: list[int]) -> int:
    """Fire the leased `timer_ids` in this one transaction (one commit, one history insert for the
    lot); returns how many fired. Any failure rolls back the lot: the worker then fires them one by one."""
    access.require_engine(ctx.actor, "fire timers")
    rows = ctx.conn.execute(_LOT, {"ids": list(timer_ids)}).all()
    first, again = [], []
    seen: set[int] = set()
    for row in rows:
        (again if row.instance_id in seen else first).append(row)
        seen.add(row.instance_id)
    opening = [row.instance_id for row in first if _fires(row)]
    state = state_rows_of(ctx.conn, opening) if opening else {}
    open_tasks = projections.open_rows_of(ctx.conn, opening) if opening else {}
    writes = LotWrites(last=[DONE_WITH])
    fired = sum(1 for row in first
                if fire_read(ctx, row, state.get(row.instance_id), open_tasks.get(row.instance_id), writes))
    writes.flush(ctx.conn)
    return fired + sum(1 for row in again if fire_timer(ctx, row.id))
