"""Loads and saves a case's workflow: one row per live task, rewritten only when it changed."""
from __future__ import annotations

import hashlib
from typing import NamedTuple

from sqlalchemy import Text, bindparam, cast, delete, insert, select, text, update
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.engine import Connection

from engine.persistence import audit_rows, compiled, task_rows
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



# PostgreSQL: the removed, changed and new task rows, then the case row's UPDATE and the history the
# command queued so far, in one statement (one round trip, where the separate statements, two of them
# executemany, cost up to ten waits on the server). The sets of task rows are disjoint, so no two of
# the data-modifying CTEs touch one row. The rows travel as one JSON text each, the bodies inside it as
# they are: psycopg writes a text array's elements through a regular expression escaping their quotes,
# which cost the client more than the statement did. SQLite keeps separate statements, where a
# statement costs no round trip.
_WRITE_ALL_PG_SQL = f"""
WITH gone AS (
    DELETE FROM workflow_task_state
    WHERE instance_id = :iid AND task_uuid = ANY(CAST(:gone AS varchar[]))),
changed AS (
    UPDATE workflow_task_state AS s SET body = v.b, digest = v.d
    FROM jsonb_to_recordset(CAST(:changed AS jsonb)) AS v(t varchar, b jsonb, d varchar)
    WHERE s.instance_id = :iid AND s.task_uuid = v.t),
added AS (
    INSERT INTO workflow_task_state (instance_id, task_uuid, workflow_uuid, body, digest)
    SELECT :iid, v.t, v.o, v.b, v.d
    FROM jsonb_to_recordset(CAST(:added AS jsonb)) AS v(t varchar, o varchar, b jsonb, d varchar)),
logged AS ({audit_rows.INSERT_SQL}),
opened AS ({{opened}}),{{timed}}{{tail}}
saved AS ({records.SAVE_SQL})
SELECT (SELECT count(*) FROM saved), (SELECT CAST(json_object_agg(spiff_task_id, id) AS text) FROM opened)"""


class Deferred(NamedTuple):
    """A write of the command's that needs no answer and that nothing reads before the case is saved
    (a stage period closed): PostgreSQL runs it as one more CTE of the saving statement. Its bound
    names must not clash with the saving statement's own (`p_*`, `iid`, ...)."""
    name: str
    sql: str
    binds: tuple
    params: dict


_WRITE_ALL_PG: dict[tuple, object] = {}
# A command that opens no task (most timer firings, a claim) inserts none: an INSERT of no rows
# still runs the task table's statement-level list-total trigger (migration 0031), ~0.05 ms of the
# server's time per command (issue 21). The same for the timer rows.
_NO_TASK_OPENED = "SELECT CAST(NULL AS bigint) AS id, CAST(NULL AS varchar) AS spiff_task_id WHERE false"


def _write_all_pg(tail: tuple, opens_tasks: bool, starts_timers: bool) -> object:
    key = (tuple(d.name for d in tail), opens_tasks, starts_timers)
    statement = _WRITE_ALL_PG.get(key)
    if statement is None:  # one statement per kind of tail and of what it inserts, built once
        extra = "".join(f"\n{d.name} AS ({d.sql})," for d in tail)
        sql = (_WRITE_ALL_PG_SQL.replace("{opened}", task_rows.INSERT_SQL if opens_tasks else _NO_TASK_OPENED)
               .replace("{timed}", f"\ntimed AS ({task_rows.TIMER_INSERT_SQL})," if starts_timers else "")
               .replace("{tail}", extra))
        statement = text(sql).bindparams(*records.SAVE_BINDS, *(b for d in tail for b in d.binds))
        _WRITE_ALL_PG[key] = statement
    return statement


def _id_array(ids) -> str:
    # Task ids and workflow ids are UUID text (or "" for the top workflow): nothing in them to escape.
    return "{" + ",".join(f'"{i}"' for i in ids) + "}"


def load(conn: Connection, record, spec, subprocess_specs, script_engine, rows: list | None = None) -> LoadedWorkflow:
    """The case's workflow, from its task rows (read here unless the caller read them: a timer lot's `timer_lot.state_rows_of`)."""
    rows = compiled.run(conn, _LOAD, {"instance_id": record.id}) if rows is None else rows
    bodies = {(r.workflow_uuid, r.task_uuid): r.body for r in rows}
    workflow = serializer.join(record.workflow_meta, bodies, spec, subprocess_specs)
    # The script engine is not serialized: without this the next script would run unsandboxed.
    workflow.script_engine = script_engine
    return LoadedWorkflow(workflow, {(r.workflow_uuid, r.task_uuid): r.digest for r in rows})


def save(conn: Connection, record, loaded: LoadedWorkflow, take_audit=None, tail: tuple = (),
         new_tasks: list[dict] | None = None, new_timers: list[dict] | None = None, pipeline=None) -> None:
    """Prune, then write only new and changed task rows and delete the rows of removed tasks, and
    then the case row (`records.save`), in one statement on PostgreSQL, with the history events
    `take_audit()` hands over (the command's queued ones; elsewhere they wait for its commit) and the
    `tail` of deferred writes (run here, before the case row, on SQLite), and the `new_tasks` rows the
    projections opened (PostgreSQL), whose ids it fills in, and the `new_timers` rows they started.
    With a `pipeline` (a timer lot's, engine/persistence/pipelined.py) the PostgreSQL statement is
    queued there, and its answer checked (the case row's version) when the lot sends it."""
    prune(loaded.workflow)
    meta, bodies = serializer.split(loaded.workflow)
    data_size.check(bodies, getattr(record, "case_number", None))
    record.workflow_meta = {**meta, "tramite": record.notes}
    old = loaded.digests
    new = {key: _digest(body) for key, body in bodies.items()}
    gone = [task_id for (owner, task_id) in old if (owner, task_id) not in new]
    if conn.dialect.name == "postgresql":
        _save_pg(conn, record, bodies, old, new, gone, take_audit() if take_audit else [], tuple(tail),
                 new_tasks or [], new_timers or [], pipeline)
    else:
        _save_each(conn, record.id, bodies, old, new, gone)
        for deferred in tail:
            conn.execute(text(deferred.sql).bindparams(*deferred.binds), deferred.params)
        records.save(conn, record)
    loaded.digests = new


def _save_pg(conn: Connection, record, bodies: dict, old: dict, new: dict, gone: list, events: list,
             tail: tuple, new_tasks: list[dict], new_timers: list[dict], pipeline) -> None:
    # Ids and digests (hex) are JSON strings as they are; a body is JSON already.
    changed = ",".join(f'{{"t":"{tid}","d":"{d}","b":{bodies[(owner, tid)]}}}' for (owner, tid), d in new.items()
                       if (owner, tid) in old and old[(owner, tid)] != d)
    added = ",".join(f'{{"t":"{tid}","o":"{owner}","d":"{d}","b":{bodies[(owner, tid)]}}}'
                     for (owner, tid), d in new.items() if (owner, tid) not in old)
    params = records.save_params(record)
    for deferred in tail:
        params.update(deferred.params)
    params.update({"iid": record.id, "gone": _id_array(gone), "changed": f"[{changed}]", "added": f"[{added}]",
                   "audit_events": audit_rows.as_json(events)})
    if new_tasks:
        params["new_tasks"] = task_rows.as_json(new_tasks)
    if new_timers:
        params["new_timers"] = task_rows.timers_as_json(new_timers)
    statement = _write_all_pg(tail, bool(new_tasks), bool(new_timers))

    def answered(row) -> None:
        rows, task_ids = row
        records.saved(record, rows)
        task_rows.fill_ids(new_tasks, task_ids)

    if pipeline is None:
        answered(compiled.run(conn, statement, params).one())
    else:
        pipeline.queue(statement, params, answered)


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
