"""The applicant's side: one access code per case (kept only as a hash), the short sessions it
opens, and the failed attempts the throttle counts (engine/applicants/)."""
from __future__ import annotations

from datetime import datetime

from sqlalchemy import String
from sqlalchemy.orm import Mapped, mapped_column

from engine.persistence.models.core import Base, BigId
from engine.persistence.types import UTCDateTime


class ApplicantAccess(Base):
    """The case's current access code. Reissuing rewrites the row, so an earlier code stops working."""

    __tablename__ = "applicant_access"
    instance_id: Mapped[int] = mapped_column(BigId, primary_key=True)
    code_hash: Mapped[str] = mapped_column(String(200))
    issued_by: Mapped[str] = mapped_column(String(100))
    issued_at: Mapped[datetime] = mapped_column(UTCDateTime)


class ApplicantSession(Base):
    """A bearer token for one case, for at most two hours; only its sha256 is kept. `code_hash` ties
    it to the code that opened it: a reissued code ends the sessions of the old one."""

    __tablename__ = "applicant_session"
    id: Mapped[int] = mapped_column(BigId, primary_key=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    instance_id: Mapped[int] = mapped_column(BigId, index=True)
    code_hash: Mapped[str] = mapped_column(String(200))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime)


class ApplicantFailure(Base):
    """One failed case number + code attempt, kept only while inside the throttling window."""

    __tablename__ = "applicant_failure"
    id: Mapped[int] = mapped_column(BigId, primary_key=True)
    case_number: Mapped[str] = mapped_column(String(64), index=True)
    address: Mapped[str] = mapped_column(String(64), index=True)
    failed_at: Mapped[datetime] = mapped_column(UTCDateTime, index=True)
