"""A person's saved list filters, by name."""
from __future__ import annotations

from sqlalchemy import select

from engine.identity.actor import Actor
from engine.persistence.models import SavedFilter

TABLE = SavedFilter.__table__


def saved_filters(session, actor: Actor, list_name: str) -> list[dict]:
    rows = session.execute(select(TABLE.c.id, TABLE.c.name, TABLE.c.query)
                           .where(TABLE.c.username == actor.username, TABLE.c.list == list_name)
                           .order_by(TABLE.c.name)).all()
    return [dict(r._mapping) for r in rows]
