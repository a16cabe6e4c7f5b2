"""What a procedure rule may know besides the data submitted: one small value, the same for every hook.

Start, completion and message rules are all `rule(data, facts) -> None` and raise `RuleViolation`
(or `Refusal`) to refuse. They stay pure: whatever a rule needs from a registry is read beforehand
by the procedure's lookup, in the command's transaction, and handed over in `reference`.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from typing import Any, Mapping


@dataclass(frozen=True)
class Facts:
    case: Mapping[str, Any]            # the case's variables as the step sees them ({} at the start)
    today: date | None = None          # the Puerto Rico date of the act
    actor: str | None = None           # who acts (username)
    office: str | None = None          # the acting user's office (MAT-08 scopes starts by it)
    waiting: bool = True               # messages: whether the case waits for this message now
    reference: Mapping[str, Any] = field(default_factory=dict)  # what the procedure's lookup read
