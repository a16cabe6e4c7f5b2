"""The managed holiday calendar (issue 19): an admin adds or removes a legal holiday, audited with
who, when, and the day before and after.

A holiday declared later (a governor's order closing the offices) applies to deadlines still
running, as a real office expects — see `holiday_deadlines.roll_running_deadlines` for which ones.
Removing a holiday never moves a running deadline earlier: a last day already computed, perhaps
printed in a letter the applicant holds, must not shrink; only deadlines computed afterwards lose it.
"""
from __future__ import annotations

from datetime import date

from engine.commands.holiday_deadlines import roll_running_deadlines, running_on
from engine.errors import Conflict, NotFound, ValidationFailed
from engine.kernel import access
from engine.persistence.models import Holiday
from engine.queries.holidays import holiday_view

_LIMITS = {"name_es": 200, "name_en": 200, "legal_source": 2000}


def parse_day(value, errors: dict, field: str = "date") -> date | None:
    if isinstance(value, date):
        return value
    text = value.strip() if isinstance(value, str) else ""
    if not text:
        errors[field] = ["required"]
        return None
    try:
        if len(text) != 10:
            raise ValueError(text)
        return date.fromisoformat(text)
    except ValueError:
        errors[field] = ["a date YYYY-MM-DD"]
        return None


def _texts(values: dict, errors: dict) -> dict:
    out = {}
    for field, limit in _LIMITS.items():
        value = values.get(field)
        text = value.strip() if isinstance(value, str) else ""
        if value is not None and not isinstance(value, str):
            errors[field] = ["must be text"]
        elif not text and field != "name_en":
            errors[field] = ["required"]
        elif len(text) > limit:
            errors[field] = [f"at most {limit} characters"]
        out[field] = text
    out["name_en"] = out["name_en"] or out["name_es"]  # an English page still names the day
    return out


def _checked(ctx, day, name_es, legal_source, name_en) -> tuple[date, dict]:
    access.require_admin(ctx.actor, "change the holiday calendar")
    errors: dict = {}
    day = parse_day(day, errors)
    texts = _texts({"name_es": name_es, "name_en": name_en, "legal_source": legal_source}, errors)
    if errors:
        raise ValidationFailed("the holiday needs a date, its name and its legal source", errors)
    existing = ctx.session.get(Holiday, day)
    if existing is not None:
        raise Conflict(f"{day.isoformat()} is already a holiday ({existing.name_es})", code="HOLIDAY_EXISTS")
    return day, texts


def preview_holiday(ctx, day, name_es, legal_source, name_en=None) -> dict:
    """What adding the holiday would do, saving nothing (the admin page's confirmation): the day and
    how many running deadlines end on it."""
    day, texts = _checked(ctx, day, name_es, legal_source, name_en)
    return {"date": day.isoformat(), **texts, "running_deadlines": running_on(ctx, day)}


def add_holiday(ctx, day, name_es, legal_source, name_en=None) -> dict:
    """POST /holidays: a legal holiday on `day`; running deadlines that end on it roll past it."""
    day, texts = _checked(ctx, day, name_es, legal_source, name_en)
    row = Holiday(day=day, **texts, added_by=ctx.actor.username, added_at=ctx.now)
    ctx.session.add(row)
    ctx.session.flush()
    moved = roll_running_deadlines(ctx, day, texts["name_es"], texts["name_en"])
    ctx.audit("holiday_added", data={"date": day, "before": None, "after": holiday_view(row),
                                     "deadlines_moved": moved})
    return {**holiday_view(row), "deadlines_moved": moved}


def remove_holiday(ctx, day) -> dict:
    """DELETE /holidays/{date}: the day is a working day again for deadlines computed from now on."""
    access.require_admin(ctx.actor, "change the holiday calendar")
    errors: dict = {}
    day = parse_day(day, errors)
    if errors:
        raise ValidationFailed("give the holiday's date", errors)
    row = ctx.session.get(Holiday, day)
    if row is None:
        raise NotFound(f"{day.isoformat()} is not in the holiday calendar")
    before = holiday_view(row)
    ctx.session.delete(row)
    ctx.audit("holiday_removed", data={"date": day, "before": before, "after": None})
    return before

