"""Reading the legal parameters: each with its value, default, type and the ambiguity it resolves,
and the log of their changes."""
from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from engine.config import parameters
from engine.persistence.models import AuditEvent


def list_parameters(session: Session) -> list[dict]:
    """GET /parameters (anyone signed in): the catalogue in name order, with the values in force."""
    return parameters.describe(session)


def parameter_changes(session: Session, limit: int = 100) -> list[dict]:
    """The newest `limit` changes, newest first: who, when (engine clock), which, before, after.
    They come from the audit log, which every change writes and nothing rewrites."""
    rows = session.scalars(select(AuditEvent).where(AuditEvent.type == "parameter_changed")
                           .order_by(AuditEvent.id.desc()).limit(limit))
    return [{"at": r.at, "actor": r.actor, "name": r.data.get("name"), "old": r.data.get("old"),
             "new": r.data.get("new"), "amb": r.data.get("amb")} for r in rows]
