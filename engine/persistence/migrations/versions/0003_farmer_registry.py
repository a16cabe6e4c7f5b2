"""farmer_record: the Registro de Agricultores Bona Fide (engine/registries/farmers.py)

Revision ID: 0003
Revises: 0002
"""
import sqlalchemy as sa
from alembic import op
from sqlalchemy import Text
from sqlalchemy.dialects import postgresql

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

BIG_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
JSON = sa.JSON().with_variant(postgresql.JSONB(astext_type=Text()), "postgresql")


def upgrade() -> None:
    op.create_table(
        "farmer_record",
        sa.Column("id", sa.String(length=20), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("producer_type", sa.String(length=20), nullable=False),
        sa.Column("address", sa.String(length=300), nullable=True),
        sa.Column("municipality", sa.String(length=100), nullable=True),
        sa.Column("status", sa.String(length=20), nullable=False),
        sa.Column("registered_on", sa.Date(), nullable=False),
        sa.Column("renewal_due", sa.Date(), nullable=True),
        sa.Column("case_ids", JSON, nullable=False),
        sa.Column("admission_case_id", BIG_ID, nullable=True),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("admission_case_id"),
    )
    op.create_index("ix_farmer_record_status_type", "farmer_record", ["status", "producer_type"], unique=False)


def downgrade() -> None:
    op.drop_index("ix_farmer_record_status_type", table_name="farmer_record")
    op.drop_table("farmer_record")
