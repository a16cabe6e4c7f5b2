"""web sessions end together: a per-user session generation

Revision ID: 0011
Revises: 0009

A web session is a signed cookie the server cannot reach once it is handed out; each cookie carries
the generation its user had at login, and logging out, being deactivated or a password change bumps
it, so every cookie issued before stops working at its next request.
"""
import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("app_user") as batch:
        batch.add_column(sa.Column("session_generation", sa.Integer(), nullable=False, server_default="0"))


def downgrade() -> None:
    with op.batch_alter_table("app_user") as batch:
        batch.drop_column("session_generation")
