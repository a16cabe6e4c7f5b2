"""Loads and saves a case's workflow: one row per live task, rewritten only when it changed."""
from __future__ import annotations

import hashlib

from sqlalchemy import Text, bindparam, cast, delete, insert, select, text, update
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.engine import Connection

from engine.persistence.models import WorkflowTaskState
from engine.runtime import data_size, records, serializer
from engine.runtime.pruning import prune

STATE = WorkflowTaskState.__table__


def _digest(body: str) -> str:
    return hashlib.blake2b(body.encode(), digest_size=16).hexdigest()


class LoadedWorkflow:
    """A workflow plus the digests it was loaded with, so `save` can write the difference."""

    def __init__(self, workflow, digests: dict[tuple[str, str], str]):
        self.workflow = workflow
        self.digests = digests


_LOAD = select(STATE.c.workflow_uuid, STATE.c.task_uuid, STATE.c.body, STATE.c.digest).where(
    STATE.c.instance_id == bindparam("instance_id"))
_LOAD_MANY = select(STATE.c.instance_id, STATE.c.workflow_uuid, STATE.c.task_uuid, STATE.c.body, STATE.c.digest).where(
    STATE.c.instance_id.in_(bindparam("ids", expanding=True)))
_DELETE = delete(STATE).where(STATE.c.instance_id == bindparam("instance_id"),
                              STATE.c.task_uuid.in_(bindparam("gone", expanding=True)))


_WRITES: dict[str, tuple] = {}


def _body(dialect: str):
    # Bodies arrive as JSON text: SQLite keeps JSON as text already; PostgreSQL casts it to jsonb.
    text = bindparam("body", type_=Text)
    return cast(text, JSONB) if dialect == "postgresql" else text


def _writes(dialect: str) -> tuple:
    if dialect not in _WRITES:
        _WRITES[dialect] = (
            insert(STATE).values(instance_id=bindparam("instance_id"), task_uuid=bindparam("task_uuid"),
                                 workflow_uuid=bindparam("workflow_uuid"), body=_body(dialect),
                                 digest=bindparam("digest")),
            update(STATE).where(STATE.c.instance_id == bindparam("iid"), STATE.c.task_uuid == bindparam("tid"))
            .values(body=_body(dialect), digest=bindparam("digest")))
    return _WRITES[dialect]



# PostgreSQL: the removed, changed and new task rows and then the case row's UPDATE in one statement
# (one round trip, where the four statements, two of them executemany, cost up to eight waits on the
# server). The three sets of task rows are disjoint, so no two of the data-modifying CTEs touch one
# row. SQLite keeps separate statements, where a statement costs no round trip.
_WRITE_ALL_PG = text(f"""
WITH gone AS (
    DELETE FROM workflow_task_state
    WHERE instance_id = :iid AND task_uuid = ANY(CAST(:gone AS varchar[]))),
changed AS (
    UPDATE workflow_task_state AS s SET body = CAST(v.body AS jsonb), digest = v.digest
    FROM unnest(CAST(:c_tids AS varchar[]), CAST(:c_bodies AS text[]), CAST(:c_digests AS varchar[]))
         AS v(tid, body, digest)
    WHERE s.instance_id = :iid AND s.task_uuid = v.tid),
added AS (
    INSERT INTO workflow_task_state (instance_id, task_uuid, workflow_uuid, body, digest)
    SELECT :iid, v.tid, v.owner, CAST(v.body AS jsonb), v.digest
    FROM unnest(CAST(:a_tids AS varchar[]), CAST(:a_owners AS varchar[]), CAST(:a_bodies AS text[]),
                CAST(:a_digests AS varchar[])) AS v(tid, owner, body, digest)),
saved AS ({records.SAVE_SQL})
SELECT count(*) FROM saved""").bindparams(*records.SAVE_BINDS)


def rows_of(conn: Connection, instance_ids: list[int]) -> dict[int, list]:
    """The task rows of several cases in one statement (a timer worker's lot), for `load(rows=…)`."""
    found: dict[int, list] = {iid: [] for iid in instance_ids}
    for row in conn.execute(_LOAD_MANY, {"ids": list(instance_ids)}):
        found[row.instance_id].append(row)
    return found


def load(conn: Connection, record, spec, subprocess_specs, script_engine, rows: list | None = None) -> LoadedWorkflow:
    """The case's workflow, from its task rows (read here unless the caller read them: `rows_of`)."""
    rows = conn.execute(_LOAD, {"instance_id": record.id}).all() if rows is None else rows
    bodies = {(r.workflow_uuid, r.task_uuid): r.body for r in rows}
    workflow = serializer.join(record.workflow_meta, bodies, spec, subprocess_specs)
    # The script engine is not serialized: without this the next script would run unsandboxed.
    workflow.script_engine = script_engine
    return LoadedWorkflow(workflow, {(r.workflow_uuid, r.task_uuid): r.digest for r in rows})


def save(conn: Connection, record, loaded: LoadedWorkflow) -> None:
    """Prune, then write only new and changed task rows and delete the rows of removed tasks, and
    then the case row (`records.save`), in one statement on PostgreSQL."""
    prune(loaded.workflow)
    meta, bodies = serializer.split(loaded.workflow)
    data_size.check(bodies, getattr(record, "case_number", None))
    record.workflow_meta = {**meta, "tramite": record.notes}
    old = loaded.digests
    new = {key: _digest(body) for key, body in bodies.items()}
    gone = [task_id for (owner, task_id) in old if (owner, task_id) not in new]
    if conn.dialect.name == "postgresql":
        _save_pg(conn, record, bodies, old, new, gone)
    else:
        _save_each(conn, record.id, bodies, old, new, gone)
        records.save(conn, record)
    loaded.digests = new


def _save_pg(conn: Connection, record, bodies: dict, old: dict, new: dict, gone: list) -> None:
    changed = [(tid, bodies[(owner, tid)], d) for (owner, tid), d in new.items()
               if (owner, tid) in old and old[(owner, tid)] != d]
    added = [(owner, tid, bodies[(owner, tid)], d) for (owner, tid), d in new.items() if (owner, tid) not in old]
    params = records.save_params(record)
    rows = conn.execute(_WRITE_ALL_PG, {
        **params, "iid": record.id, "gone": gone,
        "c_tids": [c[0] for c in changed], "c_bodies": [c[1] for c in changed], "c_digests": [c[2] for c in changed],
        "a_tids": [a[1] for a in added], "a_owners": [a[0] for a in added], "a_bodies": [a[2] for a in added],
        "a_digests": [a[3] for a in added]}).scalar_one()
    records.saved(record, rows)


def _save_each(conn: Connection, instance_id: int, bodies: dict, old: dict, new: dict, gone: list) -> None:
    insert_rows, update_rows = _writes(conn.dialect.name)
    if gone:
        conn.execute(_DELETE, {"instance_id": instance_id, "gone": gone})
    changed = [{"iid": instance_id, "tid": tid, "body": bodies[(owner, tid)], "digest": d}
               for (owner, tid), d in new.items() if (owner, tid) in old and old[(owner, tid)] != d]
    if changed:
        conn.execute(update_rows, changed)
    added = [{"instance_id": instance_id, "task_uuid": tid, "workflow_uuid": owner, "body": bodies[(owner, tid)],
              "digest": d} for (owner, tid), d in new.items() if (owner, tid) not in old]
    if added:
        conn.execute(insert_rows, added)
