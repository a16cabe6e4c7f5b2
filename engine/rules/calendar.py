"""Legal deadline arithmetic for the four procedures (RULES.md TC-1..TC-3, README "Deadlines").

Pure functions: no database, no Flask, no SpiffWorkflow. The clock decides what "today" is; this
module only turns an event day into the days and instants the law attaches to it.

Two families of periods, which must never be mixed:
- day periods ("within N days of E", windows): calendar days, E excluded, and a last day on a
  Saturday, Sunday or configured holiday rolls to the next business day (TC-1, TC-2);
- year and month periods (retention, renewal, validity, bans, reapply bar): same month and day
  N years/months later, and they never roll (TC-3).
"""
from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

# Puerto Rico keeps Atlantic Standard Time all year (UTC-4, no DST); legal days are its days,
# not the server's and not UTC's.
PUERTO_RICO = ZoneInfo("America/Puerto_Rico")

_ISO_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")


def parse_holidays(values: Iterable[str | date] | None) -> frozenset[date]:
    """The configured holidays (`calendar.holidays`) as a set of days.

    Strings must be exactly ``YYYY-MM-DD``: `date.fromisoformat` alone would also take
    ``20240704`` or week dates, which an administrator typing a holiday never means.
    ``None`` (a parameter the regulation leaves unset) is no holidays.
    """
    if values is None:
        return frozenset()
    if isinstance(values, (str, date)):
        # A lone string would otherwise be iterated character by character.
        raise ValueError("holidays must be a list of dates, not a single value")
    days: set[date] = set()
    for value in values:
        if isinstance(value, datetime):
            # A datetime never equals a date, so it would silently fail to block its day.
            raise ValueError(f"holiday {value!r} is a datetime; give the day as YYYY-MM-DD")
        if isinstance(value, date):
            days.add(value)
        elif isinstance(value, str) and _ISO_DAY.fullmatch(value):
            try:
                days.add(date.fromisoformat(value))
            except ValueError as exc:
                raise ValueError(f"holiday {value!r} is not a real date") from exc
        else:
            raise ValueError(f"holiday {value!r} is not a date in YYYY-MM-DD form")
    return frozenset(days)


def is_business_day(day: date, holidays: Iterable[str | date] = ()) -> bool:
    """Monday to Friday and not a configured holiday."""
    return day.weekday() < 5 and day not in parse_holidays(holidays)


def next_business_day_on_or_after(day: date, holidays: Iterable[str | date] = ()) -> date:
    """`day` itself when it is a business day, else the first business day after it."""
    blocked = parse_holidays(holidays)
    while day.weekday() >= 5 or day in blocked:
        day += timedelta(days=1)
    return day


def last_timely_day(
    event_day: date,
    days: int,
    *,
    roll_forward: bool = True,
    holidays: Iterable[str | date] = (),
) -> date:
    """Last day on which an act due "within `days` days of `event_day`" is still timely.

    TC-1: the event day is excluded and the last day included, so it is E+N (day N+1 is late).
    TC-2: with `roll_forward`, a last day on a weekend or holiday moves to the next business day;
    a holiday on the Monday it lands on moves it again.
    """
    if isinstance(days, bool) or not isinstance(days, int):
        raise ValueError(f"days must be a whole number, got {days!r}")
    if days < 0:
        raise ValueError(f"days must not be negative, got {days}")
    last = event_day + timedelta(days=days)
    if roll_forward:
        last = next_business_day_on_or_after(last, holidays)
    return last


def window_closes(
    opened: date,
    days: int,
    *,
    roll_forward: bool = True,
    holidays: Iterable[str | date] = (),
) -> date:
    """Last day of a claim/category/request window opened on `opened` (README "Windows").

    The same count as a deadline: the next stage opens the day after the returned day.
    """
    return last_timely_day(opened, days, roll_forward=roll_forward, holidays=holidays)


def deadline_instant(last_day: date) -> datetime:
    """The instant a deadline timer fires: 00:00 Puerto Rico time on the day after `last_day`.

    Firing at the start of the next day, not at the end of the last one, leaves the whole last
    day timely whatever hour the act is recorded.
    """
    if isinstance(last_day, datetime):
        raise ValueError("deadline_instant takes a day (date), not a datetime")
    return datetime.combine(last_day + timedelta(days=1), time(0, 0), tzinfo=PUERTO_RICO)


def _require_aware(instant: datetime) -> None:
    if not isinstance(instant, datetime):
        raise ValueError(f"expected a datetime, got {type(instant).__name__}")
    if instant.tzinfo is None or instant.utcoffset() is None:
        # A naive value would be read in the server's zone by SpiffWorkflow: wrong by hours.
        raise ValueError("naive datetime: legal instants must carry a timezone")


def to_timer_iso(instant: datetime) -> str:
    """ISO 8601 text with offset for a BPMN `timeDate`, e.g. ``2024-04-23T00:00:00-04:00``.

    SpiffWorkflow reads an offset-less timeDate in the host's local zone, so the offset is
    mandatory; the instant is shown in Puerto Rico time so diagrams and audits read naturally.
    """
    _require_aware(instant)
    return instant.astimezone(PUERTO_RICO).isoformat()


def local_date(instant: datetime) -> date:
    """The Puerto Rico calendar day on which an aware instant falls."""
    _require_aware(instant)
    return instant.astimezone(PUERTO_RICO).date()


def as_local_date(value, *, instants: bool = True) -> date:
    """The one date policy: the legal day of a value.

    A `date` is itself; `YYYY-MM-DD` text is that day; an aware instant (or ISO text of one) is the
    Puerto Rico calendar day it falls on, never its UTC date. A date and time without an offset
    names its own day, whether it comes as text or as a `datetime` (no zone to convert from).
    `instants=False` refuses instants where a legal period must start on a day the act names.
    """
    if isinstance(value, datetime):
        if not instants:
            raise ValueError("a legal period starts on a day, not an instant")
        return local_date(value) if value.utcoffset() is not None else value.date()
    if isinstance(value, date):
        return value
    text = str(value).strip()
    if _ISO_DAY.fullmatch(text):
        return date.fromisoformat(text)
    if not instants:
        raise ValueError(f"{text!r} is not a day (YYYY-MM-DD)")
    return as_local_date(datetime.fromisoformat(text.replace("Z", "+00:00")))


def add_years(day: date, years: int) -> date:
    """Same month and day `years` later (TC-3); 29 Feb maps to 28 Feb. Never rolls."""
    try:
        return day.replace(year=day.year + years)
    except ValueError:
        # Only 29 Feb can fail; TC-3 picks 28 Feb rather than 1 Mar.
        return day.replace(year=day.year + years, day=28)


def _last_day_of_month(year: int, month: int) -> int:
    first_of_next = date(year + month // 12, month % 12 + 1, 1)
    return (first_of_next - timedelta(days=1)).day


def add_months(day: date, months: int) -> date:
    """Same day of the month `months` later. Never rolls.

    When the target month is shorter (31 Jan + 1 month), the day is clamped to that month's last
    day (28 or 29 Feb). This is the month counterpart of TC-3's 29 Feb → 28 Feb: the period
    ends inside the month it names instead of spilling into the next one, and
    ``add_months(d, 12 * n) == add_years(d, n)`` always holds.
    """
    index = day.year * 12 + (day.month - 1) + months
    year, month0 = divmod(index, 12)
    month = month0 + 1
    return date(year, month, min(day.day, _last_day_of_month(year, month)))


def valid_until(start: date, years: int) -> date:
    """Last day of a validity of `years` years starting on `start` (TC-3b, TC-3c).

    Valid on start … (start + N years − 1 day); lapsed from start + N years.
    """
    return add_years(start, years) - timedelta(days=1)


def last_day_of(instant: datetime) -> date | None:
    """The last legal day a deadline timer stands for (the inverse of `deadline_instant`), or None
    when the instant is not a day's deadline (a timer of hours or a set time)."""
    _require_aware(instant)
    local = instant.astimezone(PUERTO_RICO)
    if (local.hour, local.minute, local.second, local.microsecond) != (0, 0, 0, 0):
        return None
    return local.date() - timedelta(days=1)


def moved_by_suspension(due: datetime, days: int, *, roll_forward: bool = True,
                        holidays: Iterable[str | date] = ()) -> datetime:
    """A running deadline after a suspension of `days` calendar days (API.md §Legal time): the last
    day moves later by those days and then, under TC-2, past a weekend or holiday; a timer that is
    not a day's deadline moves by the same days, hour for hour."""
    last = last_day_of(due)
    if last is None:
        return due + timedelta(days=days)
    moved = last + timedelta(days=days)
    if roll_forward:
        moved = next_business_day_on_or_after(moved, holidays)
    return deadline_instant(moved)
