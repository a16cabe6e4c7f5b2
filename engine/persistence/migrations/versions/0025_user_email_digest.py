"""user e-mail and the supervisors' daily digest: an address per user (reminders go there), the
digest preference, and the days a digest went out (once per user and Puerto Rico day)

Revision ID: 0025
Revises: 0024
"""
import sqlalchemy as sa
from alembic import op

revision = "0025"
down_revision = "0024"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("app_user") as batch:
        batch.add_column(sa.Column("email", sa.String(length=254), nullable=True))
        batch.add_column(sa.Column("daily_digest", sa.Boolean(), nullable=False, server_default=sa.text("false")))
    op.create_table(
        "work_digest",
        sa.Column("username", sa.String(length=100), nullable=False),
        sa.Column("day", sa.Date(), nullable=False),
        sa.Column("sent_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("username", "day"),
    )


def downgrade() -> None:
    op.drop_table("work_digest")
    with op.batch_alter_table("app_user") as batch:
        batch.drop_column("daily_digest")
        batch.drop_column("email")
