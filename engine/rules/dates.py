"""Calendar arithmetic the rules share (TC-3): pure, and free of the engine's calendar module."""
from __future__ import annotations

from datetime import date, datetime


def as_day(value) -> date:
    """A legal period starts on a day: a `date` or `YYYY-MM-DD`, never an instant."""
    if isinstance(value, datetime):
        raise ValueError("a legal period starts on a day, not an instant")
    return value if isinstance(value, date) else date.fromisoformat(str(value))


def add_years(day: date, years: int) -> date:
    """TC-3: same month and day `years` later; 29 Feb maps to 28 Feb."""
    try:
        return day.replace(year=day.year + years)
    except ValueError:
        return day.replace(year=day.year + years, day=28)


def add_months(day: date, months: int) -> date:
    """Same day `months` later; a day the target month lacks becomes its last day."""
    index = day.year * 12 + (day.month - 1) + months
    year, month = divmod(index, 12)
    month += 1
    for last in (31, 30, 29, 28):
        try:
            return date(year, month, min(day.day, last))
        except ValueError:
            continue
    raise ValueError(day)
