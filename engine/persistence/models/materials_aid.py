"""Materials aid registries: beneficiaries (MAT-30's two-year wait) and the hardware stores (MAT-17)."""
from __future__ import annotations

from datetime import date, datetime

from sqlalchemy import Boolean, Date, String
from sqlalchemy.orm import Mapped, mapped_column

from engine.persistence.models.core import Base
from engine.persistence.types import JSONType, UTCDateTime


class Beneficiary(Base):
    __tablename__ = "materials_beneficiary"

    id: Mapped[str] = mapped_column(String(60), primary_key=True)
    name: Mapped[str] = mapped_column(String(200))
    municipality: Mapped[str | None] = mapped_column(String(100))
    last_use_date: Mapped[date | None] = mapped_column(Date)
    last_outcome: Mapped[str | None] = mapped_column(String(40))
    # The cases that delivered materials to this person, oldest first.
    case_ids: Mapped[list] = mapped_column(JSONType, default=list)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime)


class HardwareStore(Base):
    __tablename__ = "hardware_store"

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    name: Mapped[str] = mapped_column(String(200))
    registered: Mapped[bool] = mapped_column(Boolean, default=True, index=True)
    municipality: Mapped[str | None] = mapped_column(String(100))
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime)
