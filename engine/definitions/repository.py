"""Reads stored process versions and turns them into specs (through the engine's spec cache)."""
from __future__ import annotations

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from ..errors import NotFound
from ..persistence.models import ProcessDefinition
from .parsing import build_specs


def latest(session: Session, key: str) -> ProcessDefinition | None:
    return session.scalars(select(ProcessDefinition).where(ProcessDefinition.key == key)
                           .order_by(ProcessDefinition.version.desc()).limit(1)).first()


def get_version(session: Session, key: str, version: int | None = None) -> ProcessDefinition:
    if version is None:
        found = latest(session, key)
    else:
        found = session.scalars(select(ProcessDefinition).where(
            ProcessDefinition.key == key, ProcessDefinition.version == version)).first()
    if found is None:
        what = f"version {version} of {key!r}" if version else repr(key)
        raise NotFound(f"there is no deployed process {what}")
    return found


def next_version(session: Session, key: str) -> int:
    current = session.scalar(select(func.max(ProcessDefinition.version)).where(ProcessDefinition.key == key))
    return (current or 0) + 1


def bundle_files(session: Session, definition: ProcessDefinition) -> dict[str, str]:
    """The version's own files plus the pinned versions of the processes it calls."""
    files = {}
    for child_id in definition.summary.get("children", {}).values():
        child = session.get(ProcessDefinition, child_id)
        if child is not None:
            files.update({f"{child.key}@{child.version}/{n}": c for n, c in bundle_files(session, child).items()})
    files.update(definition.files)
    return files


def specs_for(engine, session: Session, definition: ProcessDefinition):
    return engine.specs.get(definition.id, lambda: build_specs(
        {n: c for n, c in bundle_files(session, definition).items() if n.endswith((".bpmn", ".dmn"))},
        definition.key))
