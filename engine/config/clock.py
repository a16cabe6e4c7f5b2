"""The single source of "now": the system clock, or a manual clock kept in the database.

The manual clock is one database row so that every API process and timer worker agrees on the
time (DESIGN.md §Clock). It only moves forward.
"""
from __future__ import annotations

from datetime import datetime, timezone

from sqlalchemy import insert, select, update

from engine.errors import Conflict, NotFound
from engine.persistence.models import EngineClock


_CLOCK = EngineClock.__table__
_NOW = select(_CLOCK.c.now).where(_CLOCK.c.id == 1)


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

    def now(self, conn) -> datetime:
        """`conn`: a Connection or Session (unused by the system clock)."""
        if not self.manual:
            return datetime.now(timezone.utc)
        now = conn.execute(_NOW).scalar()
        if now is None:
            now = self.start or datetime.now(timezone.utc)
            conn.execute(insert(_CLOCK).values(id=1, now=now))
        return now

    def move_to(self, conn, instant: datetime) -> None:
        """Set the manual clock (the caller fires the timers that fell due on the way)."""
        if not self.manual:
            raise NotFound("the clock can be moved only when the server runs with TRAMITE_CLOCK=manual")
        current = conn.execute(_NOW.with_for_update()).scalar()
        if current is None:
            current = self.start or instant
            conn.execute(insert(_CLOCK).values(id=1, now=current))
        if instant < current:
            raise Conflict(f"time never moves backwards: the clock reads {current.isoformat()}",
                           code="CLOCK_BACKWARDS")
        conn.execute(update(_CLOCK).where(_CLOCK.c.id == 1).values(now=instant))
