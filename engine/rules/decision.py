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
    # The reasons the rule gives, as codes of its message catalogue, each with the values its
    # sentence names: `("INCOME_SHARE_OK", {"income_share_pct": "80.00", ...})`. Not returned to the
    # script (the case's variables stay as the contract says); the history records them in words.
    because: tuple[tuple[str, dict[str, Any]], ...] = ()

    def as_dict(self) -> dict[str, Any]:
        return {"outcome": self.outcome, "rule_ids": list(self.rule_ids),
                "inputs": dict(self.inputs), **self.details}


class RuleViolation(Exception):
    """A business rule refuses an action; `code` is the error code of RULES.md §5 or a contract."""

    status, reason = 422, "Unprocessable Entity"

    def __init__(self, code: str, message: str, rule_ids: tuple[str, ...] | list[str] = (),
                 values: dict[str, Any] | None = None, reasons: list | tuple = ()):
        super().__init__(message)
        self.code = code
        self.message = message
        self.rule_ids = list(rule_ids)
        self.errors = {"rule": [code]}
        # The figures the refusal's sentence names (dates, amounts, thresholds), and, when the rule
        # refuses for several reasons at once, every one as `(code, values)`: the first is `code`.
        self.values = dict(values or {})
        self.reasons = [(r, {}) if isinstance(r, str) else (r[0], dict(r[1])) for r in reasons]


class Refusal(RuleViolation):
    """A rule that refuses an action as out of time or out of turn (409), e.g. a late review request.

    The refused command changes nothing, but the refusal itself is written to the case history.
    """

    status, reason = 409, "Conflict"
