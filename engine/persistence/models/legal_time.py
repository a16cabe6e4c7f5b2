"""Legal time: the suspensions of a case's deadlines (API.md §Legal time), one row each, kept after
the case resumes — the history of how long the clock stood still, and what each deadline became."""
from __future__ import annotations

from datetime import date, datetime

from sqlalchemy import Date, ForeignKey, Index, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from engine.persistence.models.core import Base, BigId
from engine.persistence.types import JSONType, UTCDateTime


class CaseSuspension(Base):
    __tablename__ = "case_suspension"
    __table_args__ = (
        # The worker's question: which suspensions end by now (`until` reached, not yet resumed).
        Index("ix_suspension_open_until", "resumed_at", "until"),
    )
    id: Mapped[int] = mapped_column(BigId, primary_key=True)
    instance_id: Mapped[int] = mapped_column(BigId, ForeignKey("process_instance.id", ondelete="CASCADE"), index=True)
    since: Mapped[datetime] = mapped_column(UTCDateTime)
    until: Mapped[date | None] = mapped_column(Date)  # the last day suspended, when the order says so
    reason: Mapped[str] = mapped_column(Text)
    legal_basis: Mapped[str] = mapped_column(Text)
    suspended_by: Mapped[str] = mapped_column(String(100))
    resumed_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    resumed_by: Mapped[str | None] = mapped_column(String(100))
    days: Mapped[int | None] = mapped_column(Integer)  # calendar days the deadlines moved
    deadlines: Mapped[list | None] = mapped_column(JSONType)  # [{element_id, name, before, after}]
