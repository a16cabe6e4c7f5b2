"""What the reports read besides the task table: the time each case spent in each stage (migration 0024).

The case row holds only its current `stage` and the history records no change of it, so a stage's
duration cannot be read back afterwards: the engine keeps one row per stage a case passes through,
closed as the case leaves it (engine/runtime/stage_periods.py)."""
from __future__ import annotations

from datetime import date, datetime

from sqlalchemy import BigInteger, Boolean, Date, Float, ForeignKey, Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from engine.persistence.models.core import Base, BigId
from engine.persistence.types import JSONType, UTCDateTime


class CaseStagePeriod(Base):
    __tablename__ = "case_stage_period"
    __table_args__ = (
        # The report, index-only: per procedure and stage the durations come in order, so a median is
        # found by stepping through the index (engine/reporting/stats.ranked_quantiles), not by sorting.
        Index("ix_stage_period_report", "process_key", "stage", "seconds", "left_at", "office", "on_time"),
        Index("ix_stage_period_left", "left_at"),  # the report's projection, day by day (0028)
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


class ReportDay(Base):
    """The report's projection (migration 0028, engine/reporting/rollup.py): per Puerto Rico
    day (grain "day"), whole month or year ("month", "year": `day` is its first), kind of fact, procedure, item
    (task element, stage or deadline) and office: the count, how many had a due date, how many were
    on time, and the durations as log buckets (engine/reporting/sketch.py)."""

    __tablename__ = "report_day"
    __table_args__ = (
        Index("ux_report_day", "grain", "day", "kind", "process_key", "item", "office", unique=True),
    )
    id: Mapped[int] = mapped_column(BigId, primary_key=True)
    grain: Mapped[str] = mapped_column(String(5))
    kind: Mapped[str] = mapped_column(String(10))
    day: Mapped[date] = mapped_column(Date)
    process_key: Mapped[str] = mapped_column(String(100))
    item: Mapped[str] = mapped_column(String(200))
    office: Mapped[str] = mapped_column(String(100))  # "" for a case without one
    name: Mapped[str | None] = mapped_column(String(200))
    n: Mapped[int] = mapped_column(Integer)
    with_due: Mapped[int] = mapped_column(Integer)
    on_time: Mapped[int] = mapped_column(Integer)
    buckets: Mapped[dict] = mapped_column(JSONType, default=dict)


class ReportRollup(Base):
    """One row: the days before `through` are in report_day, as of the history up to `audit_id`."""

    __tablename__ = "report_rollup"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    through: Mapped[date | None] = mapped_column(Date)
    audit_id: Mapped[int] = mapped_column(BigInteger().with_variant(Integer(), "sqlite"), default=0)
    rolled_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
