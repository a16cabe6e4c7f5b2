"""The Registro de Agricultores Bona Fide: one row per entry (FAR-10, FAR-11, FAR-15)."""
from __future__ import annotations

from datetime import date, datetime

from sqlalchemy import Date, Index, String
from sqlalchemy.orm import Mapped, mapped_column

from engine.persistence.models.core import Base, BigId
from engine.persistence.types import JSONType, UTCDateTime


class FarmerRecord(Base):
    __tablename__ = "farmer_record"
    __table_args__ = (Index("ix_farmer_record_status_type", "status", "producer_type"),)

    id: Mapped[str] = mapped_column(String(20), primary_key=True)
    name: Mapped[str] = mapped_column(String(200))
    producer_type: Mapped[str] = mapped_column(String(20))
    address: Mapped[str | None] = mapped_column(String(300))
    municipality: Mapped[str | None] = mapped_column(String(100))
    status: Mapped[str] = mapped_column(String(20))
    registered_on: Mapped[date] = mapped_column(Date)
    renewal_due: Mapped[date | None] = mapped_column(Date)
    # The admission and membership cases of this producer, oldest first.
    case_ids: Mapped[list] = mapped_column(JSONType, default=list)
    # Unique, so a retried admission script finds its entry instead of registering twice.
    admission_case_id: Mapped[int | None] = mapped_column(BigId, unique=True)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime)
