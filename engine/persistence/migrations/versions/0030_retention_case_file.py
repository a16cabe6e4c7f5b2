"""retention: the job may delete an archived case's documents and notes (PostgreSQL)

0009's triggers refuse every DELETE on `document` and `case_note`, so on PostgreSQL the retention
job (0027) stopped at the first finished case with a file. `tramite_purge_case(id)` deletes a
case's documents, notes and history under the purge mark of 0027, with the same conditions: the
case has an archive record and its case row is gone. Every other session is refused as before.
(The documents' bytes in the content-addressed store are shared by sha256 and stay there.)

Revision ID: 0030
Revises: 0029
"""
from alembic import op

revision = "0030"
down_revision = "0029"
branch_labels = None
depends_on = None

# The case archived and gone, and the purge function's mark on this transaction for that case.
_PURGING = """current_setting('tramite.purging_audit_of', true) = OLD.instance_id::text
               AND EXISTS (SELECT 1 FROM case_archive WHERE instance_id = OLD.instance_id)
               AND NOT EXISTS (SELECT 1 FROM process_instance WHERE id = OLD.instance_id)"""
DOCUMENT = f"""
    CREATE OR REPLACE FUNCTION tramite_document_only_voided() RETURNS trigger AS $$
    BEGIN
        IF TG_OP = 'UPDATE' AND OLD.voided_at IS NULL AND NEW.voided_at IS NOT NULL
           AND (to_jsonb(NEW) - 'voided_at' - 'voided_by' - 'void_reason')
             = (to_jsonb(OLD) - 'voided_at' - 'voided_by' - 'void_reason') THEN
            RETURN NEW;
        END IF;
        IF TG_OP = 'DELETE' AND {_PURGING} THEN
            RETURN OLD;
        END IF;
        RAISE EXCEPTION 'documents are never changed or deleted, only voided (% refused)', TG_OP;
    END;
    $$ LANGUAGE plpgsql;
"""
NOTE = f"""
    CREATE OR REPLACE FUNCTION tramite_note_is_append_only() RETURNS trigger AS $$
    BEGIN
        IF TG_OP = 'DELETE' AND {_PURGING} THEN
            RETURN OLD;
        END IF;
        RAISE EXCEPTION 'case notes are never edited (% refused)', TG_OP;
    END;
    $$ LANGUAGE plpgsql;
"""
PURGE = """
    CREATE FUNCTION tramite_purge_case(case_id bigint) RETURNS bigint AS $$
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
        DELETE FROM case_note WHERE instance_id = case_id;
        DELETE FROM document WHERE instance_id = case_id;
        DELETE FROM audit_event WHERE instance_id = case_id;
        GET DIAGNOSTICS removed = ROW_COUNT;
        PERFORM set_config('tramite.purging_audit_of', '', true);
        RETURN removed;
    END;
    $$ LANGUAGE plpgsql;
"""
DOCUMENT_BEFORE = """
    CREATE OR REPLACE FUNCTION tramite_document_only_voided() RETURNS trigger AS $$
    BEGIN
        IF TG_OP = 'UPDATE' AND OLD.voided_at IS NULL AND NEW.voided_at IS NOT NULL
           AND (to_jsonb(NEW) - 'voided_at' - 'voided_by' - 'void_reason')
             = (to_jsonb(OLD) - 'voided_at' - 'voided_by' - 'void_reason') THEN
            RETURN NEW;
        END IF;
        RAISE EXCEPTION 'documents are never changed or deleted, only voided (% refused)', TG_OP;
    END;
    $$ LANGUAGE plpgsql;
"""
NOTE_BEFORE = """
    CREATE OR REPLACE FUNCTION tramite_note_is_append_only() RETURNS trigger AS $$
    BEGIN
        RAISE EXCEPTION 'case notes are never edited (% refused)', TG_OP;
    END;
    $$ LANGUAGE plpgsql;
"""


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute(DOCUMENT)
        op.execute(NOTE)
        op.execute(PURGE)


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP FUNCTION IF EXISTS tramite_purge_case(bigint)")
        op.execute(NOTE_BEFORE)
        op.execute(DOCUMENT_BEFORE)
