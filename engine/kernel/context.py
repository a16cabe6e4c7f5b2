"""The transaction a command runs in: its connection (and ORM session), the clock's instant, who acts
and the audit sink its history goes to."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import insert, text
from sqlalchemy.engine import Connection
from sqlalchemy.orm import Session

from engine.identity.actor import Actor
from engine.persistence import audit_rows
from engine.persistence.models import AuditEvent
from engine.runtime.serializer import to_json_value

AUDIT = AuditEvent.__table__
_INSERT_AUDIT = insert(AUDIT)
_INSERT_AUDIT_JSON = text(audit_rows.INSERT_SQL)

if TYPE_CHECKING:
    from engine.definitions.repository import VersionCache
    from engine.kernel.procedure import Procedures
    from engine.scripting.binding import Scripts


@dataclass(frozen=True)
class Services:
    """What an engine lends every command: the version cache, its procedures and their scripts."""
    versions: Any
    procedures: Any
    scripts: Any


class CommandContext:
    """Everything one command needs; it lives exactly as long as its transaction."""

    def __init__(self, services: "Services", conn: Connection, actor: Actor, now: datetime,
                 refusals: list[dict] | None = None):
        self.services = services
        self.versions: "VersionCache" = services.versions
        self.procedures: "Procedures" = services.procedures
        self.scripts: "Scripts" = services.scripts
        self.conn = conn
        self.actor = actor
        self.now = now
        self._audit: list[dict] = []
        self._session: Session | None = None
        self._audit_actor: str | None = None
        self._refusals = refusals if refusals is not None else []

    def acting_as(self, actor: Actor, audit_actor: str) -> "CommandContext":
        """The same transaction, clock and history, acting as `actor` (the engine starting a child
        case, a registry change a script makes); its events are written as `audit_actor`."""
        other = CommandContext(self.services, self.conn, actor, self.now, self._refusals)
        other._audit, other._audit_actor, other._parent = self._audit, audit_actor, self
        return other

    @property
    def session(self) -> Session:
        parent = getattr(self, "_parent", None)
        if parent is not None:
            return parent.session
        """An ORM session inside the command's transaction, made only when a command needs one.

        The hot path (start, complete, messages, timers) runs Core statements on `conn`; a
        session costs a savepoint and its own bookkeeping, so it is not made for every command.
        """
        if self._session is None:
            self._session = Session(bind=self.conn, join_transaction_mode="create_savepoint",
                                    expire_on_commit=False)
        return self._session

    def finish(self) -> None:
        """Write what the command left pending: ORM changes, then the queued history."""
        if self._session is not None:
            self._session.commit()
        self.flush_audit()

    def discard(self) -> None:
        if self._session is not None:
            self._session.close()
            self._session = None

    def audit(self, type: str, *, instance_id: int | None = None, task_id: int | None = None,
              element_id: str | None = None, data: dict[str, Any] | None = None,
              rule_ids: list[str] | tuple[str, ...] = (), message: str | None = None,
              actor: str | None = None) -> None:
        """Queue a history event; all of a command's events are written in one statement at commit."""
        self._audit.append({
            "at": self.now, "actor": actor or self._audit_actor or self.actor.username, "instance_id": instance_id,
            "task_id": task_id, "element_id": element_id, "type": type,
            "data": to_json_value(data or {}), "rule_ids": list(rule_ids), "message": message})

    def keep_refusal(self, type: str, **event) -> None:
        """Keep this refusal on record although the command is about to roll back: the engine writes
        it (an `audit` event of `type`) in a transaction of its own once this one has ended."""
        self._refusals.append({"type": type, **event})

    def take_audit(self) -> list[dict]:
        """The queued events, no longer queued: the statement that saves a case writes them
        (PostgreSQL), one round trip fewer than a statement of their own at commit."""
        taken = list(self._audit)
        self._audit.clear()  # in place: a context acting as the engine shares this list
        return taken

    def flush_audit(self) -> None:
        if self._audit:
            if len(self._audit) > 1 and self.conn.dialect.name == "postgresql":
                # One statement whatever the count (an executemany costs three waits on the server, and
                # a multi-row VALUES is a new statement for SQLAlchemy at each count of events).
                self.conn.execute(_INSERT_AUDIT_JSON, {"audit_events": audit_rows.as_json(self._audit)})
            else:
                self.conn.execute(_INSERT_AUDIT, self._audit[0] if len(self._audit) == 1 else list(self._audit))
            self._audit.clear()  # in place: a context acting as the engine shares this list
