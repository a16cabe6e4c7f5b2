"""Core statements compiled once per database dialect and run on the driver's own cursor.

A command's few statements are the same every time; only their values change. Through
`Connection.execute`, SQLAlchemy does per-execution work for each of them — the statement's cache
key and cache look-up, the execution context, the bound values' dictionary, the result's metadata
and row wrapping — that cost the HTTP worker more CPU than the driver and the database's answer
together: 13 % of a worker's time for the hot path's eight statements, about 1 ms per case
(issue 21, `bench.profile_http --py-spy`). Here a statement is compiled once; a run converts its
values through their types' bind processors and its columns through their result processors,
exactly as `Connection.execute` would, and a database error is raised as the SQLAlchemy exception
`Connection.execute` raises (an `IntegrityError` is still a 409). The connection's
`before_cursor_execute` listeners still see every statement (tests count statements with them).

A statement with IN-lists of values (`expanding` binds) is compiled once per combination of their
lengths, as SQLAlchemy renders it for those lengths.

On PostgreSQL a statement goes below psycopg's cursor, to libpq itself (engine/persistence/libpq_run.py),
where the connection allows it: the cursor's own Python cost per statement was as large again as the
rest of a one-row statement's.
"""
from __future__ import annotations

from collections import namedtuple

from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import DBAPIError, MultipleResultsFound, NoResultFound
from sqlalchemy.orm import Session

from engine.persistence import libpq_run

_ENTRIES: dict[tuple, "Entry"] = {}
_LISTS: dict[tuple[int, str], tuple[str, ...]] = {}  # each statement's IN-list binds


class Entry:
    """One statement compiled for one dialect: its SQL, how its values are passed, and its rows' shape."""

    def __init__(self, statement, dialect, lengths: dict[str, int] | None = None):
        compiled = statement.compile(dialect=dialect)
        inlined = {bind.key for bind in compiled.literal_execute_params}
        if inlined:
            # Values written into the SQL at execution (aggregate_strings' separator) are constants of
            # the statement: rendered once, with a stand-in for every value the caller passes (never sent).
            stand_ins = statement.params({name: "" for name, bind in compiled.binds.items() if bind.required})
            compiled = stand_ins.compile(dialect=dialect, compile_kwargs={"render_postcompile": True})
        escaped = compiled.escaped_bind_names or {}
        sql, positions, self.expansion = compiled.string, compiled.positiontup, {}
        if lengths:
            # IN-lists: the SQL as SQLAlchemy renders it for lists of these lengths (one placeholder
            # per element; an empty list never matches), made once per combination of lengths.
            stand_ins = {name: [None] * lengths[name] if name in lengths else None
                         for name, bind in compiled.binds.items() if bind.required}
            state = compiled.construct_expanded_state(stand_ins)
            sql, positions, self.expansion = state.statement, state.positiontup, state.parameter_expansion
        self.sql = sql
        self.statement = statement  # kept so that its id stays its own
        binds = compiled.binds
        self.processors = [(name, escaped.get(name, name), binds[name].type._cached_bind_processor(dialect))
                           for name in binds if name not in inlined]
        # A value written into the statement (`column == 'x'`) is a bind the caller does not pass.
        self.constants = {name: bind.effective_value for name, bind in binds.items()
                          if not bind.required and name not in inlined}
        self.positions = [escaped.get(n, n) for n in positions] if positions else None
        self.columns = [(entry.keyname, entry.type) for entry in compiled._result_columns]
        self.dialect = dialect
        self.shape = None  # (row class, result processors), made from the first answer's description
        self.libpq = None  # its SQL for libpq (engine/persistence/libpq_run.py), made at its first run there

    def values(self, params: dict):
        given = {**self.constants, **params} if self.constants else params
        expansion = self.expansion
        converted = {}
        for name, sent, process in self.processors:
            if name in expansion:  # one value per element of the list, each converted as the list's type says
                converted.update(zip(expansion[name], map(process, given[name]) if process else given[name]))
            else:
                converted[sent] = process(given[name]) if process else given[name]
        return [converted[name] for name in self.positions] if self.positions is not None else converted

    def rows(self, cursor) -> list:
        return self.shaped(cursor.fetchall(), cursor.description)

    def shaped(self, raw: list, description) -> list:
        """The driver's rows as the statement's rows; `description` is read at the first answer only."""
        if self.shape is None:
            self.shape = self._shape(description)
        row_class, processors = self.shape
        if not any(processors):
            return [row_class._make(r) for r in raw]
        return [row_class._make([p(v) if p else v for p, v in zip(processors, r)]) for r in raw]

    def _shape(self, description):
        names = [d[0] for d in description]
        if len(self.columns) == len(names):  # a compiled Core construct: its columns in order
            keys = [key for key, _ in self.columns]
            processors = [type_._cached_result_processor(self.dialect, d[1])
                          for (_, type_), d in zip(self.columns, description)]
        else:  # a text() statement's columns are the driver's, unconverted
            keys, processors = names, [None] * len(names)
        return _row_class(keys), processors


def _row_class(keys: list[str]):
    base = namedtuple("Row", keys, rename=True)
    # `_mapping` as SQLAlchemy's Row has it, for the callers that read rows as dictionaries.
    return type("Row", (base,), {"__slots__": (), "_mapping": property(lambda row: dict(zip(keys, row)))})


def entry(statement, dialect, params: dict | None = None) -> Entry:
    """The statement compiled for `dialect` (for the lengths of `params`' IN-lists, if it has any)."""
    key = (id(statement), dialect.name)
    lists = _LISTS.get(key)
    if lists is None:
        lists = _LISTS[key] = tuple(name for name, bind in statement.compile(dialect=dialect).binds.items()
                                    if bind.expanding)
    if lists:
        key = (*key, *(len(params[name]) for name in lists))
    found = _ENTRIES.get(key)
    if found is None:
        found = _ENTRIES[key] = Entry(statement, dialect, {name: len(params[name]) for name in lists})
    return found


class Rows(list):
    """A statement's rows, read with the few methods of SQLAlchemy's Result the engine uses."""

    def one(self):
        if len(self) != 1:
            raise (NoResultFound if not self else MultipleResultsFound)("expected exactly one row")
        return self[0]

    def first(self):
        return self[0] if self else None

    def all(self) -> list:
        return list(self)

    def scalar_one(self):
        return self.one()[0]

    def scalar(self):
        return self[0][0] if self else None


def run(conn: Connection | Session, statement, params: dict | None = None) -> Rows:
    """`conn.execute(statement, params)`, compiled once; the rows read at once. On an ORM session it
    goes through the session's `execute`."""
    params = params or {}
    if not isinstance(conn, Connection):
        result = conn.execute(statement, params)
        return Rows(result.all()) if result.returns_rows else Rows()
    found = entry(statement, conn.dialect, params)
    values = found.values(params)
    try:
        return _run_on(conn, found, values)
    except DBAPIError as exc:
        _let_go_if_lost(exc, conn, conn.engine)  # the Connection's transaction then ends without a ROLLBACK
        raise


def _run_on(conn: Connection, found: "Entry", values: dict) -> Rows:
    pooled = conn.connection
    if conn.dialect.name == "postgresql" and libpq_run.usable(pooled.driver_connection):
        for listener in conn.dispatch.before_cursor_execute:  # no cursor: libpq is sent the statement
            listener(conn, None, found.sql, values, None, False)
        return Rows(_on_libpq(pooled, found, values))
    cursor = pooled.driver_connection.cursor()
    try:
        for listener in conn.dispatch.before_cursor_execute:
            listener(conn, cursor, found.sql, values, None, False)
        execute(cursor, found, values)
        return Rows(found.rows(cursor)) if cursor.description else Rows()
    finally:
        cursor.close()


def _let_go_if_lost(exc: DBAPIError, holder, engine: Engine) -> None:
    """What SQLAlchemy's own execute does on a lost connection, which these statements go around:
    `holder` (a Connection or a pooled connection) invalidated and the pool let go of, since after a
    server restart or failover every pooled connection is dead and each would fail one request.
    Connections in use are dropped when given back."""
    if exc.connection_invalidated:
        holder.invalidate(exc.orig)
        engine.dispose()


def first_on(engine: Engine, statement, params: dict):
    """The first row of `statement` on one of the engine's pooled connections itself, held just for
    it (`Engine.raw_connection()`): no `Connection`, transaction or rollback object around it."""
    found = entry(statement, engine.dialect, params)
    pooled = engine.raw_connection()
    try:
        if engine.dialect.name == "postgresql" and libpq_run.usable(pooled.driver_connection):
            rows = _on_libpq(pooled, found, found.values(params))
        else:
            cursor = pooled.driver_connection.cursor()
            try:
                execute(cursor, found, found.values(params))
                rows = found.rows(cursor)
            finally:
                cursor.close()
    except DBAPIError as exc:
        _let_go_if_lost(exc, pooled, engine)
        raise
    finally:
        pooled.close()  # back to the pool, which rolls back whatever the driver opened
    return rows[0] if rows else None


def _on_libpq(pooled, found: Entry, values) -> list:
    """`found` run by engine/persistence/libpq_run.py, its errors raised as `execute` raises them."""
    try:
        answer = libpq_run.run(pooled, found, values)
    except found.dialect.loaded_dbapi.Error as exc:
        raise _wrapped(found, values, exc, pooled.driver_connection) from exc
    return found.shaped(*answer) if answer is not None else []


def _wrapped(found: Entry, values, exc, driver) -> DBAPIError:
    """The SQLAlchemy exception `Connection.execute` raises for `exc`, saying (`connection_invalidated`)
    whether the connection was lost, as the dialect judges it."""
    return DBAPIError.instance(found.sql, values, exc, found.dialect.loaded_dbapi.Error, dialect=found.dialect,
                               connection_invalidated=found.dialect.is_disconnect(exc, driver, None))


def execute(cursor, found: Entry, values) -> None:
    """The driver's execute, its errors raised as SQLAlchemy's (IntegrityError, OperationalError...)."""
    try:
        cursor.execute(found.sql, values)
    except found.dialect.loaded_dbapi.Error as exc:
        raise _wrapped(found, values, exc, cursor.connection) from exc
