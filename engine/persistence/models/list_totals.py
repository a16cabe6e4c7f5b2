"""The list totals kept beside the rows (migration 0031; engine/reporting/list_totals.py says why).

Delta rows, insert-only: PostgreSQL's triggers on `process_instance` and `task` add +n / -n rows
in the changing transaction, the worker folds them into one row per key, and a list's total is the
sum of the rows its filter selects. No primary key: a key has several rows until it is folded.
SQLite keeps the tables empty (its lists count the rows themselves)."""
from __future__ import annotations

from sqlalchemy import BigInteger, Boolean, Column, Date, Index, Integer, String, Table, false, true

from engine.persistence.models.core import Base, ProcessInstance

def _case_key() -> list[Column]:
    """A case list's key columns (what its filters select), fresh for each table that counts by it."""
    return [Column("definition_id", Integer, nullable=False), Column("process_key", String(100), nullable=False),
            Column("status", String(20), nullable=False), Column("office", String(100)),
            Column("stage", String(60)), Column("outcome", String(60))]


CASE_TOTAL = Table(
    "case_total", Base.metadata,
    *_case_key(),
    Column("n", BigInteger, nullable=False),
    # True for a trigger's delta, False for a folded row: the worker folds only when there is one.
    Column("pending", Boolean, nullable=False, server_default=true()),
)

TASK_TOTAL = Table(
    "task_total", Base.metadata,
    Column("state", String(20), nullable=False),
    Column("lane", String(64)),
    Column("assignee", String(100)),
    Column("office", String(100)),  # the case's office (a task list filters on it)
    Column("process_key", String(100), nullable=False),
    Column("n", BigInteger, nullable=False),
    Column("pending", Boolean, nullable=False, server_default=true()),
)

# The cases with a due date by case_total's key and the UTC day of that date (migration 0032): the
# overdue list's total is the days before today summed plus today's cases counted
# (engine/queries/overdue_totals.py). The worker's fold puts the past days in one row per key.
CASE_DUE_TOTAL = Table(
    "case_due_total", Base.metadata,
    *_case_key(),
    Column("due_day", Date, nullable=False),
    Column("n", BigInteger, nullable=False),
    Column("pending", Boolean, nullable=False, server_default=true()),
    # True for a fold's row of every day before the fold's own day (its due_day: the day before).
    Column("folded_past", Boolean, nullable=False, server_default=false()),
    Index("ix_case_due_total_day", "due_day"),
)

# A staff member's visible cases are the versions they work in plus the cases they started: the
# second part, outside those versions, is one range of this index, counted exactly.
Index("ix_instance_started_by", ProcessInstance.started_by, ProcessInstance.definition_id)
