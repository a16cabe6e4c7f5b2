"""The holidays in force: the managed calendar (table `holiday`) together with the `calendar.holidays`
parameter, which stays live for a day an admin types there. Every deadline count reads this union
through `parameters.typed_value("calendar.holidays", ...)`; engine/rules/calendar.py stays pure and is
handed the days."""
from __future__ import annotations

from datetime import date

from sqlalchemy import select
from sqlalchemy.orm import Session

from engine.persistence.models import Holiday

HOLIDAY = Holiday.__table__


def managed_days(session: Session) -> list[date]:
    return list(session.scalars(select(HOLIDAY.c.day)))


def names(session: Session, days) -> dict[date, dict]:
    """{day: {name_es, name_en, legal_source}} of the managed holidays among `days` (one read)."""
    days = sorted(set(days))
    if not days:
        return {}
    rows = session.execute(select(HOLIDAY.c.day, HOLIDAY.c.name_es, HOLIDAY.c.name_en, HOLIDAY.c.legal_source)
                           .where(HOLIDAY.c.day.in_(days)))
    return {r.day: {"name_es": r.name_es, "name_en": r.name_en, "legal_source": r.legal_source} for r in rows}
