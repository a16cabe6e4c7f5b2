"""A user's absence and its substitute (API.md "Work management"): set by an admin, a supervisor or
the user themself; the substitute must hold the absent user's lanes, or it is refused (422)."""
from __future__ import annotations

from datetime import date, datetime, time, timedelta

from sqlalchemy import delete, insert, select

from engine.errors import Forbidden, NotFound, ValidationFailed
from engine.identity import accounts, absences
from engine.identity.actor import BUILTIN_ROLES
from engine.persistence.tables import IS_OPEN, TASK
from engine.rules.calendar import PUERTO_RICO


def _instant(field: str, value: str, end_of_day: bool) -> datetime:
    """A day (Puerto Rico's: `until` takes the whole day) or an instant with its offset."""
    try:
        if len(value) == 10:
            day = date.fromisoformat(value) + timedelta(days=1 if end_of_day else 0)
            return datetime.combine(day, time(), PUERTO_RICO)
        instant = datetime.fromisoformat(value)
    except (TypeError, ValueError, OverflowError):
        raise ValidationFailed(f"{field} is not a date", {field: ["expected YYYY-MM-DD or an ISO instant"]}) from None
    if instant.tzinfo is None:
        raise ValidationFailed(f"{field} has no offset", {field: ["an instant needs its offset (e.g. -04:00)"]})
    return instant


def _check_allowed(actor, username: str) -> None:
    if not (actor.is_admin or actor.is_supervisor or actor.username == username):
        raise Forbidden("only an admin, a supervisor or the user may set the user's absence")


def _lanes_of(ctx, user) -> set[str]:
    """The absent user's lanes: their roles that are no built-in one, and those of the tasks they hold."""
    held = ctx.conn.execute(select(TASK.c.lane).distinct().where(TASK.c.assignee == user.username, IS_OPEN))
    return ({r for r in user.role_ids if r not in BUILTIN_ROLES} | {lane for (lane,) in held if lane})


def set_absence(ctx, username: str, starts: str, until: str, substitute: str) -> dict:
    _check_allowed(ctx.actor, username)
    user = accounts.get_user(ctx.session, username)
    try:
        stand_in = accounts.get_user(ctx.session, substitute)
    except NotFound:
        raise ValidationFailed(f"there is no user {substitute!r}", {"substitute": ["no such user"]}) from None
    if stand_in.username == user.username:
        raise ValidationFailed("a user cannot stand in for themself", {"substitute": ["must be someone else"]})
    starts_at, ends_at = _instant("from", starts, False), _instant("until", until, True)
    if ends_at <= starts_at:
        raise ValidationFailed("until is before from", {"until": ["must be after from"]})
    missing = sorted(_lanes_of(ctx, user) - set(stand_in.role_ids))
    if missing:
        raise ValidationFailed(f"{substitute} does not hold the lanes {', '.join(missing)}",
                               {"substitute": [f"does not hold the role {lane}" for lane in missing]})
    ctx.conn.execute(delete(absences.ABSENCE).where(absences.ABSENCE.c.username == user.username))
    ctx.conn.execute(insert(absences.ABSENCE).values(
        username=user.username, substitute=stand_in.username, starts_at=starts_at, ends_at=ends_at,
        set_by=ctx.actor.username, set_at=ctx.now))
    ctx.audit("absence_set", data={"username": user.username, "substitute": stand_in.username,
                                   "from": starts_at.isoformat(), "until": ends_at.isoformat()})
    return _view(absences.current(ctx.conn, user.username))


def end_absence(ctx, username: str) -> None:
    _check_allowed(ctx.actor, username)
    user = accounts.get_user(ctx.session, username)
    gone = ctx.conn.execute(delete(absences.ABSENCE).where(absences.ABSENCE.c.username == user.username))
    if gone.rowcount:
        ctx.audit("absence_ended", data={"username": user.username})


def _view(absence: dict) -> dict:
    return {**absence, "from": absence["from"].isoformat(), "until": absence["until"].isoformat()}
