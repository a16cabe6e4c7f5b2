"""The rules' year and month arithmetic of TC-3 (never rolls), from engine/rules/calendar.py.

TC-3: same month and day N years later, 29 Feb maps to 28 Feb. Periods start on a day, never an
instant: the rules read their start with `as_local_date(value, instants=False)`. Months (AMB-47
bans): same day N months later, clamped to the last day of a shorter month.
"""
from __future__ import annotations

from datetime import date, datetime, timezone

import pytest

from engine.rules.calendar import add_months, add_years, as_local_date


@pytest.mark.parametrize(("value", "expected"), [
    pytest.param(date(2024, 2, 5), date(2024, 2, 5), id="TC-3-date-as-is"),
    pytest.param("2024-02-29", date(2024, 2, 29), id="TC-3-iso-text"),
])
def test_a_period_starts_on_a_day(value, expected):
    assert as_local_date(value, instants=False) == expected


@pytest.mark.parametrize("value", [
    pytest.param(datetime(2024, 2, 5, 10, 0), id="TC-3-instant-refused"),
    pytest.param("05/02/2024", id="TC-3-not-iso"),
    pytest.param(datetime(2024, 2, 5, 10, 0, tzinfo=timezone.utc), id="TC-3-aware-instant-refused"),
    pytest.param("2024-02-05T10:00:00-04:00", id="TC-3-instant-text-refused"),
    # date.fromisoformat alone would read these as 29 Feb; a period's day is written YYYY-MM-DD.
    pytest.param("20240229", id="TC-3-compact-not-a-day"),
    pytest.param("2024-W09-4", id="TC-3-week-date-not-a-day"),
])
def test_a_period_refuses_what_is_not_a_day(value):
    with pytest.raises(ValueError):
        as_local_date(value, instants=False)


@pytest.mark.parametrize(("start", "years", "expected"), [
    pytest.param(date(2024, 2, 5), 2, date(2026, 2, 5), id="TC-3d-FAR-S01-renewal"),
    pytest.param(date(2024, 7, 10), 2, date(2026, 7, 10), id="TC-3a-MAT-S01-reapply"),
    pytest.param(date(2024, 9, 10), 3, date(2027, 9, 10), id="TC-3c-SUR-S10-retention"),
    pytest.param(date(2024, 2, 29), 1, date(2025, 2, 28), id="TC-3-29feb-to-28feb"),
    pytest.param(date(2024, 2, 29), 2, date(2026, 2, 28), id="TC-3-29feb-common-year"),
    pytest.param(date(2024, 2, 29), 4, date(2028, 2, 29), id="TC-3-29feb-leap-again"),
    pytest.param(date(2024, 2, 28), 1, date(2025, 2, 28), id="TC-3-28feb"),
    pytest.param(date(2023, 3, 1), 1, date(2024, 3, 1), id="TC-3-1mar-no-shift"),
    pytest.param(date(2024, 12, 31), 0, date(2024, 12, 31), id="TC-3-zero-years"),
])
def test_add_years_same_month_and_day(start, years, expected):
    assert add_years(start, years) == expected


@pytest.mark.parametrize(("start", "months", "expected"), [
    pytest.param(date(2024, 11, 25), 18, date(2026, 5, 25), id="AMB-47-BID-S19-18-months"),
    pytest.param(date(2024, 11, 25), 12, date(2025, 11, 25), id="AMB-47-12-months"),
    pytest.param(date(2024, 11, 25), 36, date(2027, 11, 25), id="AMB-47-36-months"),
    pytest.param(date(2024, 1, 31), 1, date(2024, 2, 29), id="TC-3-31jan-leap-feb-last-day"),
    pytest.param(date(2023, 1, 31), 1, date(2023, 2, 28), id="TC-3-31jan-common-feb-last-day"),
    pytest.param(date(2023, 8, 31), 18, date(2025, 2, 28), id="TC-3-31aug-plus-18"),
    pytest.param(date(2024, 5, 31), 1, date(2024, 6, 30), id="TC-3-31may-to-30jun"),
    pytest.param(date(2024, 12, 15), 1, date(2025, 1, 15), id="TC-3-year-wrap"),
    pytest.param(date(2024, 3, 31), -1, date(2024, 2, 29), id="TC-3-backwards"),
])
def test_add_months_same_day_clamped_to_month_end(start, months, expected):
    assert add_months(start, months) == expected
