"""The two values every rule speaks in: a Decision it reached, or a RuleViolation it refuses with."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Decision:
    """What a rule decided, why (rule ids from RULES.md) and from which inputs."""

    outcome: Any
    rule_ids: tuple[str, ...]
    inputs: dict[str, Any] = field(default_factory=dict)
    details: dict[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return {"outcome": self.outcome, "rule_ids": list(self.rule_ids),
                "inputs": dict(self.inputs), **self.details}


class RuleViolation(Exception):
    """A business rule refuses an action; `code` is the error code of RULES.md §5 or a contract."""

    status, reason = 422, "Unprocessable Entity"

    def __init__(self, code: str, message: str, rule_ids: tuple[str, ...] | list[str] = ()):
        super().__init__(message)
        self.code = code
        self.message = message
        self.rule_ids = list(rule_ids)
        self.errors = {"rule": [code]}


class Refusal(RuleViolation):
    """A rule that refuses an action as out of time or out of turn (409), e.g. a late review request.

    The refused command changes nothing, but the refusal itself is written to the case history.
    """

    status, reason = 409, "Conflict"
