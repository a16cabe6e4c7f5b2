"""The PostgreSQL engines: one pool for write transactions, one autocommit pool for reads.

Measured on the benchmark's case (start, list, complete, read over HTTP), a case cost 55 round trips
to the server, and under load each one is a wait: a `SELECT 1` on every pool checkout
(`pool_pre_ping`, 6 per case) and a BEGIN and a COMMIT around every read (4 reads per case).
- Reads run in autocommit. Under READ COMMITTED (PostgreSQL's default, which Trámite uses) every
  statement takes its own snapshot whether or not a transaction is open, so the BEGIN/COMMIT pair
  bought nothing but two round trips — and an idle read transaction held back vacuum meanwhile.
  Anything that reads in order to write runs in the write transaction, never here.
- A connection is pinged only when it sat idle in the pool longer than `IDLE_PING_SECONDS` (the
  pessimistic recipe of SQLAlchemy's "Dealing with Disconnects", limited to the connections that may
  have gone stale: a server restart or an idle timeout). One used a moment ago is alive.
"""
from __future__ import annotations

import time

from sqlalchemy import create_engine, event
from sqlalchemy.engine import Engine
from sqlalchemy.exc import DisconnectionError

from engine.persistence import json_text

IDLE_PING_SECONDS = 10.0


def write_engine(url: str, prepared_statements: bool = True) -> Engine:
    return _pinged_when_idle(create_engine(url, pool_size=10, max_overflow=20, json_deserializer=json_text.loads,
                                           connect_args=_connect_args(prepared_statements)))


def read_engine(url: str, prepared_statements: bool = True) -> Engine:
    """Reads of the primary, or of a streaming replica (lists and dashboards) when one is configured."""
    return _pinged_when_idle(create_engine(url, isolation_level="AUTOCOMMIT", pool_size=10, max_overflow=10,
                                           json_deserializer=json_text.loads,
                                           connect_args=_connect_args(prepared_statements)))


def _connect_args(prepared_statements: bool) -> dict:
    # Behind PgBouncer in transaction mode one client's transactions land on different server
    # connections, where a statement psycopg prepared on another one does not exist.
    return {} if prepared_statements else {"prepare_threshold": None}


def _pinged_when_idle(engine: Engine) -> Engine:
    dialect = engine.dialect

    @event.listens_for(engine, "checkin")
    def _idle_from(_dbapi_connection, record) -> None:
        record.info["idle_since"] = time.monotonic()

    @event.listens_for(engine, "checkout")
    def _ping_if_stale(dbapi_connection, record, _proxy) -> None:
        since = record.info.get("idle_since")
        if since is None or time.monotonic() - since <= IDLE_PING_SECONDS:
            return
        try:
            dialect.do_ping(dbapi_connection)
        except Exception as exc:  # the pool replaces the connection and tries again
            raise DisconnectionError("the pooled connection did not answer") from exc

    return engine
