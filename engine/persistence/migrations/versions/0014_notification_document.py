"""letters: a notification points at the generated letter (PDF) it carries

Revision ID: 0014
Revises: 0013
"""
import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"  # "0012" as assigned; relinked after merging documents (0013)
branch_labels = None
depends_on = None


def upgrade() -> None:
    # No foreign key: the documents table comes from another revision, and a notice must never
    # fail to be written because its letter could not be linked.
    op.add_column("notification", sa.Column("document_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"),
                                            nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("notification") as batch:
        batch.drop_column("document_id")
