"""The case file (expediente): documents with their folios, and internal notes.

A document row is never updated except to void it, never deleted; its bytes live in a storage
backend (engine/expediente/storage.py) under `storage` / `storage_key`, written before the row.
"""
from __future__ import annotations

from datetime import datetime

from sqlalchemy import BigInteger, Index, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from engine.persistence.models.core import Base, BigId
from engine.persistence.types import UTCDateTime


class DocumentCounter(Base):
    """The last folio drawn per case: an upsert on this row hands out folios 1, 2, 3… never twice."""

    __tablename__ = "document_counter"
    instance_id: Mapped[int] = mapped_column(BigId, primary_key=True)
    last: Mapped[int] = mapped_column(Integer, default=0)


class Document(Base):
    __tablename__ = "document"
    __table_args__ = (
        UniqueConstraint("instance_id", "folio"),
        UniqueConstraint("instance_id", "type", "version"),
        Index("ix_document_sha256", "sha256"),
    )
    id: Mapped[int] = mapped_column(BigId, primary_key=True)
    instance_id: Mapped[int] = mapped_column(BigId, index=True)
    folio: Mapped[int] = mapped_column(Integer)
    type: Mapped[str] = mapped_column(String(100))
    version: Mapped[int] = mapped_column(Integer)
    filename: Mapped[str] = mapped_column(String(255))
    media_type: Mapped[str] = mapped_column(String(100))
    size: Mapped[int] = mapped_column(BigInteger)
    sha256: Mapped[str] = mapped_column(String(64))
    source: Mapped[str] = mapped_column(String(20))
    description: Mapped[str | None] = mapped_column(Text)
    task_id: Mapped[int | None] = mapped_column(BigId)
    uploaded_by: Mapped[str] = mapped_column(String(100))
    uploaded_at: Mapped[datetime] = mapped_column(UTCDateTime)
    storage: Mapped[str] = mapped_column(String(20))
    storage_key: Mapped[str] = mapped_column(String(200))
    voided_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    voided_by: Mapped[str | None] = mapped_column(String(100))
    void_reason: Mapped[str | None] = mapped_column(Text)


class CaseNote(Base):
    """An internal note on a case: written once, never edited, never in the certified export."""

    __tablename__ = "case_note"
    id: Mapped[int] = mapped_column(BigId, primary_key=True)
    instance_id: Mapped[int] = mapped_column(BigId, index=True)
    at: Mapped[datetime] = mapped_column(UTCDateTime)
    author: Mapped[str] = mapped_column(String(100))
    text: Mapped[str] = mapped_column(Text)
