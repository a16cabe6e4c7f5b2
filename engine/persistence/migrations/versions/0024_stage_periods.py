"""reports: the time each case spends in each stage (case_stage_period), and the indexes the
reports read (cases opened and closed per month and office, legal deadlines met)

No backfill: `stage` is a case variable; the case row keeps only the current one and neither the
history nor the task rows record when it changed, so no past period can be rebuilt exactly. A case
already running gets its first period at its next change of stage.

Revision ID: 0024
Revises: 0023
"""
import sqlalchemy as sa
from alembic import op

revision = "0024"
down_revision = "0023"
branch_labels = None
depends_on = None

BIG_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "case_stage_period",
        sa.Column("id", BIG_ID, autoincrement=True, nullable=False),
        sa.Column("instance_id", BIG_ID, nullable=False),
        sa.Column("process_key", sa.String(length=100), nullable=False),
        sa.Column("stage", sa.String(length=60), nullable=False),
        sa.Column("entered_at", sa.DateTime(), nullable=False),
        sa.Column("left_at", sa.DateTime(), nullable=True),
        sa.Column("due_at", sa.DateTime(), nullable=True),
        sa.Column("seconds", sa.Float(), nullable=True),
        sa.Column("on_time", sa.Boolean(), nullable=True),
        sa.Column("office", sa.String(length=100), nullable=True),
        sa.ForeignKeyConstraint(["instance_id"], ["process_instance.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_case_stage_period_instance_id", "case_stage_period", ["instance_id"])
    op.create_index("ix_stage_period_report", "case_stage_period",
                    ["process_key", "stage", "seconds", "left_at", "office", "on_time"])
    op.create_index("ix_instance_ended", "process_instance", ["ended_at", "process_key", "office"])
    op.create_index("ix_instance_started_office", "process_instance", ["started_at", "process_key", "office"])


def downgrade() -> None:
    op.drop_index("ix_instance_started_office", table_name="process_instance")
    op.drop_index("ix_instance_ended", table_name="process_instance")
    op.drop_index("ix_stage_period_report", table_name="case_stage_period")
    op.drop_index("ix_case_stage_period_instance_id", table_name="case_stage_period")
    op.drop_table("case_stage_period")
