"""Statements sent to PostgreSQL together in one round trip (psycopg's pipeline mode), each still its
own statement with its own answer, read once all have been answered.

A timer lot (engine/commands/timer_lot.py) saves each of its ~32 cases in one statement whose answer
(the case row's count, its new tasks' ids) nothing reads before the lot ends: sent one by one, each
was a round trip, a wait on both sides. Here they go out together. Each statement is compiled once
(engine/persistence/compiled.py): without SQLAlchemy's per-execution work, about half the client's
cost of a save with ~40 values (issue 21). The engine's `before_cursor_execute` listeners still see
every statement (tests count statements with them).

An error in any statement aborts the transaction and is raised by `send`: the caller's transaction
rolls back whole, as it would have at that statement.
"""
from __future__ import annotations

from collections.abc import Callable

from sqlalchemy.engine import Connection

from engine.persistence import compiled


class Pipeline:
    """Statements queued with what to do with each one's first row, sent by `send`."""

    def __init__(self):
        self._queued: list[tuple] = []

    def queue(self, statement, params: dict, on_row: Callable[[tuple], None]) -> None:
        self._queued.append((statement, params, on_row))

    def send(self, conn: Connection) -> None:
        queued, self._queued = self._queued, []
        if not queued:
            return
        dialect, raw = conn.dialect, conn.connection.driver_connection
        listeners = conn.dispatch.before_cursor_execute
        sent = []
        with raw.pipeline():
            for statement, params, on_row in queued:
                found = compiled.entry(statement, dialect, params)
                values = found.values(params)
                cursor = raw.cursor()
                for listener in listeners:
                    listener(conn, cursor, found.sql, values, None, False)
                compiled.execute(cursor, found, values)
                sent.append((cursor, on_row))
        # Leaving the pipeline waited for every answer (and raised the first error).
        for cursor, on_row in sent:
            row = cursor.fetchone()
            cursor.close()
            on_row(row)
