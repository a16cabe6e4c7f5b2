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
from .definitions.parsing import SpecCache
from .errors import Conflict, EngineError
from .persistence.database import Database
from .rules.decision import RuleViolation

log = logging.getLogger("tramite.engine")


class Engine:
    def __init__(self, database_url: str, clock: Clock | None = None):
        self.db = Database(database_url)
        self.clock = clock or Clock()
        self.specs = SpecCache()

    def execute(self, command, actor: Actor, *args, now: datetime | None = None, **kwargs):
        """Run `command(ctx, *args, **kwargs)` in one transaction; all or nothing."""
        try:
            with self.db.transaction() as session:
                ctx = CommandContext(self, session, actor, now or self.clock.now(session))
                result = command(ctx, *args, **kwargs)
                session.flush()
                return result
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
        with self.db.transaction() as session:
            ctx = CommandContext(self, session, actor, self.clock.now(session))
            ctx.audit(**record)

    def read(self, query, *args, **kwargs):
        with self.db.reading() as session:
            return query(session, *args, **kwargs)

    def now(self) -> datetime:
        with self.db.reading() as session:
            return self.clock.now(session)
