"""The managed holiday calendar (issue 19): one row per legal holiday, with its name and the law that
sets it. Deadlines count the union of these days and the `calendar.holidays` parameter."""
from __future__ import annotations

from datetime import date, datetime

from sqlalchemy import Date, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from engine.persistence.models.core import Base
from engine.persistence.types import UTCDateTime


class Holiday(Base):
    __tablename__ = "holiday"
    day: Mapped[date] = mapped_column(Date, primary_key=True)  # one holiday per day: the calendar's key
    name_es: Mapped[str] = mapped_column(String(200))
    name_en: Mapped[str] = mapped_column(String(200))
    legal_source: Mapped[str] = mapped_column(Text)
    added_by: Mapped[str] = mapped_column(String(100))
    added_at: Mapped[datetime] = mapped_column(UTCDateTime)
