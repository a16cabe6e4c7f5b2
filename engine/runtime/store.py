"""Loads and saves a case's workflow: one row per live task, rewritten only when it changed."""
from __future__ import annotations

import hashlib
import json

from sqlalchemy import delete, select, update
from sqlalchemy.orm import Session

from ..persistence.models import ProcessInstance, WorkflowTaskState
from . import serializer
from .pruning import prune


def _digest(body: dict) -> str:
    return hashlib.blake2b(json.dumps(body, sort_keys=True, default=str).encode(), digest_size=16).hexdigest()


class LoadedWorkflow:
    """A workflow plus the digests it was loaded with, so `save` can write the difference."""

    def __init__(self, workflow, digests: dict[tuple[str, str], str]):
        self.workflow = workflow
        self.digests = digests


def load(session: Session, instance: ProcessInstance, spec, subprocess_specs, script_engine) -> LoadedWorkflow:
    rows = session.execute(
        select(WorkflowTaskState.workflow_uuid, WorkflowTaskState.task_uuid,
               WorkflowTaskState.body, WorkflowTaskState.digest)
        .where(WorkflowTaskState.instance_id == instance.id)).all()
    bodies = {(r.workflow_uuid, r.task_uuid): r.body for r in rows}
    workflow = serializer.join(instance.workflow_meta, bodies, spec, subprocess_specs)
    # The script engine is not serialized: without this the next script would run unsandboxed.
    workflow.script_engine = script_engine
    return LoadedWorkflow(workflow, {(r.workflow_uuid, r.task_uuid): r.digest for r in rows})


def save(session: Session, instance: ProcessInstance, loaded: LoadedWorkflow) -> None:
    prune(loaded.workflow)
    meta, bodies = serializer.split(loaded.workflow)
    instance.workflow_meta = meta
    old = loaded.digests
    new = {key: _digest(body) for key, body in bodies.items()}
    gone = [key for key in old if key not in new]
    for owner, task_id in gone:
        session.execute(delete(WorkflowTaskState).where(
            WorkflowTaskState.instance_id == instance.id, WorkflowTaskState.task_uuid == task_id))
    for key, digest in new.items():
        if old.get(key) == digest:
            continue
        owner, task_id = key
        if key in old:
            session.execute(update(WorkflowTaskState).where(
                WorkflowTaskState.instance_id == instance.id, WorkflowTaskState.task_uuid == task_id)
                .values(body=bodies[key], digest=digest))
        else:
            session.add(WorkflowTaskState(instance_id=instance.id, task_uuid=task_id,
                                          workflow_uuid=owner, body=bodies[key], digest=digest))
    loaded.digests = new
