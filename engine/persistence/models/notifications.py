"""The notifications outbox: one row per notice a case owes someone."""
from __future__ import annotations

from datetime import datetime

from sqlalchemy import String, Text
from sqlalchemy.orm import Mapped, mapped_column

from engine.persistence.models.core import Base, BigId
from engine.persistence.types import UTCDateTime


class Notification(Base):
    __tablename__ = "notification"

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    case_id: Mapped[int | None] = mapped_column(BigId, index=True)
    recipient: Mapped[str] = mapped_column(String(200))
    address: Mapped[str | None] = mapped_column(String(300))
    channel: Mapped[str] = mapped_column(String(30))
    subject: Mapped[str] = mapped_column(String(300))
    body: Mapped[str] = mapped_column(Text)
    element_id: Mapped[str | None] = mapped_column(String(200))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    sent_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    status: Mapped[str] = mapped_column(String(20), index=True)
    error: Mapped[str | None] = mapped_column(Text)
    # The generated letter (a document of the case file) this notice carries, if any.
    document_id: Mapped[int | None] = mapped_column(BigId)
