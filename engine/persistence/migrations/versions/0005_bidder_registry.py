"""bidder registry: bans and withdrawals, single-bidder counts per matter, fiscal-year purchase locks (BID)

Revision ID: 0005
Revises: 0004
"""
import sqlalchemy as sa
from alembic import op
from sqlalchemy import Text
from sqlalchemy.dialects import postgresql

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

JSON = sa.JSON().with_variant(postgresql.JSONB(astext_type=Text()), "postgresql")
BIG_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "bidder",
        sa.Column("id", sa.String(length=40), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_table(
        "bidder_sanction",
        sa.Column("id", BIG_ID, autoincrement=True, nullable=False),
        sa.Column("bidder_id", sa.String(length=40), nullable=False),
        sa.Column("kind", sa.String(length=30), nullable=False),
        sa.Column("months", sa.Integer(), nullable=True),
        sa.Column("from_date", sa.Date(), nullable=False),
        sa.Column("eligible_again", sa.Date(), nullable=True),
        sa.Column("lifted_on", sa.Date(), nullable=True),
        sa.Column("reason", sa.Text(), nullable=True),
        sa.Column("case_id", BIG_ID, nullable=True),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index(op.f("ix_bidder_sanction_bidder_id"), "bidder_sanction", ["bidder_id"], unique=False)
    op.create_index(op.f("ix_bidder_sanction_case_id"), "bidder_sanction", ["case_id"], unique=False)
    op.create_table(
        "bid_matter",
        sa.Column("matter_key", sa.String(length=200), nullable=False),
        sa.Column("matter", sa.String(length=300), nullable=False),
        sa.Column("consecutive_single_bidder", sa.Integer(), nullable=False),
        sa.Column("counted_case_ids", JSON, nullable=False),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("matter_key"),
    )
    op.create_table(
        "purchase_lock",
        sa.Column("id", BIG_ID, autoincrement=True, nullable=False),
        sa.Column("matter_key", sa.String(length=200), nullable=False),
        sa.Column("matter", sa.String(length=300), nullable=False),
        sa.Column("cause", sa.String(length=30), nullable=False),
        sa.Column("locked_until", sa.Date(), nullable=False),
        sa.Column("case_id", BIG_ID, nullable=True),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("case_id"),
    )
    op.create_index(op.f("ix_purchase_lock_matter_key"), "purchase_lock", ["matter_key"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_purchase_lock_matter_key"), table_name="purchase_lock")
    op.drop_table("purchase_lock")
    op.drop_table("bid_matter")
    op.drop_index(op.f("ix_bidder_sanction_case_id"), table_name="bidder_sanction")
    op.drop_index(op.f("ix_bidder_sanction_bidder_id"), table_name="bidder_sanction")
    op.drop_table("bidder_sanction")
    op.drop_table("bidder")
