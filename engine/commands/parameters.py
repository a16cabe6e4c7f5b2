"""Changing a legal parameter (admin; audited), and the check shown before confirming a change."""
from __future__ import annotations

from datetime import datetime, timezone

from sqlalchemy import func, select

from engine.commands.holiday_deadlines import roll_running_deadlines, running_on
from engine.config import holidays, parameter_types, parameters
from engine.errors import NotFound, ValidationFailed
from engine.kernel import access
from engine.persistence.models import Parameter
from engine.persistence.tables import INSTANCE
from engine.rules import calendar


def _checked(ctx, name: str, value) -> tuple[dict, object]:
    """(catalogue entry, JSON value to store); NotFound or a 422 on `value` saying what is expected."""
    access.require_admin(ctx.actor, "change parameters")
    entry = parameters.catalog().get(name)
    if entry is None:
        raise NotFound(f"there is no parameter {name!r}")
    try:
        typed = parameter_types.coerce(entry["type"], value, choices=entry.get("choices"),
                                       item_choices=entry.get("item_choices"))
        parameter_types.check_shape(entry, typed)
    except ValueError as exc:
        raise ValidationFailed(f"{name}: {exc}", {"value": [str(exc)]}) from None
    return entry, parameter_types.to_json(entry["type"], typed)


def preview_parameter(ctx, name: str, value) -> dict:
    """What a change would do, saving nothing: the value before and after, and how many running
    cases keep the old one (each case froze its values when it started)."""
    entry, new = _checked(ctx, name, value)
    current = next(p for p in parameters.describe(ctx.session) if p["name"] == name)
    running = ctx.session.scalar(select(func.count()).select_from(INSTANCE).where(INSTANCE.c.status == "active"))
    out = {**current, "old": current["value"], "new": new, "unchanged": current["value"] == new,
           "live": name in parameters.LIVE, "running": running}
    if name == "calendar.holidays":  # as the holiday page's confirmation: the running deadlines the new days move
        out["deadlines_on_new_days"] = sum(running_on(ctx, day) for day in _new_holidays(ctx, current["value"], new))
    return out


def set_parameter(ctx, name: str, value) -> dict:
    """PUT /parameters/{name}: a new value for cases started from now on (a running case keeps its own)."""
    entry, new = _checked(ctx, name, value)
    row = ctx.session.get(Parameter, name)
    if row is None:
        row = Parameter(name=name, type=entry["type"], default=entry["default"])
        ctx.session.add(row)
    old = row.value
    row.value = new
    # Machine time, not the engine clock: snapshot() uses it to notice the change, and two changes
    # at one frozen training instant must still differ.
    row.updated_at, row.updated_by = datetime.now(timezone.utc), ctx.actor.username
    data = {"name": name, "old": old, "new": row.value, "amb": entry.get("amb")}
    if name == "calendar.holidays":
        data["deadlines_moved"] = _roll_past_new_holidays(ctx, old, row.value)
    ctx.audit("parameter_changed", data=data)
    return next(p for p in parameters.describe(ctx.session) if p["name"] == name)


def _roll_past_new_holidays(ctx, old, new) -> list[dict]:
    """A day newly typed into `calendar.holidays` moves the running deadlines that end on it, as a
    holiday added to the managed calendar does (holiday_deadlines); a day that was already a holiday
    (in the old value or the calendar) moved them when it became one. A day taken out moves nothing
    back: a last day already given never shrinks (engine/commands/holidays.py)."""
    added = _new_holidays(ctx, old, new)
    if not added:
        return []
    ctx.session.flush()  # the deadlines are counted with the new value in force
    return [moved for day in added for moved in roll_running_deadlines(ctx, day, None)]


def _new_holidays(ctx, old, new) -> list:
    """The days of `new` that were no holiday before (neither in `old` nor in the managed calendar)."""
    before = {*calendar.parse_holidays(old or []), *holidays.managed_days(ctx.session)}
    return sorted(set(calendar.parse_holidays(new or [])) - before)
