"""What the migration pages show beside a plan: the versions of a process and their running cases."""
from __future__ import annotations

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from engine.persistence.models import ProcessDefinition, ProcessInstance

MOVABLE = ("active", "error")


def running_by_version(session: Session, key: str) -> list[dict]:
    """[{"version", "running"}] newest first: how many open cases each version of `key` holds."""
    counts = dict(session.execute(
        select(ProcessDefinition.version, func.count(ProcessInstance.id))
        .join(ProcessInstance, ProcessInstance.definition_id == ProcessDefinition.id)
        .where(ProcessDefinition.key == key, ProcessInstance.status.in_(MOVABLE))
        .group_by(ProcessDefinition.version)).all())
    versions = session.scalars(select(ProcessDefinition.version).where(ProcessDefinition.key == key)
                               .order_by(ProcessDefinition.version.desc())).all()
    return [{"version": v, "running": counts.get(v, 0)} for v in versions]


def case_numbers(session: Session, ids: list[int]) -> dict[int, str]:
    if not ids:
        return {}
    return dict(session.execute(select(ProcessInstance.id, ProcessInstance.case_number)
                                .where(ProcessInstance.id.in_(ids))).all())
