"""Work management tables: a user's absence with its substitute, and the reminders already sent
for a task (so each is sent once)."""
from __future__ import annotations

from datetime import date, datetime

from sqlalchemy import Date, ForeignKey, Index, String
from sqlalchemy.orm import Mapped, mapped_column

from engine.persistence.models.core import Base, BigId
from engine.persistence.types import UTCDateTime


class UserAbsence(Base):
    """One absence per user at a time (a new one replaces it): from `starts_at` until `ends_at`
    (exclusive, engine clock) `substitute` sees and acts on the user's open tasks."""

    __tablename__ = "user_absence"
    __table_args__ = (Index("ix_user_absence_substitute", "substitute", "ends_at"),)
    username: Mapped[str] = mapped_column(String(100), primary_key=True)
    substitute: Mapped[str] = mapped_column(String(100))
    starts_at: Mapped[datetime] = mapped_column(UTCDateTime)
    ends_at: Mapped[datetime] = mapped_column(UTCDateTime)
    set_by: Mapped[str] = mapped_column(String(100))
    set_at: Mapped[datetime] = mapped_column(UTCDateTime)


class TaskReminder(Base):
    """A reminder (`due_soon`) or an escalation (`overdue`) sent for a task: the primary key makes
    a second one impossible, even with two timer workers."""

    __tablename__ = "task_reminder"
    task_id: Mapped[int] = mapped_column(BigId, ForeignKey("task.id", ondelete="CASCADE"), primary_key=True)
    kind: Mapped[str] = mapped_column(String(20), primary_key=True)
    sent_at: Mapped[datetime] = mapped_column(UTCDateTime)


class WorkDigest(Base):
    """A supervisor's daily digest sent for a Puerto Rico day: the key makes a second one that day
    impossible, even with two timer workers."""

    __tablename__ = "work_digest"
    username: Mapped[str] = mapped_column(String(100), primary_key=True)
    day: Mapped[date] = mapped_column(Date, primary_key=True)
    sent_at: Mapped[datetime] = mapped_column(UTCDateTime)
