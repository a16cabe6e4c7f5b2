"""Unit tests for engine.rules.calendar: TC-1/TC-2 day deadlines, TC-3 year and month periods, instants."""
from __future__ import annotations

from datetime import date, datetime, timedelta, timezone

import pytest

from engine.rules.calendar import (
    PUERTO_RICO, add_months, add_years, as_local_date, deadline_instant, is_business_day, last_timely_day,
    local_date, parse_holidays, to_timer_iso, valid_until, window_closes,
)


# --- TC-1: the event day is excluded, day N is timely, day N+1 is late -------------------------

def test_day_20_is_timely_and_day_21_is_late():
    notified = date(2024, 4, 2)  # Tuesday; +20 is Monday 2024-04-22, no roll involved
    last = last_timely_day(notified, 20)
    assert last == date(2024, 4, 22)
    assert notified + timedelta(days=20) <= last
    assert notified + timedelta(days=21) > last


def test_zero_days_is_the_event_day_itself():
    assert last_timely_day(date(2024, 4, 2), 0) == date(2024, 4, 2)


def test_negative_or_non_integer_days_are_refused():
    with pytest.raises(ValueError):
        last_timely_day(date(2024, 4, 2), -1)
    with pytest.raises(ValueError):
        last_timely_day(date(2024, 4, 2), True)


# --- TC-2: weekends and holidays -------------------------------------------------------------

def test_last_day_on_saturday_rolls_to_monday():
    assert last_timely_day(date(2024, 3, 1), 15) == date(2024, 3, 18)  # Sat 16 -> Mon 18


def test_last_day_on_saturday_without_roll_forward_stays():
    assert last_timely_day(date(2024, 3, 1), 15, roll_forward=False) == date(2024, 3, 16)


def test_last_day_on_sunday_rolls_to_monday():
    assert last_timely_day(date(2024, 3, 2), 15) == date(2024, 3, 18)  # Sun 17 -> Mon 18


def test_last_day_on_sunday_without_roll_forward_stays():
    assert last_timely_day(date(2024, 3, 2), 15, roll_forward=False) == date(2024, 3, 17)


def test_holiday_on_the_rolled_to_monday_rolls_again():
    holidays = [date(2024, 3, 18)]
    assert last_timely_day(date(2024, 3, 1), 15, holidays=holidays) == date(2024, 3, 19)


def test_holiday_on_a_weekday_last_day_rolls():
    assert last_timely_day(date(2024, 4, 2), 20, holidays=["2024-04-22"]) == date(2024, 4, 23)


def test_holidays_are_ignored_without_roll_forward():
    last = last_timely_day(date(2024, 4, 2), 20, roll_forward=False, holidays=["2024-04-22"])
    assert last == date(2024, 4, 22)


def test_window_closes_counts_like_a_deadline():
    assert window_closes(date(2024, 4, 1), 15) == date(2024, 4, 16)
    assert window_closes(date(2024, 3, 1), 15) == date(2024, 3, 18)
    assert window_closes(date(2024, 3, 1), 15, roll_forward=False, holidays=()) == date(2024, 3, 16)


def test_is_business_day():
    assert is_business_day(date(2024, 3, 15), [])  # Friday
    assert not is_business_day(date(2024, 3, 16), [])  # Saturday
    assert not is_business_day(date(2024, 3, 17), [])  # Sunday
    assert not is_business_day(date(2024, 7, 4), [date(2024, 7, 4)])


# --- holidays parsing --------------------------------------------------------------------------

def test_parse_holidays_accepts_strings_and_dates():
    parsed = parse_holidays(["2024-07-04", date(2024, 12, 25)])
    assert parsed == frozenset({date(2024, 7, 4), date(2024, 12, 25)})
    assert parse_holidays([]) == frozenset()
    assert parse_holidays(None) == frozenset()


@pytest.mark.parametrize("bad", [["20240704"], ["2024-02-30"], ["July 4"], [42],
                                 [datetime(2024, 7, 4, tzinfo=timezone.utc)], "2024-07-04"])
def test_parse_holidays_refuses_bad_values(bad):
    with pytest.raises(ValueError):
        parse_holidays(bad)


# --- instants ----------------------------------------------------------------------------------

def test_deadline_instant_is_midnight_puerto_rico_of_the_next_day():
    instant = deadline_instant(date(2024, 4, 22))
    assert instant.tzinfo is not None
    assert instant == datetime(2024, 4, 23, 0, 0, tzinfo=PUERTO_RICO)
    assert instant.astimezone(timezone.utc) == datetime(2024, 4, 23, 4, 0, tzinfo=timezone.utc)


def test_deadline_instant_has_no_dst_shift_in_summer_or_winter():
    for day in (date(2024, 1, 15), date(2024, 7, 15), date(2024, 11, 4)):
        utc = deadline_instant(day).astimezone(timezone.utc)
        assert (utc.hour, utc.date()) == (4, day + timedelta(days=1))


def test_to_timer_iso_carries_the_offset():
    text = to_timer_iso(deadline_instant(date(2024, 4, 22)))
    assert text == "2024-04-23T00:00:00-04:00"
    assert datetime.fromisoformat(text).utcoffset() == timedelta(hours=-4)


def test_to_timer_iso_shows_a_utc_instant_in_puerto_rico_time():
    assert to_timer_iso(datetime(2024, 4, 23, 4, 0, tzinfo=timezone.utc)) == "2024-04-23T00:00:00-04:00"


def test_naive_datetimes_are_refused():
    with pytest.raises(ValueError):
        to_timer_iso(datetime(2024, 4, 23))
    with pytest.raises(ValueError):
        local_date(datetime(2024, 4, 23))


def test_local_date_is_the_puerto_rico_day():
    # 03:59 UTC on the 23rd is still 23:59 of the 22nd in Puerto Rico.
    assert local_date(datetime(2024, 4, 23, 3, 59, tzinfo=timezone.utc)) == date(2024, 4, 22)
    assert local_date(datetime(2024, 4, 23, 4, 0, tzinfo=timezone.utc)) == date(2024, 4, 23)


# --- TC-3: year and month periods never roll ---------------------------------------------------

def test_29_february_plus_two_years_is_28_february():
    assert add_years(date(2024, 2, 29), 2) == date(2026, 2, 28)


def test_add_years_keeps_month_and_day_and_never_rolls():
    assert add_years(date(2024, 2, 5), 2) == date(2026, 2, 5)
    # 2025-03-15 is a Saturday: year periods do not move to Monday.
    assert add_years(date(2024, 3, 15), 1) == date(2025, 3, 15)
    assert add_years(date(2024, 2, 29), 4) == date(2028, 2, 29)


def test_31_january_plus_one_month_clamps_to_end_of_february():
    assert add_months(date(2024, 1, 31), 1) == date(2024, 2, 29)
    assert add_months(date(2023, 1, 31), 1) == date(2023, 2, 28)


def test_add_months_across_years_and_backwards():
    assert add_months(date(2024, 11, 25), 18) == date(2026, 5, 25)
    assert add_months(date(2024, 12, 15), 1) == date(2025, 1, 15)
    assert add_months(date(2024, 3, 31), -1) == date(2024, 2, 29)
    assert add_months(date(2024, 2, 29), 12) == add_years(date(2024, 2, 29), 1)


def test_valid_until_is_the_day_before_the_anniversary():
    assert valid_until(date(2024, 3, 15), 1) == date(2025, 3, 14)
    assert valid_until(date(2024, 4, 10), 3) == date(2027, 4, 9)
    assert valid_until(date(2024, 2, 29), 1) == date(2025, 2, 27)


# --- the one date policy: as_local_date --------------------------------------------------------

@pytest.mark.parametrize(("value", "expected"), [
    pytest.param(date(2024, 2, 29), date(2024, 2, 29), id="a-date-is-itself"),
    pytest.param("2024-02-29", date(2024, 2, 29), id="iso-day-text"),
    pytest.param(" 2024-02-29 ", date(2024, 2, 29), id="iso-day-text-trimmed"),
    # 02:00 UTC on 1 March is 22:00 on 29 February in Puerto Rico.
    pytest.param(datetime(2024, 3, 1, 2, 0, tzinfo=timezone.utc), date(2024, 2, 29), id="utc-instant-pr-day"),
    pytest.param("2024-03-01T02:00:00+00:00", date(2024, 2, 29), id="utc-instant-text-pr-day"),
    pytest.param("2024-03-01T02:00:00Z", date(2024, 2, 29), id="zulu-text-pr-day"),
    pytest.param("2024-03-01T03:59:59+00:00", date(2024, 2, 29), id="last-second-of-the-pr-day"),
    pytest.param("2024-03-01T04:00:00+00:00", date(2024, 3, 1), id="pr-midnight"),
    pytest.param("2024-02-29T23:30:00-04:00", date(2024, 2, 29), id="pr-offset-text"),
    pytest.param(datetime(2024, 2, 29, 23, 30, tzinfo=PUERTO_RICO), date(2024, 2, 29), id="pr-instant"),
    # Without an offset there is no zone to convert from: the day written is the day.
    pytest.param("2024-02-29T23:30:00", date(2024, 2, 29), id="naive-text-its-day"),
    pytest.param(datetime(2024, 2, 29, 23, 30), date(2024, 2, 29), id="naive-datetime-its-day"),
])
def test_as_local_date(value, expected):
    assert as_local_date(value) == expected
    assert type(as_local_date(value)) is date


@pytest.mark.parametrize("value", [
    pytest.param(datetime(2024, 3, 1, 2, 0, tzinfo=timezone.utc), id="aware-instant"),
    pytest.param(datetime(2024, 3, 1, 2, 0), id="naive-instant"),
    pytest.param("2024-03-01T02:00:00+00:00", id="instant-text"),
    pytest.param("2024-03-01T02:00:00", id="naive-instant-text"),
    pytest.param("20240301", id="compact-text"),
])
def test_as_local_date_without_instants_refuses_them(value):
    with pytest.raises(ValueError):
        as_local_date(value, instants=False)


def test_as_local_date_without_instants_takes_days():
    assert as_local_date(date(2024, 2, 29), instants=False) == date(2024, 2, 29)
    assert as_local_date("2024-02-29", instants=False) == date(2024, 2, 29)


@pytest.mark.parametrize("value", ["29/02/2024", "", "None", "2024-02-30", "yesterday"])
def test_as_local_date_refuses_what_is_not_a_date(value):
    with pytest.raises(ValueError):
        as_local_date(value)
