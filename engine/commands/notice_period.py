"""The office's notice settings, read live (an office's habit, not a case's legal term frozen at its
start): how many days ahead a task's deadline is announced (`work.reminderDaysBefore`, the reminders
and the supervisors' digest both read it) and from what hour the digest goes (`work.digestHour`)."""
from __future__ import annotations

from sqlalchemy import select

from engine.config import parameters
from engine.persistence.models import Parameter

PARAMETER = "work.reminderDaysBefore"
DIGEST_HOUR = "work.digestHour"
_PARAMETER = Parameter.__table__


def _live_int(ctx, name: str) -> int:
    row = ctx.conn.execute(select(_PARAMETER.c.value).where(_PARAMETER.c.name == name)).first()
    return int(row.value if row is not None else parameters.catalog()[name]["default"])


def days_before(ctx) -> int:
    return _live_int(ctx, PARAMETER)


def digest_hour(ctx) -> int:
    """Puerto Rico hour (0–23, validated by the catalogue) from which the day's digest goes."""
    return _live_int(ctx, DIGEST_HOUR)
