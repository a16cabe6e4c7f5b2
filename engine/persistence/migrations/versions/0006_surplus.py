"""surplus disposition: the notifications outbox

Revision ID: 0006
Revises: 0005
"""
import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

BIG_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "notification",
        sa.Column("id", BIG_ID, autoincrement=True, nullable=False),
        sa.Column("case_id", BIG_ID, nullable=True),
        sa.Column("recipient", sa.String(length=200), nullable=False),
        sa.Column("address", sa.String(length=300), nullable=True),
        sa.Column("channel", sa.String(length=30), nullable=False),
        sa.Column("subject", sa.String(length=300), nullable=False),
        sa.Column("body", sa.Text(), nullable=False),
        sa.Column("element_id", sa.String(length=200), nullable=True),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("sent_at", sa.DateTime(), nullable=True),
        sa.Column("status", sa.String(length=20), nullable=False),
        sa.Column("error", sa.Text(), nullable=True),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index(op.f("ix_notification_case_id"), "notification", ["case_id"], unique=False)
    op.create_index(op.f("ix_notification_status"), "notification", ["status"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_notification_status"), table_name="notification")
    op.drop_index(op.f("ix_notification_case_id"), table_name="notification")
    op.drop_table("notification")
