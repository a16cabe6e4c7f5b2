"""login throttling: failed logins per username and client address

Revision ID: 0007
Revises: 0006
"""
import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None

BIG_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "login_failure",
        sa.Column("id", BIG_ID, autoincrement=True, nullable=False),
        sa.Column("username", sa.String(length=100), nullable=False),
        sa.Column("address", sa.String(length=64), nullable=False),
        sa.Column("failed_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index(op.f("ix_login_failure_username"), "login_failure", ["username"], unique=False)
    op.create_index(op.f("ix_login_failure_address"), "login_failure", ["address"], unique=False)
    op.create_index(op.f("ix_login_failure_failed_at"), "login_failure", ["failed_at"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_login_failure_failed_at"), table_name="login_failure")
    op.drop_index(op.f("ix_login_failure_address"), table_name="login_failure")
    op.drop_index(op.f("ix_login_failure_username"), table_name="login_failure")
    op.drop_table("login_failure")
