"""The engine's front door: one transaction per command, and the read side for queries.

`execute` is a short chain of wrappers around the command, each doing one cross-cutting job once:
mapping database conflicts to `Conflict`, keeping on record the refusals the regulation wants
although their command rolled back (a command names them with `ctx.keep_refusal`), then the
transaction with the clock's instant.
"""
from __future__ import annotations

import logging
from datetime import datetime

from sqlalchemy.exc import DBAPIError, IntegrityError, OperationalError
from sqlalchemy.orm.exc import StaleDataError

from engine.config.clock import Clock
from engine.definitions.repository import VersionCache
from engine.errors import Conflict, EngineError
from engine.identity.actor import Actor
from engine.kernel import outage
from engine.kernel.context import CommandContext, Services
from engine.kernel.procedure import Procedures
from engine.persistence.database import Database
from engine.persistence.reconnect import read_again_if_lost
from engine.rules.decision import RuleViolation
from engine.scripting.binding import Scripts

log = logging.getLogger("tramite.engine")


class Engine:
    def __init__(self, database_url: str, clock: Clock | None = None, procedures: Procedures | None = None,
                 *, replica_url: str | None = None, prepared_statements: bool = True):
        self.db = Database(database_url, replica_url=replica_url, prepared_statements=prepared_statements)
        self.clock = clock or Clock()
        self.versions = VersionCache()
        self.procedures = procedures or Procedures()
        self.services = self.services_for(self.procedures)
        self._run = _conflicts_named(_refusals_on_record(self, _in_transaction(self)))

    def services_for(self, procedures: Procedures) -> Services:
        """What commands are lent when this engine runs `procedures` (tests add one of their own)."""
        return Services(self.versions, procedures, Scripts(procedures))

    def execute(self, command, actor: Actor, *args, now: datetime | None = None, **kwargs):
        """Run `command(ctx, *args, **kwargs)` in one transaction; all or nothing."""
        return self._run(command, actor, now, args, kwargs)

    # Each read is run once more if it met a connection the database dropped (reconnect.py).
    def read(self, query, *args, **kwargs):
        """Run `query(session, ...)` in a read transaction (ORM allowed)."""
        return read_again_if_lost(lambda: self._read(self.db.reading, query, args, kwargs))

    def read_rows(self, query, *args, **kwargs):
        """Run `query(conn, ...)` with Core statements only: the cheaper path for hot reads."""
        return read_again_if_lost(lambda: self._read_rows(self.db.read_engine, query, args, kwargs))

    @staticmethod
    def _read(reading, query, args, kwargs):
        with reading() as session:
            return query(session, *args, **kwargs)

    @staticmethod
    def _read_rows(pool, query, args, kwargs):
        with pool.connect() as conn:
            with conn.begin():
                return query(conn, *args, **kwargs)

    @property
    def has_replica(self) -> bool:
        return self.db.replica_engine is not self.db.read_engine

    def read_listing(self, query, *args, **kwargs):
        """`read` for lists and dashboards: on the read replica when one is configured. Its rows may
        be a moment behind the primary, so nothing that decides a write may read through here."""
        return read_again_if_lost(lambda: self._read(self.db.reading_replica, query, args, kwargs))

    def read_listing_rows(self, query, *args, **kwargs):
        """`read_rows` for lists and dashboards: on the read replica when one is configured."""
        return read_again_if_lost(lambda: self._read_rows(self.db.replica_engine, query, args, kwargs))

    def now(self) -> datetime:
        if not self.clock.manual:
            return self.clock.now(None)
        return self.read_rows(self.clock.now)


def _in_transaction(engine: Engine):
    """The innermost link: one write transaction, the command's context, the clock read inside it."""
    def run(command, actor, now, args, kwargs, refusals):
        with engine.db.writing() as conn:
            ctx = CommandContext(engine.services, conn, actor, now or engine.clock.now(conn), refusals)
            try:
                result = command(ctx, *args, **kwargs)
                ctx.finish()
                return result
            finally:
                ctx.discard()
    return run


def _refusals_on_record(engine: Engine, inner):
    """A refused command rolled back; the refusals it kept (`ctx.keep_refusal`) are history the
    regulation wants (an untimely review request), so they are written in their own transaction."""
    def run(command, actor, now, args, kwargs):
        refusals: list[dict] = []
        try:
            return inner(command, actor, now, args, kwargs, refusals)
        except (EngineError, RuleViolation):
            if refusals:
                with engine.db.writing() as conn:
                    ctx = CommandContext(engine.services, conn, actor, engine.clock.now(conn))
                    for record in refusals:
                        ctx.audit(**record)
                    ctx.flush_audit()
            raise
    return run


def _conflicts_named(inner):
    """The outermost link: what the database says about concurrent writers, as a `Conflict` (409)."""
    def run(*call):
        try:
            return inner(*call)
        except StaleDataError:
            raise Conflict("the case changed meanwhile; reload it and try again", code="STALE_VERSION") from None
        except IntegrityError as exc:
            log.info("integrity conflict: %s", exc.orig)
            raise Conflict("the change conflicts with one made meanwhile; try again",
                           code="CONCURRENT_CHANGE") from None
        except DBAPIError as exc:
            said = str(exc.orig).lower()
            if isinstance(exc, OperationalError) and ("locked" in said or "deadlock" in said):
                raise Conflict("the database was busy with the same case; try again",
                               code="CONCURRENT_CHANGE") from None
            gone = outage.unavailable(exc)  # a restart, a failover: 503, not the request's fault
            if gone is not None:
                raise gone
            raise
    return run
