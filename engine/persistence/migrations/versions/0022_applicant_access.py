"""applicant access: a hashed access code per case, its short sessions, failed attempts

Revision ID: 0022
Revises: 0021
"""
import sqlalchemy as sa
from alembic import op

revision = "0022"
down_revision = "0021"
branch_labels = None
depends_on = None

BIG_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "applicant_access",
        sa.Column("instance_id", BIG_ID, nullable=False),
        sa.Column("code_hash", sa.String(length=200), nullable=False),
        sa.Column("issued_by", sa.String(length=100), nullable=False),
        sa.Column("issued_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("instance_id"),
    )
    op.create_table(
        "applicant_session",
        sa.Column("id", BIG_ID, autoincrement=True, nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("instance_id", BIG_ID, nullable=False),
        sa.Column("code_hash", sa.String(length=200), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("expires_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("token_hash"),
    )
    op.create_index(op.f("ix_applicant_session_instance_id"), "applicant_session", ["instance_id"], unique=False)
    op.create_table(
        "applicant_failure",
        sa.Column("id", BIG_ID, autoincrement=True, nullable=False),
        sa.Column("case_number", sa.String(length=64), nullable=False),
        sa.Column("address", sa.String(length=64), nullable=False),
        sa.Column("failed_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    for column in ("case_number", "address", "failed_at"):
        op.create_index(op.f(f"ix_applicant_failure_{column}"), "applicant_failure", [column], unique=False)


def downgrade() -> None:
    for column in ("case_number", "address", "failed_at"):
        op.drop_index(op.f(f"ix_applicant_failure_{column}"), table_name="applicant_failure")
    op.drop_table("applicant_failure")
    op.drop_index(op.f("ix_applicant_session_instance_id"), table_name="applicant_session")
    op.drop_table("applicant_session")
    op.drop_table("applicant_access")
