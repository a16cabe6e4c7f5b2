"""retention: the archive record of a case taken out of the database, and the one way to delete history

audit_event stays append-only for every session. The retention job deletes a case's history only
through `tramite_purge_audit(instance_id)`, which marks its own transaction and deletes nothing of
a case that has no archive record or still has its case row; the trigger lets a DELETE through
only inside that mark. (A separate PostgreSQL role would be the stronger line, but it needs
CREATEROLE, which the application's database user does not have; the owner of a table can always
drop its trigger, so this guards against the application and its sessions, not against the owner.)

SQLite has no such trigger (0002): there the application deletes history only in the retention job.

Revision ID: 0027
Revises: 0026
"""
import sqlalchemy as sa
from alembic import op

revision = "0027"
down_revision = "0026"
branch_labels = None
depends_on = None

BIG_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")

APPEND_ONLY = """
    CREATE OR REPLACE FUNCTION tramite_audit_is_append_only() RETURNS trigger AS $$
    BEGIN
        -- The purge function's mark alone is not enough: the case must be archived and gone.
        IF TG_OP = 'DELETE' AND current_setting('tramite.purging_audit_of', true) = OLD.instance_id::text
           AND EXISTS (SELECT 1 FROM case_archive WHERE instance_id = OLD.instance_id)
           AND NOT EXISTS (SELECT 1 FROM process_instance WHERE id = OLD.instance_id) THEN
            RETURN OLD;
        END IF;
        RAISE EXCEPTION 'audit_event is append-only (% refused)', TG_OP;
    END;
    $$ LANGUAGE plpgsql;
"""
ORIGINAL = """
    CREATE OR REPLACE FUNCTION tramite_audit_is_append_only() RETURNS trigger AS $$
    BEGIN
        RAISE EXCEPTION 'audit_event is append-only (% refused)', TG_OP;
    END;
    $$ LANGUAGE plpgsql;
"""
# The mark is transaction-local and reset before returning, so nothing after the call inherits it.
PURGE = """
    CREATE FUNCTION tramite_purge_audit(case_id bigint) RETURNS bigint AS $$
    DECLARE
        removed bigint;
    BEGIN
        IF NOT EXISTS (SELECT 1 FROM case_archive WHERE instance_id = case_id) THEN
            RAISE EXCEPTION 'case % has no archive record: its history stays', case_id;
        END IF;
        IF EXISTS (SELECT 1 FROM process_instance WHERE id = case_id) THEN
            RAISE EXCEPTION 'case % is still in the database: its history stays', case_id;
        END IF;
        PERFORM set_config('tramite.purging_audit_of', case_id::text, true);
        DELETE FROM audit_event WHERE instance_id = case_id;
        GET DIAGNOSTICS removed = ROW_COUNT;
        PERFORM set_config('tramite.purging_audit_of', '', true);
        RETURN removed;
    END;
    $$ LANGUAGE plpgsql;
"""


def upgrade() -> None:
    op.create_table(
        "case_archive",
        sa.Column("id", BIG_ID, autoincrement=True, nullable=False),
        sa.Column("instance_id", sa.BigInteger(), nullable=False),
        sa.Column("case_number", sa.String(length=40), nullable=False),
        sa.Column("process_key", sa.String(length=100), nullable=False),
        sa.Column("status", sa.String(length=20), nullable=False),
        sa.Column("ended_at", sa.DateTime(), nullable=False),
        sa.Column("archived_at", sa.DateTime(), nullable=False),
        sa.Column("location", sa.String(length=500), nullable=False),
        sa.Column("sha256", sa.String(length=64), nullable=False),
        sa.Column("size", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("instance_id"),
        sa.UniqueConstraint("case_number"),
    )
    if op.get_bind().dialect.name == "postgresql":
        op.execute(APPEND_ONLY)
        op.execute(PURGE)


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP FUNCTION IF EXISTS tramite_purge_audit(bigint)")
        op.execute(ORIGINAL)
    op.drop_table("case_archive")
