"""four indexes that only repeated the leading columns of another on the same table are dropped

Revision ID: 0036
Revises: 0035

Every index is written at each insert of its table's row and at each update that is not HOT, and a
case's completion is never HOT (its status, its task's state and its end change): a case wrote each
of process_instance's 15 and task's 12 indexes twice. Four of them held nothing another index did not
hold first, in the same order, so any scan they served the other serves too:
- ix_instance_started (started_at): ix_instance_started_office (started_at, process_key, office), 0024;
- ix_process_instance_definition_id (definition_id): ix_instance_visibility (definition_id, office,
  status, started_by), 0009 (also the index the foreign key's checks read);
- ix_task_assignee_state (assignee, state): ix_task_assignee_order (assignee, state, then the inbox's
  order), 0009;
- ix_task_available_lane (0008), on PostgreSQL only: ix_task_available_lane_case (0029) has the same
  keys and condition and its task's case besides. SQLite has no INCLUDE and keeps 0008's.
Measured in bench/RESULTS.md ("redundant indexes"): the bytes and the WAL a case writes, and the lists'
plans at 1,000,000 cases.
"""
import sqlalchemy as sa
from alembic import op

revision = "0036"
down_revision = "0035"
branch_labels = None
depends_on = None

ORDER = [sa.text("priority DESC"), sa.text("(due_at IS NULL)"), sa.text("due_at"), sa.text("id")]


def upgrade() -> None:
    op.drop_index("ix_instance_started", table_name="process_instance")
    op.drop_index("ix_process_instance_definition_id", table_name="process_instance")
    op.drop_index("ix_task_assignee_state", table_name="task")
    if op.get_bind().dialect.name == "postgresql":
        op.drop_index("ix_task_available_lane", table_name="task")


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.create_index("ix_task_available_lane", "task", [sa.text("lane"), *ORDER], unique=False,
                        postgresql_where=sa.text("state = 'open' AND assignee IS NULL"))
    op.create_index("ix_task_assignee_state", "task", ["assignee", "state"], unique=False)
    op.create_index("ix_process_instance_definition_id", "process_instance", ["definition_id"], unique=False)
    op.create_index("ix_instance_started", "process_instance", ["started_at"], unique=False)
