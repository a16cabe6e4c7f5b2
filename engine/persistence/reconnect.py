"""A read that met a connection the database dropped (a restart, a failover) is run once more.

The pool lets go of every dead connection at the first one found (SQLAlchemy's own execute, and
engine/persistence/compiled.py on its side), so the second try gets a live one. A read changes
nothing, so running it again is safe; a write is never retried here (its commit may have landed):
it answers 503 (engine/kernel/outage.py). A server that refuses connections is not retried either.
"""
from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TypeVar

from sqlalchemy.exc import DBAPIError

log = logging.getLogger("tramite.persistence")
T = TypeVar("T")


def read_again_if_lost(read: Callable[[], T]) -> T:
    try:
        return read()
    except DBAPIError as exc:
        if not exc.connection_invalidated:
            raise
        said = str(exc.orig).strip() or type(exc.orig).__name__
        log.warning("a read met a dropped database connection; reading once more: %s", said.splitlines()[0][:200])
    return read()
