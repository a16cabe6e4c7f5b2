"""legal time: a case's deadlines suspended and resumed (the suspension rows, and the case's flag)

Revision ID: 0018
Revises: 0017
"""
import sqlalchemy as sa
from alembic import op
from sqlalchemy import Text
from sqlalchemy.dialects import postgresql

revision = "0018"
down_revision = "0017"
branch_labels = None
depends_on = None

JSON = sa.JSON().with_variant(postgresql.JSONB(astext_type=Text()), "postgresql")


def upgrade() -> None:
    op.create_table(
        "case_suspension",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), autoincrement=True, nullable=False),
        sa.Column("instance_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("since", sa.DateTime(), nullable=False),
        sa.Column("until", sa.Date(), nullable=True),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("legal_basis", sa.Text(), nullable=False),
        sa.Column("suspended_by", sa.String(length=100), nullable=False),
        sa.Column("resumed_at", sa.DateTime(), nullable=True),
        sa.Column("resumed_by", sa.String(length=100), nullable=True),
        sa.Column("days", sa.Integer(), nullable=True),
        sa.Column("deadlines", JSON, nullable=True),
        sa.ForeignKeyConstraint(["instance_id"], ["process_instance.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_case_suspension_instance_id", "case_suspension", ["instance_id"])
    op.create_index("ix_suspension_open_until", "case_suspension", ["resumed_at", "until"])
    with op.batch_alter_table("process_instance") as batch:
        batch.add_column(sa.Column("suspended_since", sa.DateTime(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("process_instance") as batch:
        batch.drop_column("suspended_since")
    op.drop_index("ix_suspension_open_until", table_name="case_suspension")
    op.drop_index("ix_case_suspension_instance_id", table_name="case_suspension")
    op.drop_table("case_suspension")
