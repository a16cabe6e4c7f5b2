"""The record a case leaves when the retention job takes it out of the database (0027)."""
from __future__ import annotations

from datetime import datetime

from sqlalchemy import BigInteger, String
from sqlalchemy.orm import Mapped, mapped_column

from engine.persistence.models.core import Base, BigId
from engine.persistence.types import UTCDateTime


class CaseArchive(Base):
    """One archived case: its certified export (the expediente ZIP) sits at `location`, and
    `sha256` is the hash of that file's bytes, so the archive can be checked years later."""

    __tablename__ = "case_archive"
    id: Mapped[int] = mapped_column(BigId, primary_key=True)
    instance_id: Mapped[int] = mapped_column(BigInteger, unique=True)  # the removed case's id
    case_number: Mapped[str] = mapped_column(String(40), unique=True)
    process_key: Mapped[str] = mapped_column(String(100))
    status: Mapped[str] = mapped_column(String(20))
    ended_at: Mapped[datetime] = mapped_column(UTCDateTime)
    archived_at: Mapped[datetime] = mapped_column(UTCDateTime)
    location: Mapped[str] = mapped_column(String(500))
    sha256: Mapped[str] = mapped_column(String(64))
    size: Mapped[int] = mapped_column(BigInteger)
