"""What the reports read besides the task table: the time each case spent in each stage (migration 0024).

The case row holds only its current `stage` and the history records no change of it, so a stage's
duration cannot be read back afterwards: the engine keeps one row per stage a case passes through,
closed as the case leaves it (engine/runtime/stage_periods.py)."""
from __future__ import annotations

from datetime import datetime

from sqlalchemy import Boolean, Float, ForeignKey, Index, String
from sqlalchemy.orm import Mapped, mapped_column

from engine.persistence.models.core import Base, BigId
from engine.persistence.types import UTCDateTime


class CaseStagePeriod(Base):
    __tablename__ = "case_stage_period"
    __table_args__ = (
        # The report, index-only: per procedure and stage the durations come in order, so a median is
        # found by stepping through the index (report_stats.ranked_quantiles), not by sorting.
        Index("ix_stage_period_report", "process_key", "stage", "seconds", "left_at", "office", "on_time"),
    )
    id: Mapped[int] = mapped_column(BigId, primary_key=True)
    instance_id: Mapped[int] = mapped_column(BigId, ForeignKey("process_instance.id", ondelete="CASCADE"), index=True)
    process_key: Mapped[str] = mapped_column(String(100))
    stage: Mapped[str] = mapped_column(String(60))
    entered_at: Mapped[datetime] = mapped_column(UTCDateTime)
    left_at: Mapped[datetime | None] = mapped_column(UTCDateTime)  # None while the case is in it
    # The earliest due date of the case's open tasks while it was in the stage (None: no deadline).
    due_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    # Set as the case leaves: the seconds it stayed, whether it left by due_at, its office then.
    seconds: Mapped[float | None] = mapped_column(Float)
    on_time: Mapped[bool | None] = mapped_column(Boolean)
    office: Mapped[str | None] = mapped_column(String(100))
