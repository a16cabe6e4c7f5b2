"""Who acts, and the transaction a command runs in: session, the clock's instant, the audit sink."""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import insert
from sqlalchemy.engine import Connection
from sqlalchemy.orm import Session

from .persistence.models import AuditEvent
from .runtime.serializer import to_json_value

AUDIT = AuditEvent.__table__
_INSERT_AUDIT = insert(AUDIT)

if TYPE_CHECKING:
    from .core import Engine

BUILTIN_ROLES = ("admin", "process_owner", "supervisor")


@dataclass(frozen=True)
class Actor:
    username: str
    roles: frozenset[str] = field(default_factory=frozenset)
    office: str | None = None

    def holds(self, role: str | None) -> bool:
        return role is not None and role in self.roles

    @property
    def is_supervisor(self) -> bool:
        return "supervisor" in self.roles

    @property
    def is_admin(self) -> bool:
        return "admin" in self.roles


SYSTEM = Actor("system", frozenset({"admin", "supervisor", "process_owner"}))


class CommandContext:
    """Everything one command needs; it lives exactly as long as its transaction."""

    def __init__(self, engine: "Engine", conn: Connection, actor: Actor, now: datetime):
        self.engine = engine
        self.conn = conn
        self.actor = actor
        self.now = now
        self._audit: list[dict] = []
        self._session: Session | None = None

    @property
    def session(self) -> Session:
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
            "at": self.now, "actor": actor or self.actor.username, "instance_id": instance_id,
            "task_id": task_id, "element_id": element_id, "type": type,
            "data": to_json_value(data or {}), "rule_ids": list(rule_ids), "message": message})

    def flush_audit(self) -> None:
        if self._audit:
            self.conn.execute(_INSERT_AUDIT, self._audit)
            self._audit = []
