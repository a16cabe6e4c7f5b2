"""Login throttling: failed logins counted in the database per username and per client address.

The counts live in the `login_failure` table, never in process memory, so every API process behind
gunicorn sees the same attempts. A username or address with too many failures inside the window
waits until the oldest of them that still counts leaves it; a successful login forgets the
username's failures. Time is the machine's, as for tokens (accounts.py): moving a training clock
must neither lock anybody out nor let a locked-out guesser back in.
"""
from __future__ import annotations

import math
from datetime import datetime, timedelta

from sqlalchemy import bindparam, delete, insert, select

from engine.config.login_policy import LoginPolicy
from engine.errors import EngineError
from engine.persistence.models import LoginFailure

FAILURE = LoginFailure.__table__


class TooManyLogins(EngineError):
    """Too many failed logins for a username or from an address (429 with Retry-After)."""

    code = "TOO_MANY_LOGIN_ATTEMPTS"

    def __init__(self, retry_after: int):
        super().__init__(f"too many failed logins; try again in {retry_after} seconds",
                         {"rule": [self.code]})
        self.retry_after = retry_after
        self.message_es = (f"demasiados intentos fallidos de acceso; vuelva a intentarlo en "
                           f"{retry_after} segundos")


def _recent(column):
    return (select(FAILURE.c.failed_at).where(column == bindparam("key"), FAILURE.c.failed_at > bindparam("since"))
            .order_by(FAILURE.c.failed_at.desc()).limit(bindparam("limit")))


_RECENT_BY_USERNAME = _recent(FAILURE.c.username)
_RECENT_BY_ADDRESS = _recent(FAILURE.c.address)


def _seconds_to_wait(conn, query, key: str, limit: int, window: timedelta, now: datetime) -> int:
    recent = conn.execute(query, {"key": key, "since": now - window, "limit": limit}).scalars().all()
    if len(recent) < limit:
        return 0
    # The newest `limit` failures lock; the lock lifts when the oldest of them leaves the window.
    free_at = recent[-1] + window
    return max(1, math.ceil((free_at - now).total_seconds()))


def check(conn, policy: LoginPolicy, username: str, address: str, now: datetime) -> None:
    """TooManyLogins (429) while the username or the address has used up its failures."""
    wait = max(_seconds_to_wait(conn, _RECENT_BY_USERNAME, username, policy.per_username, policy.window, now),
               _seconds_to_wait(conn, _RECENT_BY_ADDRESS, address, policy.per_address, policy.window, now))
    if wait:
        raise TooManyLogins(wait)


def record_failure(conn, policy: LoginPolicy, username: str, address: str, now: datetime) -> None:
    # Only the window is ever counted: whatever fell out of it goes, so the table stays small.
    conn.execute(delete(FAILURE).where(FAILURE.c.failed_at <= now - policy.window))
    conn.execute(insert(FAILURE).values(username=username, address=address, failed_at=now))


def forget(conn, username: str) -> None:
    """A successful login clears the username's failures (and so their share of the address's)."""
    conn.execute(delete(FAILURE).where(FAILURE.c.username == username))
