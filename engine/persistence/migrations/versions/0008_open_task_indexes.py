"""open-task inboxes: partial indexes in the task lists' order

Revision ID: 0008
Revises: 0007

The inbox (engine/queries.py list_tasks) orders open tasks by priority DESC, due_at IS NULL, due_at,
id. With 1,000,000 task rows the open ones (a few percent) were read through ix_task_assignee_state
or ix_task_state_lane and sorted: every open task of a lane, or of the whole office, fetched from
the heap for a page of 50. These partial indexes hold only the open tasks, in the list's order, so
a page is the first 50 entries of an index scan. Both contain an expression, as the order needs; the
models do not declare them (autogenerate skips expression indexes), like any plain index they work
on SQLite and PostgreSQL.
"""
import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None

ORDER = [sa.text("priority DESC"), sa.text("(due_at IS NULL)"), sa.text("due_at"), sa.text("id")]
OPEN = sa.text("state = 'open'")
AVAILABLE = sa.text("state = 'open' AND assignee IS NULL")


def upgrade() -> None:
    # scope=all (supervisors) and the "mine or available" union's open side
    op.create_index("ix_task_open_order", "task", ORDER, unique=False,
                    postgresql_where=OPEN, sqlite_where=OPEN)
    # scope=available: unclaimed open tasks of one lane, already in the list's order
    op.create_index("ix_task_available_lane", "task", [sa.text("lane"), *ORDER], unique=False,
                    postgresql_where=AVAILABLE, sqlite_where=AVAILABLE)


def downgrade() -> None:
    op.drop_index("ix_task_available_lane", table_name="task")
    op.drop_index("ix_task_open_order", table_name="task")
