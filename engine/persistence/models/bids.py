"""The bidder registry: bidders, their sanctions (BID-21…29), single-bidder counts and fiscal-year locks (BID-36)."""
from __future__ import annotations

from datetime import date, datetime

from sqlalchemy import Date, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from engine.persistence.models.core import Base, BigId
from engine.persistence.types import JSONType, UTCDateTime


class Bidder(Base):
    __tablename__ = "bidder"

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    name: Mapped[str] = mapped_column(String(200))
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime)


class BidderSanction(Base):
    __tablename__ = "bidder_sanction"

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    bidder_id: Mapped[str] = mapped_column(String(40), index=True)
    kind: Mapped[str] = mapped_column(String(30))
    months: Mapped[int | None] = mapped_column(Integer)
    from_date: Mapped[date] = mapped_column(Date)
    # Null: a withdrawal from the Registro with no term, until an admin lifts it.
    eligible_again: Mapped[date | None] = mapped_column(Date)
    lifted_on: Mapped[date | None] = mapped_column(Date)
    reason: Mapped[str | None] = mapped_column(Text)
    case_id: Mapped[int | None] = mapped_column(BigId, index=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)


class BidMatter(Base):
    __tablename__ = "bid_matter"

    matter_key: Mapped[str] = mapped_column(String(200), primary_key=True)
    matter: Mapped[str] = mapped_column(String(300))
    consecutive_single_bidder: Mapped[int] = mapped_column(Integer, default=0)
    # Each case counts once, so a retried script never counts twice.
    counted_case_ids: Mapped[list] = mapped_column(JSONType, default=list)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime)


class PurchaseLock(Base):
    __tablename__ = "purchase_lock"

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    matter_key: Mapped[str] = mapped_column(String(200), index=True)
    matter: Mapped[str] = mapped_column(String(300))
    cause: Mapped[str] = mapped_column(String(30))
    locked_until: Mapped[date] = mapped_column(Date)
    case_id: Mapped[int | None] = mapped_column(BigId, unique=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
