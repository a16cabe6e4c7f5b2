"""Drafts of a task's form (issue 16, "a draft saved when a long form is left half-done").

A draft is what one person typed into an open task they may complete, saved as they type and
offered again when they come back to the task; completing the task drops every draft of it. A
draft is no answer: it is not validated, not in the case's history, and nobody else sees it.
"""
from __future__ import annotations

import json

from sqlalchemy import delete, insert

from engine.commands.tasks import _check_lane, _check_not_someone_elses, _open_task
from engine.errors import ValidationFailed
from engine.persistence.models import TaskDraft

DRAFT = TaskDraft.__table__
# A long form's text is far below this; a draft bigger than it is not one.
MAX_DRAFT_BYTES = 256 * 1024


def save(ctx, task_id: int, data: dict) -> dict:
    row = _open_task(ctx, task_id)
    _check_lane(ctx, row)
    _check_not_someone_elses(ctx.actor, row)
    if not isinstance(data, dict):
        raise ValidationFailed("a draft is an object", {"data": ["must be an object"]})
    if len(json.dumps(data, default=str)) > MAX_DRAFT_BYTES:
        raise ValidationFailed("the draft is too large", {"data": [f"at most {MAX_DRAFT_BYTES} bytes"]})
    who = ctx.actor.username
    ctx.conn.execute(delete(DRAFT).where(DRAFT.c.task_id == task_id, DRAFT.c.username == who))
    ctx.conn.execute(insert(DRAFT).values(task_id=task_id, username=who, data=json.loads(json.dumps(data, default=str)),
                                          saved_at=ctx.now))
    return {"task_id": task_id, "saved_at": ctx.now.isoformat()}


def discard(ctx, task_id: int) -> None:
    ctx.conn.execute(delete(DRAFT).where(DRAFT.c.task_id == task_id, DRAFT.c.username == ctx.actor.username))

