"""The overdue case list's exact total on PostgreSQL (X-Total-Count of `?overdue=true`, migration 0032).

"Overdue" is `next_due_at < now`: it moves with the clock, so no total can be kept for it, but the
due day can. case_due_total keeps the cases with a due date by case_total's key and the UTC day of
that date. The cases due before today are the sum of its rows for the days before today (the
worker folds the past into one row per key); today's cases due before now are counted over their
rows, one day's range of ix_instance_next_due. The two parts are disjoint and together are exactly
the cases with `next_due_at < now`.

A fold at a later day than the reader's (a clock set back, in tests) has put days the reader calls
future into its past row: the reader then answers None and the list counts its rows."""
from __future__ import annotations

from datetime import datetime, time, timezone

from sqlalchemy import case, func, select

from engine.identity.actor import Actor
from engine.kernel import access
from engine.persistence.models import CASE_DUE_TOTAL
from engine.persistence.tables import INSTANCE


def day_of(now: datetime) -> tuple:
    """(today's UTC date, its midnight): the due days' calendar (next_due_at is kept in UTC)."""
    today = now.astimezone(timezone.utc).date()
    return today, datetime.combine(today, time(), tzinfo=timezone.utc)


def cases(session, actor: Actor, versions_with_my_lanes, now, case_filters, **filters) -> int | None:
    """The overdue list's total with the other filters `case_filters(table, **filters)` builds."""
    today, midnight = day_of(now)
    due = CASE_DUE_TOTAL.c
    past = [*case_filters(CASE_DUE_TOTAL, **filters), due.due_day < today]
    on_rows = [*case_filters(INSTANCE, **filters), INSTANCE.c.next_due_at < now]
    if access.sees_all_cases(actor):
        kept = _past_sum(session, past, today)
        visible = []
    else:
        mine = versions_with_my_lanes()
        kept = _past_sum(session, [*past, due.definition_id.in_(mine),
                                   access.office_condition(actor, due.office)], today) if mine else 0
        if kept is None:
            return None
        # The cases they started outside those versions: one range of ix_instance_started_by.
        kept += session.execute(select(func.count()).select_from(INSTANCE).where(
            INSTANCE.c.started_by == actor.username, INSTANCE.c.definition_id.not_in(mine),
            access.office_condition(actor, INSTANCE.c.office), *on_rows,
            INSTANCE.c.next_due_at < midnight)).scalar()
        visible = [access.visible_cases_condition(actor, INSTANCE, lambda: mine)]
    if kept is None:
        return None
    today_due = session.execute(select(func.count()).select_from(INSTANCE).where(
        *visible, *on_rows, INSTANCE.c.next_due_at >= midnight)).scalar()
    return int(kept) + int(today_due)


def _past_sum(session, conditions, today) -> int | None:
    """The kept rows of the days before today, or None after a fold at a later day."""
    due = CASE_DUE_TOTAL.c
    # The latest fold's past row: the head of ix_case_due_total_past (an EXISTS read the table).
    later_fold = select(func.max(due.due_day)).where(due.folded_past).scalar_subquery() >= today
    return session.execute(select(case((later_fold, None), else_=func.coalesce(func.sum(due.n), 0)))
                           .where(*conditions)).scalar()
