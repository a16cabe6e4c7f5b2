"""A person's own draft of an open task's form (engine/commands/drafts.py)."""
from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from engine.identity.actor import Actor
from engine.persistence.models import TaskDraft

DRAFT = TaskDraft.__table__


def own_draft(session: Session, actor: Actor, task_id: int) -> dict | None:
    row = session.execute(select(DRAFT.c.data, DRAFT.c.saved_at).where(
        DRAFT.c.task_id == task_id, DRAFT.c.username == actor.username)).first()
    if row is None:
        return None
    return {"data": row.data if isinstance(row.data, dict) else {}, "saved_at": row.saved_at.isoformat()}
