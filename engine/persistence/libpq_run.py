"""A compiled statement (engine/persistence/compiled.py) run on libpq itself, below psycopg's cursor.

psycopg's cursor is a Python layer over libpq: for each statement it converts the query, looks up its
prepared-statement cache, sends and waits through generators, and builds its result objects and
`description` — ~70 µs of the client's CPU per statement on 2026-12-07's machine, about what libpq and
the socket cost themselves (`bench.pg_round_trips`), and a third of the engine's own CPU per case
went to psycopg. The engine's compiled statements are few and the same every time: here each is
prepared once per connection, its values dumped and its rows loaded by psycopg's own Transformer
(the adapters the cursor uses, in C), and it is sent with libpq's blocking calls, which release the
interpreter lock while they wait for the server. Measured on the engine's start + complete,
alternating in one process: client CPU 7.37 → 6.33 ms per case, server 4.40 → 4.10 (bench/RESULTS.md).

Prepared statements are recorded in psycopg's own register of the connection's prepared statements
(`Connection._prepared`, psycopg 3.3), under keys of ours: psycopg empties it and deallocates every
statement at a rollback, at DROP/ALTER and at DISCARD/DEALLOCATE ALL, and evicts the oldest past its
`prepared_max`. A statement whose key is gone is prepared again, under a new name (an evicted one's
DEALLOCATE may not have been sent yet). Where that register is not what this module knows (another
psycopg), or the connection may not keep prepared statements (PgBouncer in transaction mode:
`prepare_threshold` None), or opens its transactions with more than BEGIN, the cursor runs the
statement as before.

A write transaction's BEGIN is sent here when the statement is its first, as psycopg would send it:
psycopg and SQLAlchemy then see the transaction open (libpq's transaction status) and end it.
"""
from __future__ import annotations

import itertools
import re
from collections import OrderedDict

from psycopg import errors, pq
from psycopg.adapt import PyFormat, Transformer

_TRANSFORMER = "tramite.libpq.transformer"   # per pooled connection (the pool empties it with the connection)
_PLACEHOLDER = re.compile(r"%\(([^)]+)\)s|%%")  # as SQLAlchemy writes binds for psycopg (pyformat)
_NAMES = itertools.count()
_IDLE = pq.TransactionStatus.IDLE
_COMMAND_OK, _TUPLES_OK = pq.ExecStatus.COMMAND_OK, pq.ExecStatus.TUPLES_OK


class Converted:
    """An entry's SQL with $n placeholders, and the order its named values are sent in."""

    def __init__(self, sql: str):
        names: list[str] = []

        def number(match) -> str:
            if match.group(0) == "%%":
                return "%"
            name = match.group(1)
            if name not in names:
                names.append(name)
            return f"${names.index(name) + 1}"
        self.query = _PLACEHOLDER.sub(number, sql).encode()
        self.names = names
        self.formats = [PyFormat.AUTO] * len(names)


def usable(driver) -> bool:
    """Whether statements on this psycopg connection may run here."""
    return (driver.prepare_threshold is not None and driver.isolation_level is None and driver.read_only is None
            and driver.deferrable is None and isinstance(getattr(driver, "_prepared", None), _MANAGER_TYPE)
            and isinstance(getattr(driver._prepared, "_names", None), OrderedDict))


def run(pooled, found, values: dict) -> tuple[list, list] | None:
    """Run `found` (a compiled.Entry) with `values` (its converted values, by name) on the pooled
    connection's libpq; (rows as tuples, description as (name, type oid) pairs, or None once the
    entry has its rows' shape), or None when the statement answered no rows. A database error is
    raised as psycopg raises it."""
    driver = pooled.driver_connection
    pg = driver.pgconn
    converted = found.libpq
    if converted is None:
        converted = found.libpq = Converted(found.sql)
    transformer = pooled.info.get(_TRANSFORMER)
    if transformer is None or transformer.connection is not driver:
        transformer = pooled.info[_TRANSFORMER] = Transformer(driver)
    params = transformer.dump_sequence([values[name] for name in converted.names], converted.formats)
    types, formats = transformer.types, transformer.formats
    if not driver.autocommit and pg.transaction_status == _IDLE:
        _check(driver, pg.exec_(b"BEGIN"), _COMMAND_OK)
    register = driver._prepared._names
    key = (_KEY_MARK, id(found), types)
    name = register.get(key)
    if name is None:
        name = b"tramite_%d" % next(_NAMES)
        _check(driver, pg.prepare(name, converted.query, types), _COMMAND_OK)
        register[key] = name
    result = pg.exec_prepared(name, params, formats)
    if result.status == _COMMAND_OK:
        return None
    _check(driver, result, _TUPLES_OK)
    transformer.set_pgresult(result)
    rows = transformer.load_rows(0, result.ntuples, tuple)
    if found.shape is not None:  # the entry read its columns from its first answer: not built again
        return rows, None
    return rows, [(result.fname(i).decode(), result.ftype(i)) for i in range(result.nfields)]


def _check(driver, result, expected) -> None:
    if result.status == expected:
        return
    pg = driver.pgconn
    if pg.status == pq.ConnStatus.BAD:  # the server went away: an OperationalError, as psycopg says it
        raise errors.OperationalError(f"the connection is lost: {pg.error_message.decode(errors='replace')}")
    raise errors.error_from_result(result, encoding=driver.info.encoding)


_KEY_MARK = "tramite"  # psycopg's own keys are (query bytes, types): ours never equal one


def _manager_type():
    try:
        from psycopg._preparing import PrepareManager
    except ImportError:  # another psycopg: the cursor runs everything
        return ()
    return PrepareManager


_MANAGER_TYPE = _manager_type()
