"""A Core SELECT compiled once per database dialect and run on the driver's cursor.

The bearer check runs on every API request. Measured under `tramite serve` (issue 21), SQLAlchemy's
per-execution work for its one-row query (the statement's cache key, the execution context, the
result wrapping) cost the worker more CPU than the round trip to the database did. Compiled here
once, the statement costs a dictionary lookup; the columns still go through their types' result
processors, so a row reads exactly as it would through `Connection.execute`.
"""
from __future__ import annotations

from sqlalchemy.engine import Connection
from sqlalchemy.sql import Select


class PrecompiledSelect:
    def __init__(self, statement: Select):
        self.statement = statement
        self._by_dialect: dict[str, tuple] = {}

    def _compiled(self, dialect) -> tuple:
        entry = self._by_dialect.get(dialect.name)
        if entry is None:
            # Values inlined at execution time (aggregate_strings' separator) are written into the SQL
            # once; that needs a value for every bound name, so each gets a stand-in (never sent).
            binds = self.statement.compile(dialect=dialect).binds
            stand_ins = self.statement.params({name: "" for name, bind in binds.items() if bind.required})
            compiled = stand_ins.compile(dialect=dialect, compile_kwargs={"render_postcompile": True})
            columns = list(self.statement.selected_columns)
            processors = [column.type.dialect_impl(dialect).result_processor(dialect, None) for column in columns]
            entry = (str(compiled), compiled.positiontup, [c.key for c in columns], processors)
            self._by_dialect[dialect.name] = entry
        return entry

    def first(self, conn: Connection, params: dict) -> dict | None:
        """The first row as {column key: value}, or None."""
        return self.first_on(conn.connection, conn.dialect, params)

    def first_on(self, dbapi_connection, dialect, params: dict) -> dict | None:
        """`first` on a driver connection itself (a pool's `raw_connection()`), no `Connection` around it."""
        sql, positions, keys, processors = self._compiled(dialect)
        cursor = dbapi_connection.cursor()
        try:
            cursor.execute(sql, [params[name] for name in positions] if positions else params)
            row = cursor.fetchone()
        finally:
            cursor.close()
        if row is None:
            return None
        return {key: process(value) if process else value for key, process, value in zip(keys, processors, row)}
