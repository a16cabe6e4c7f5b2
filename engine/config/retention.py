"""How long a finished case stays in the database: `processes/<p>/retention.json`, keyed by process key.

A period counts from the local day the case ended, same month and day N years later (TC-3c): the
case is kept through the day before and may be archived from that day on. A process without a
period is never archived: keeping is the safe default.
"""
from __future__ import annotations

import json
from datetime import date, datetime
from functools import lru_cache

from engine.config.paths import processes_dir
from engine.rules.calendar import add_years, deadline_instant, local_date


@lru_cache(maxsize=4)
def _all(root: str) -> dict:
    merged: dict = {}
    for path in sorted(processes_dir().glob("*/retention.json")):
        merged.update(json.loads(path.read_text(encoding="utf-8")))
    return merged


def periods() -> dict[str, int]:
    """{process key: years kept after the case ends}."""
    return {key: int(entry["years_after_end"]) for key, entry in _all(str(processes_dir())).items()}


def free_from(ended_at: datetime, years: int) -> date:
    """The first local day a case that ended at `ended_at` may leave the database."""
    return add_years(local_date(ended_at), years)


def ended_before(now: datetime, years: int) -> datetime:
    """Every case that ended before this instant is past its period at `now` (29 Feb aside, which
    `free_from` settles case by case)."""
    return deadline_instant(add_years(local_date(now), -years))


def is_expired(ended_at: datetime, years: int, now: datetime) -> bool:
    return free_from(ended_at, years) <= local_date(now)
