"""How many days ahead a task's deadline is announced (`work.reminderDaysBefore`): the reminders
and the supervisors' digest both read it."""
from __future__ import annotations

from sqlalchemy import select

from engine.config import parameters
from engine.persistence.models import Parameter

PARAMETER = "work.reminderDaysBefore"
_PARAMETER = Parameter.__table__


def days_before(ctx) -> int:
    """Read live: an office's notice period, not a case's legal term frozen at its start."""
    row = ctx.conn.execute(select(_PARAMETER.c.value).where(_PARAMETER.c.name == PARAMETER)).first()
    return int(row.value if row is not None else parameters.catalog()[PARAMETER]["default"])
