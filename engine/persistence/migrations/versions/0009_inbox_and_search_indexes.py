"""the remaining inbox and case-list queries at 100,000 cases: a user's tasks in the inbox's order,
the open tasks by due date, trigram indexes for the case search on PostgreSQL

Revision ID: 0009
Revises: 0008

Measured with `python -m bench.production --only queries` (1,000,000 task rows): a user's completed
history sorted 13,825 rows for a page of 50 (p95 97 ms); the overdue case list joined every case to
the late tasks read from the heap (161 ms): the case row now carries `next_due_at`, the earliest due
date of its open tasks, kept by the projections (backfilled here); `q` scanned every case with ILIKE '%…%' (262 ms).
- ix_task_assignee_order: (assignee, state) then the inbox's order: a page of "mine" in either
  state is the first rows of one index scan.
- ix_task_open_due: the open tasks by due date with their case (the inbox's overdue filter).
- ix_instance_visibility: the columns a staff member's case list filters on (version, office,
  status, starter): its count is an index-only scan instead of reading every wide case row (55 ms).
- On PostgreSQL, pg_trgm GIN indexes on lower(case_number) and lower(started_by) let the search
  (`lower(column) LIKE '%q%'`) use an index. pg_trgm is a trusted extension (PostgreSQL 13+): the database's owner may create it. Where it
  is missing the search still works, by a scan.
"""
import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None

ORDER = [sa.text("priority DESC"), sa.text("(due_at IS NULL)"), sa.text("due_at"), sa.text("id")]
OPEN = sa.text("state = 'open'")


def _trigram_available(bind) -> bool:
    if bind.dialect.name != "postgresql":
        return False
    if not bind.execute(sa.text("SELECT 1 FROM pg_available_extensions WHERE name = 'pg_trgm'")).scalar():
        return False
    savepoint = bind.begin_nested()
    try:
        bind.execute(sa.text("CREATE EXTENSION IF NOT EXISTS pg_trgm"))
    except sa.exc.DBAPIError:
        savepoint.rollback()  # no right to create it here: the search keeps working without the index
        return False
    savepoint.commit()
    return True


def upgrade() -> None:
    op.add_column("process_instance", sa.Column("next_due_at", sa.DateTime(), nullable=True))
    op.execute("UPDATE process_instance SET next_due_at = (SELECT min(task.due_at) FROM task "
               "WHERE task.instance_id = process_instance.id AND task.state = 'open')")
    op.create_index("ix_instance_next_due", "process_instance", ["next_due_at"], unique=False)
    op.create_index("ix_instance_visibility", "process_instance", ["definition_id", "office", "status", "started_by"],
                    unique=False)
    op.create_index("ix_task_assignee_order", "task", [sa.text("assignee"), sa.text("state"), *ORDER], unique=False)
    op.create_index("ix_task_open_due", "task", ["due_at", "instance_id"], unique=False,
                    postgresql_where=OPEN, sqlite_where=OPEN)
    if _trigram_available(op.get_bind()):
        # On lower(...), as the search compares (engine/queries.py list_instances).
        for column in ("case_number", "started_by"):
            op.execute(f"CREATE INDEX ix_instance_{column}_trgm ON process_instance "
                       f"USING gin (lower({column}) gin_trgm_ops)")


def downgrade() -> None:
    op.drop_index("ix_instance_visibility", table_name="process_instance")
    op.drop_index("ix_instance_next_due", table_name="process_instance")
    op.drop_column("process_instance", "next_due_at")
    bind = op.get_bind()
    if bind.dialect.name == "postgresql":
        for column in ("case_number", "started_by"):
            op.execute(f"DROP INDEX IF EXISTS ix_instance_{column}_trgm")
    op.drop_index("ix_task_open_due", table_name="task")
    op.drop_index("ix_task_assignee_order", table_name="task")
