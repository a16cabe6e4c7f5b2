"""Who stands in for whom right now: a user's absence names a substitute who, while it lasts on the
engine clock, sees the absent user's open tasks as their own and may complete them."""
from __future__ import annotations

from contextvars import ContextVar
from datetime import datetime

from sqlalchemy import and_, bindparam, select

from engine.persistence.models import UserAbsence

ABSENCE = UserAbsence.__table__
_LASTING = and_(ABSENCE.c.starts_at <= bindparam("now"), ABSENCE.c.ends_at > bindparam("now"))
_STOOD_IN_FOR = select(ABSENCE.c.username, ABSENCE.c.starts_at, ABSENCE.c.ends_at).where(
    ABSENCE.c.substitute == bindparam("me"))
# (connection, username) while a request's bearer check found no absence naming `username` as a
# substitute, on that connection (the request's read connection; api/rest/auth.py sets and clears it).
_NONE_ON: ContextVar[tuple | None] = ContextVar("tramite_no_absence_seen", default=None)
_SUBSTITUTE = select(ABSENCE.c.substitute).where(ABSENCE.c.username == bindparam("absent"), _LASTING)


def stood_in_for(conn, substitute: str, now) -> list[str]:
    """The users `substitute` stands in for at `now` (usually none: one indexed look-up). `now` may be
    a callable, read only when there is an absence to compare it with."""
    seen = _NONE_ON.get()
    if seen is not None and seen[0] is conn and seen[1] == substitute:
        return []  # read a moment ago by this request's bearer check, on this very connection (issue 21)
    rows = conn.execute(_STOOD_IN_FOR, {"me": substitute}).all()
    if not rows:
        return []
    at = now() if callable(now) else now
    return sorted(r.username for r in rows if r.starts_at <= at < r.ends_at)


def note_none_on(conn, substitute: str) -> None:
    """The bearer check just read on `conn` that no absence names `substitute`."""
    _NONE_ON.set((conn, substitute))


def forget_noted() -> None:
    """The request is over: its connection and what was read on it are no longer the question."""
    _NONE_ON.set(None)


def substitute_of(conn, absent: str | None, now: datetime) -> str | None:
    if absent is None:
        return None
    return conn.execute(_SUBSTITUTE, {"absent": absent, "now": now}).scalar()


def current(conn, username: str) -> dict | None:
    row = conn.execute(select(ABSENCE).where(ABSENCE.c.username == username)).first()
    return None if row is None else {"username": row.username, "substitute": row.substitute, "from": row.starts_at,
                                     "until": row.ends_at}
