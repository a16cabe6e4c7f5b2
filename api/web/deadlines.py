"""A deadline as a person acts on it: the last day to act, not the instant it falls due.

A legal deadline of "20 days" ends at the close of its last day, which the engine stores as the
next day's midnight (a timer due 22 Dec 00:00 is the 21st's end). Showing that instant reads as
"you have the 22nd"; the pages show the 21st as the last day, the instant on hover.
"""
from __future__ import annotations

from datetime import timedelta

from flask_babel import gettext as _

from api.web import i18n


def _last_moment(due):
    moment = i18n.local(due)
    if moment is None:
        return None
    at_midnight = (moment.hour, moment.minute, moment.second, moment.microsecond) == (0, 0, 0, 0)
    return moment - timedelta(microseconds=1) if at_midnight else moment


def last_day(due) -> str:
    """"21 dic 2026" for a deadline due 22 Dec 00:00; "21 dic 2026, hasta las 15:30" for one due then."""
    moment = _last_moment(due)
    if moment is None:
        return ""
    if moment.microsecond == 999999 and (moment.hour, moment.minute, moment.second) == (23, 59, 59):
        return i18n.day(moment.date())
    return _("%(day)s, hasta las %(time)s", day=i18n.day(moment.date()), time=moment.strftime("%H:%M"))


def days_to_act(due, now) -> str:
    """"vence hoy" on the last day itself; the days left counted to the last day."""
    moment = _last_moment(due)
    return i18n.days_left_text(moment, now) if moment is not None else ""
