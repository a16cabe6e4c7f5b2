"""Drafts of task forms: what one person typed into an open task's form and has not submitted yet."""
from __future__ import annotations

from datetime import datetime

from sqlalchemy import ForeignKey, String
from sqlalchemy.orm import Mapped, mapped_column

from engine.persistence.models.core import Base, BigId
from engine.persistence.types import JSONType, UTCDateTime


class TaskDraft(Base):
    """One per (task, person); dropped when the task is completed (and with its task row)."""

    __tablename__ = "task_draft"

    task_id: Mapped[int] = mapped_column(BigId, ForeignKey("task.id", ondelete="CASCADE"), primary_key=True)
    username: Mapped[str] = mapped_column(String(100), primary_key=True)
    data: Mapped[dict] = mapped_column(JSONType)
    saved_at: Mapped[datetime] = mapped_column(UTCDateTime)
