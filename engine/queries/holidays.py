"""The managed holiday calendar read back: one year's holidays, and which years it holds."""
from __future__ import annotations

from datetime import date

from sqlalchemy import select
from sqlalchemy.orm import Session

from engine.persistence.models import Holiday

HOLIDAY = Holiday.__table__


def holiday_view(row) -> dict:
    return {"date": row.day.isoformat(), "name_es": row.name_es, "name_en": row.name_en,
            "legal_source": row.legal_source, "added_by": row.added_by,
            "added_at": row.added_at.isoformat() if row.added_at else None}


def list_holidays(session: Session, year: int | None = None) -> list[dict]:
    """GET /holidays?year=: the holidays of `year` (all of them without it), in date order."""
    query = select(HOLIDAY).order_by(HOLIDAY.c.day)
    if year is not None:
        query = query.where(HOLIDAY.c.day >= date(year, 1, 1), HOLIDAY.c.day <= date(year, 12, 31))
    return [holiday_view(r) for r in session.execute(query)]


def years(session: Session) -> list[int]:
    """The years the calendar has a holiday in (the admin page's year choices)."""
    days = session.scalars(select(HOLIDAY.c.day).order_by(HOLIDAY.c.day)).all()
    return sorted({d.year for d in days})
