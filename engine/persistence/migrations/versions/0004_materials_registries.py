"""materials aid registries: beneficiaries (MAT-30) and hardware stores of the Registro de Licitadores (MAT-15)

Revision ID: 0004
Revises: 0003
"""
import sqlalchemy as sa
from alembic import op
from sqlalchemy import Text
from sqlalchemy.dialects import postgresql

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

JSON = sa.JSON().with_variant(postgresql.JSONB(astext_type=Text()), "postgresql")


def upgrade() -> None:
    op.create_table(
        "hardware_store",
        sa.Column("id", sa.String(length=40), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("registered", sa.Boolean(), nullable=False),
        sa.Column("municipality", sa.String(length=100), nullable=True),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index(op.f("ix_hardware_store_registered"), "hardware_store", ["registered"], unique=False)
    op.create_table(
        "materials_beneficiary",
        sa.Column("id", sa.String(length=60), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("municipality", sa.String(length=100), nullable=True),
        sa.Column("last_use_date", sa.Date(), nullable=True),
        sa.Column("last_outcome", sa.String(length=40), nullable=True),
        sa.Column("case_ids", JSON, nullable=False),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )


def downgrade() -> None:
    op.drop_table("materials_beneficiary")
    op.drop_index(op.f("ix_hardware_store_registered"), table_name="hardware_store")
    op.drop_table("hardware_store")
