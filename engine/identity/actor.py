"""Who acts: a user's name, roles and office, as every command and query sees them."""
from __future__ import annotations

from dataclasses import dataclass, field

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


@dataclass(frozen=True)
class CaseApplicant(Actor):
    """The person one case is about, holding a session for it (API.md "Applicant access"): no role
    and no office; engine/kernel/access.py lets it see exactly `case_id` and send only `messages`,
    the ones its procedure marks as the applicant's."""
    case_id: int = 0
    messages: frozenset[str] = field(default_factory=frozenset)


SYSTEM = Actor("system", frozenset({"admin", "supervisor", "process_owner"}))
