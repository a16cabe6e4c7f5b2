"""A database that cannot be reached, told apart from every other database error.

A restart, a failover or a network cut makes SQLAlchemy raise an `OperationalError`, which would
surface as a 500 "unexpected error" with a traceback in the log. It is neither unexpected nor the
request's fault: the request gets a 503 with Retry-After (engine.errors.DatabaseUnavailable), and the
log one line. Other operational errors (a statement timeout, a deadlock, SQLite's busy database)
stay what they are.
"""
from __future__ import annotations

from sqlalchemy.exc import DBAPIError, InterfaceError, OperationalError

from engine.errors import DatabaseUnavailable
from engine.persistence.reconnect import read_again_if_lost

__all__ = ["MESSAGE", "RETRY_AFTER_SECONDS", "read_again_if_lost", "unavailable"]  # the api may not import persistence

RETRY_AFTER_SECONDS = 5
MESSAGE = ("the database cannot be reached just now; try again in a moment (a change sent as it happened "
           "may or may not have been saved: reload before repeating it)")

# SQLSTATE classes of a connection that is gone or was refused: 08 connection exception, 57P01-57P03
# the server shutting down or not accepting connections yet (57014, a cancelled statement, is not).
_GONE = ("08", "57P01", "57P02", "57P03")


def unavailable(exc: BaseException) -> DatabaseUnavailable | None:
    """The refusal to give for `exc` when it says the database is out of reach, else None."""
    if not isinstance(exc, DBAPIError):
        return None
    if not exc.connection_invalidated:
        if not isinstance(exc, (OperationalError, InterfaceError)):  # a programming error names no SQLSTATE either
            return None
        orig = exc.orig
        if not hasattr(orig, "sqlstate"):  # not PostgreSQL's driver (SQLite's errors name no SQLSTATE)
            return None
        state = orig.sqlstate
        # Without a SQLSTATE the server never answered: refused, timed out, or lost mid-way.
        if state is not None and not state.startswith(_GONE):
            return None
    gone = DatabaseUnavailable(MESSAGE)
    gone.__cause__ = exc
    return gone
