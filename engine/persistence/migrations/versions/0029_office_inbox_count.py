"""an office clerk's inbox count without reading the tasks' or the cases' rows (PostgreSQL)

Revision ID: 0029
Revises: 0028

Measured with `python -m bench.production --only queries` at 1,000,000 cases / 10,000,000 task rows:
an office clerk's "available" list counts the lane's open unclaimed tasks of the clerk's office; the
office is on the case, so the count read each of the lane's 45,495 open tasks from the heap (21,160
blocks) and then each case's row for its office (EXPLAIN ANALYZE 1,372 ms on the shared machine).
- ix_task_available_lane_case: 0008's available-lane index with the task's case (INCLUDE): the task
  side of the count is an index-only scan.
- ix_instance_office_by_id: the case id with its office (INCLUDE): the probe for the office is
  index-only too. Together 383 ms in the same conditions; the rest is one probe per open task of the
  lane (see bench/RESULTS.md: the office on the task row would make it one index range).
INCLUDE is PostgreSQL's; SQLite's lists are a single machine's and keep 0008's indexes.
"""
from alembic import op

revision = "0029"
down_revision = "0028"
branch_labels = None
depends_on = None


def upgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    op.execute("CREATE INDEX IF NOT EXISTS ix_task_available_lane_case ON task "
               "(lane, priority DESC, (due_at IS NULL), due_at, id) INCLUDE (instance_id) "
               "WHERE state = 'open' AND assignee IS NULL")
    op.execute("CREATE INDEX IF NOT EXISTS ix_instance_office_by_id ON process_instance (id) INCLUDE (office)")


def downgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    op.execute("DROP INDEX IF EXISTS ix_instance_office_by_id")
    op.execute("DROP INDEX IF EXISTS ix_task_available_lane_case")
