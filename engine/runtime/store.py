"""Loads and saves a case's workflow: one row per live task, rewritten only when it changed."""
from __future__ import annotations

import hashlib
import json

from sqlalchemy import bindparam, delete, insert, select, update
from sqlalchemy.engine import Connection

from ..persistence.models import WorkflowTaskState
from . import serializer
from .pruning import prune

STATE = WorkflowTaskState.__table__


def _digest(body: dict) -> str:
    return hashlib.blake2b(json.dumps(body, sort_keys=True).encode(), digest_size=16).hexdigest()


class LoadedWorkflow:
    """A workflow plus the digests it was loaded with, so `save` can write the difference."""

    def __init__(self, workflow, digests: dict[tuple[str, str], str]):
        self.workflow = workflow
        self.digests = digests


_LOAD = select(STATE.c.workflow_uuid, STATE.c.task_uuid, STATE.c.body, STATE.c.digest).where(
    STATE.c.instance_id == bindparam("instance_id"))
_DELETE = delete(STATE).where(STATE.c.instance_id == bindparam("instance_id"),
                              STATE.c.task_uuid.in_(bindparam("gone", expanding=True)))
_INSERT = insert(STATE)


def load(conn: Connection, record, spec, subprocess_specs, script_engine) -> LoadedWorkflow:
    rows = conn.execute(_LOAD, {"instance_id": record.id}).all()
    bodies = {(r.workflow_uuid, r.task_uuid): r.body for r in rows}
    workflow = serializer.join(record.workflow_meta, bodies, spec, subprocess_specs)
    # The script engine is not serialized: without this the next script would run unsandboxed.
    workflow.script_engine = script_engine
    return LoadedWorkflow(workflow, {(r.workflow_uuid, r.task_uuid): r.digest for r in rows})


_UPDATE = (update(STATE).where(STATE.c.instance_id == bindparam("iid"), STATE.c.task_uuid == bindparam("tid"))
           .values(body=bindparam("body"), digest=bindparam("digest")))


def save(conn: Connection, record, loaded: LoadedWorkflow) -> None:
    """Prune, then write only new and changed task rows and delete the rows of removed tasks."""
    prune(loaded.workflow)
    meta, bodies = serializer.split(loaded.workflow)
    record.workflow_meta = {**meta, "tramite": record.notes}
    old = loaded.digests
    new = {key: _digest(body) for key, body in bodies.items()}
    gone = [task_id for (owner, task_id) in old if (owner, task_id) not in new]
    if gone:
        conn.execute(_DELETE, {"instance_id": record.id, "gone": gone})
    changed = [{"iid": record.id, "tid": tid, "body": bodies[(owner, tid)], "digest": d}
               for (owner, tid), d in new.items() if (owner, tid) in old and old[(owner, tid)] != d]
    if changed:
        conn.execute(_UPDATE, changed)
    added = [{"instance_id": record.id, "task_uuid": tid, "workflow_uuid": owner, "body": bodies[(owner, tid)],
              "digest": d} for (owner, tid), d in new.items() if (owner, tid) not in old]
    if added:
        conn.execute(_INSERT, added)
    loaded.digests = new
