"""The single source of "now": the system clock, or a manual clock kept in the database.

The manual clock is one database row so that every API process and timer worker agrees on the
time (DESIGN.md §Clock). It only moves forward.
"""
from __future__ import annotations

from datetime import datetime, timezone

from sqlalchemy import select
from sqlalchemy.orm import Session

from .errors import Conflict, NotFound
from .persistence.models import EngineClock


def parse_instant(text: str) -> datetime:
    value = datetime.fromisoformat(text.replace("Z", "+00:00"))
    if value.tzinfo is None:
        raise ValueError("an instant needs an offset, e.g. 2024-04-02T09:00:00-04:00")
    return value.astimezone(timezone.utc)


class Clock:
    def __init__(self, mode: str = "system", start: datetime | None = None):
        if mode not in ("system", "manual"):
            raise ValueError(f"TRAMITE_CLOCK must be 'system' or 'manual', not {mode!r}")
        self.mode = mode
        self.start = start

    @property
    def manual(self) -> bool:
        return self.mode == "manual"

    def now(self, session: Session) -> datetime:
        if not self.manual:
            return datetime.now(timezone.utc)
        row = session.get(EngineClock, 1)
        if row is None:
            row = EngineClock(id=1, now=self.start or datetime.now(timezone.utc))
            session.add(row)
            session.flush()
        return row.now

    def move_to(self, session: Session, instant: datetime) -> None:
        """Set the manual clock (the caller fires the timers that fell due on the way)."""
        if not self.manual:
            raise NotFound("the clock can be moved only when the server runs with TRAMITE_CLOCK=manual")
        row = session.execute(select(EngineClock).where(EngineClock.id == 1).with_for_update()).scalar_one_or_none()
        if row is None:
            row = EngineClock(id=1, now=self.start or instant)
            session.add(row)
        if instant < row.now:
            raise Conflict(f"time never moves backwards: the clock reads {row.now.isoformat()}",
                           code="CLOCK_BACKWARDS")
        row.now = instant
        session.flush()
