"""Who acts, and the transaction a command runs in: session, the clock's instant, the audit sink."""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy.orm import Session

from .persistence.models import AuditEvent
from .runtime.serializer import to_json_value

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

    def __init__(self, engine: "Engine", session: Session, actor: Actor, now: datetime):
        self.engine = engine
        self.session = session
        self.actor = actor
        self.now = now

    def audit(self, type: str, *, instance_id: int | None = None, task_id: int | None = None,
              element_id: str | None = None, data: dict[str, Any] | None = None,
              rule_ids: list[str] | tuple[str, ...] = (), message: str | None = None,
              actor: str | None = None) -> AuditEvent:
        event = AuditEvent(at=self.now, actor=actor or self.actor.username, instance_id=instance_id,
                           task_id=task_id, element_id=element_id, type=type,
                           data=to_json_value(data or {}), rule_ids=list(rule_ids), message=message)
        self.session.add(event)
        return event
