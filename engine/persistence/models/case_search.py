"""The case list's search table (migration 0033): a narrow copy of each case row's searched and
visibility columns, kept in step by triggers on `process_instance` (PostgreSQL and SQLite alike).

At 1,000,000 cases a text search's exact total rechecked ~17,000 heap blocks of the wide case rows
(variables, workflow state): 90-250 ms. Here the same rows are ~70 bytes, and the trigram indexes
live on this table instead of the case row, so a case's many saves that change none of these
columns write no trigram index at all. The columns never or rarely change (an office move, a
version migration, a new applicant name), so the table is written at a case's start and seldom after."""
from __future__ import annotations

from sqlalchemy import Column, ForeignKey, Index, Integer, String, Table, Text

from engine.persistence.models.core import Base, BigId
from engine.persistence.types import UTCDateTime

CASE_SEARCH = Table(
    "case_search", Base.metadata,
    # A case's removal (the retention purge) removes its row with it.
    Column("instance_id", BigId, ForeignKey("process_instance.id", ondelete="CASCADE"), primary_key=True),
    Column("started_at", UTCDateTime, nullable=False),
    Column("case_number", String(40), nullable=False),
    Column("process_key", String(100), nullable=False),
    Column("definition_id", Integer, nullable=False),
    Column("office", String(100)),
    Column("started_by", String(100), nullable=False),
    Column("search_text", Text),
    # The page of a search in the list's order (newest first), and the starters' cases counted as one
    # range (engine/queries/case_search.py).
    Index("ix_case_search_started", "started_at", "instance_id"),
    Index("ix_case_search_started_by", "started_by"),
)
