"""The per-case cap on saved data: a command that would store more is refused (422) and rolled back.

Scripts are stopped earlier, at the script (`scripting.task_data_size.data_problem`, the case then in
error at that element); this cap catches what arrives otherwise: a completion, a start or a message
whose data, copied into every live task of the case, would store more than a case may hold
(40,000 rows posted to a task grew one case by tens of MB).
"""
from __future__ import annotations

import os

from engine.errors import ValidationFailed


def max_case_bytes() -> int:
    """TRAMITE_MAX_CASE_DATA_BYTES: the most a case's saved workflow may take, as JSON (32 MB)."""
    return int(os.environ.get("TRAMITE_MAX_CASE_DATA_BYTES") or 32 * 1024 * 1024)


def check(bodies: dict, case_number: str | None) -> None:
    total = sum(len(body) for body in bodies.values())
    limit = max_case_bytes()
    if total > limit:
        raise ValidationFailed(
            f"case {case_number}: its data would take {total // 1024 // 1024} MB, more than the "
            f"{limit // 1024 // 1024} MB a case may hold; nothing was saved",
            {"_schema": [f"the case's data is too large ({total} bytes, at most {limit})"]})
