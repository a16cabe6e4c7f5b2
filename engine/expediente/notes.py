"""Internal notes on a case: staff write them for each other. Written once, never edited, audited
(the history keeps that a note was written, not its text), and never part of the certified export."""
from __future__ import annotations

from sqlalchemy import insert, select

from engine.errors import ValidationFailed
from engine.persistence.models import CaseNote

NOTE = CaseNote.__table__
MAX_TEXT = 10_000


def add_note(ctx, instance_id: int, text: str) -> dict:
    text = (text or "").strip() if isinstance(text, str) else ""
    if not text:
        raise ValidationFailed("a note needs its text", {"text": ["REQUIRED"]})
    if len(text) > MAX_TEXT:
        raise ValidationFailed(f"a note holds at most {MAX_TEXT} characters", {"text": ["TOO_LONG"]})
    row = {"instance_id": instance_id, "at": ctx.now, "author": ctx.actor.username, "text": text}
    note_id = ctx.conn.execute(insert(NOTE).values(**row).returning(NOTE.c.id)).scalar_one()
    ctx.audit("note_added", instance_id=instance_id, data={"note_id": note_id})
    return shape({**row, "id": note_id})


def notes_of(conn, instance_id: int) -> list[dict]:
    rows = conn.execute(select(NOTE).where(NOTE.c.instance_id == instance_id).order_by(NOTE.c.id))
    return [shape(r._mapping) for r in rows]


def shape(row) -> dict:
    return {"id": row["id"], "at": row["at"].isoformat(), "author": row["author"], "text": row["text"]}
