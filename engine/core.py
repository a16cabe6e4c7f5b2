"""The engine's front door: one transaction per command, and the read side for queries.

Cross-cutting work lives here once: the transaction, the clock's instant, the stale-version check
and the refusals that must stay on record although their command rolled back.
"""
from __future__ import annotations

import logging
from datetime import datetime

from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm.exc import StaleDataError

from .clock import Clock
from .context import Actor, CommandContext
from .definitions.repository import VersionCache
from .errors import Conflict, EngineError
from .persistence.database import Database
from .rules.decision import RuleViolation

log = logging.getLogger("tramite.engine")


class Engine:
    def __init__(self, database_url: str, clock: Clock | None = None):
        self.db = Database(database_url)
        self.clock = clock or Clock()
        self.versions = VersionCache()

    def execute(self, command, actor: Actor, *args, now: datetime | None = None, **kwargs):
        """Run `command(ctx, *args, **kwargs)` in one transaction; all or nothing."""
        try:
            with self.db.writing() as conn:
                ctx = CommandContext(self, conn, actor, now or self.clock.now(conn))
                try:
                    result = command(ctx, *args, **kwargs)
                    ctx.finish()
                    return result
                finally:
                    ctx.discard()
        except StaleDataError:
            raise Conflict("the case changed meanwhile; reload it and try again", code="STALE_VERSION") from None
        except IntegrityError as exc:
            log.info("integrity conflict: %s", exc.orig)
            raise Conflict("the change conflicts with one made meanwhile; try again",
                           code="CONCURRENT_CHANGE") from None
        except (EngineError, RuleViolation) as exc:
            record = getattr(exc, "record", None)
            if record:
                self._record_refusal(actor, record)
            raise
        except OperationalError as exc:
            if "locked" in str(exc.orig).lower() or "deadlock" in str(exc.orig).lower():
                raise Conflict("the database was busy with the same case; try again",
                               code="CONCURRENT_CHANGE") from None
            raise

    def _record_refusal(self, actor: Actor, record: dict) -> None:
        # The refused command rolled back; the refusal itself is history the regulation wants.
        with self.db.writing() as conn:
            ctx = CommandContext(self, conn, actor, self.clock.now(conn))
            ctx.audit(**record)
            ctx.flush_audit()

    def read(self, query, *args, **kwargs):
        """Run `query(session, ...)` in a read transaction (ORM allowed)."""
        with self.db.reading() as session:
            return query(session, *args, **kwargs)

    def read_rows(self, query, *args, **kwargs):
        """Run `query(conn, ...)` with Core statements only: the cheaper path for hot reads."""
        with self.db.read_engine.connect() as conn:
            with conn.begin():
                return query(conn, *args, **kwargs)

    def now(self) -> datetime:
        if not self.clock.manual:
            return self.clock.now(None)
        return self.read_rows(self.clock.now)
