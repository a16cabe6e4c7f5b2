"""work management: a user's absence with its substitute, the reminders sent per task (once each), and
the completed-task index of the cycle-time report

Revision ID: 0021
Revises: 0018
"""
import sqlalchemy as sa
from alembic import op

revision = "0021"
down_revision = "0018"
branch_labels = None
depends_on = None

BIG_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "user_absence",
        sa.Column("username", sa.String(length=100), nullable=False),
        sa.Column("substitute", sa.String(length=100), nullable=False),
        sa.Column("starts_at", sa.DateTime(), nullable=False),
        sa.Column("ends_at", sa.DateTime(), nullable=False),
        sa.Column("set_by", sa.String(length=100), nullable=False),
        sa.Column("set_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("username"),
    )
    op.create_index("ix_user_absence_substitute", "user_absence", ["substitute", "ends_at"])
    op.create_table(
        "task_reminder",
        sa.Column("task_id", BIG_ID, nullable=False),
        sa.Column("kind", sa.String(length=20), nullable=False),
        sa.Column("sent_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["task_id"], ["task.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("task_id", "kind"),
    )
    op.create_index("ix_task_completed", "task", ["completed_at", "element_id"])


def downgrade() -> None:
    op.drop_index("ix_task_completed", table_name="task")
    op.drop_table("task_reminder")
    op.drop_index("ix_user_absence_substitute", table_name="user_absence")
    op.drop_table("user_absence")
