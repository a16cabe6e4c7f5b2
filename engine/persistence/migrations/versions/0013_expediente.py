"""the case file (expediente): documents with per-case folios and internal notes

Revision ID: 0013
Revises: 0012

A document is never deleted nor rewritten: on PostgreSQL a trigger refuses DELETE and any UPDATE
but voiding (the three void columns, once).
"""
import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None

BIG_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "document_counter",
        sa.Column("instance_id", BIG_ID, nullable=False),
        sa.Column("last", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("instance_id"),
    )
    op.create_table(
        "document",
        sa.Column("id", BIG_ID, autoincrement=True, nullable=False),
        sa.Column("instance_id", BIG_ID, nullable=False),
        sa.Column("folio", sa.Integer(), nullable=False),
        sa.Column("type", sa.String(length=100), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("filename", sa.String(length=255), nullable=False),
        sa.Column("media_type", sa.String(length=100), nullable=False),
        sa.Column("size", sa.BigInteger(), nullable=False),
        sa.Column("sha256", sa.String(length=64), nullable=False),
        sa.Column("source", sa.String(length=20), nullable=False),
        sa.Column("description", sa.Text(), nullable=True),
        sa.Column("task_id", BIG_ID, nullable=True),
        sa.Column("uploaded_by", sa.String(length=100), nullable=False),
        sa.Column("uploaded_at", sa.DateTime(), nullable=False),
        sa.Column("storage", sa.String(length=20), nullable=False),
        sa.Column("storage_key", sa.String(length=200), nullable=False),
        sa.Column("voided_at", sa.DateTime(), nullable=True),
        sa.Column("voided_by", sa.String(length=100), nullable=True),
        sa.Column("void_reason", sa.Text(), nullable=True),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("instance_id", "folio"),
        sa.UniqueConstraint("instance_id", "type", "version"),
    )
    op.create_index(op.f("ix_document_instance_id"), "document", ["instance_id"], unique=False)
    op.create_index("ix_document_sha256", "document", ["sha256"], unique=False)
    op.create_table(
        "case_note",
        sa.Column("id", BIG_ID, autoincrement=True, nullable=False),
        sa.Column("instance_id", BIG_ID, nullable=False),
        sa.Column("at", sa.DateTime(), nullable=False),
        sa.Column("author", sa.String(length=100), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index(op.f("ix_case_note_instance_id"), "case_note", ["instance_id"], unique=False)
    if op.get_bind().dialect.name != "postgresql":
        return
    op.execute("""
        CREATE FUNCTION tramite_document_only_voided() RETURNS trigger AS $$
        BEGIN
            IF TG_OP = 'UPDATE' AND OLD.voided_at IS NULL AND NEW.voided_at IS NOT NULL
               AND (to_jsonb(NEW) - 'voided_at' - 'voided_by' - 'void_reason')
                 = (to_jsonb(OLD) - 'voided_at' - 'voided_by' - 'void_reason') THEN
                RETURN NEW;
            END IF;
            RAISE EXCEPTION 'documents are never changed or deleted, only voided (% refused)', TG_OP;
        END;
        $$ LANGUAGE plpgsql;
    """)
    op.execute("""
        CREATE TRIGGER document_only_voided BEFORE UPDATE OR DELETE ON document
        FOR EACH ROW EXECUTE FUNCTION tramite_document_only_voided();
    """)
    op.execute("""
        CREATE FUNCTION tramite_note_is_append_only() RETURNS trigger AS $$
        BEGIN
            RAISE EXCEPTION 'case notes are never edited (% refused)', TG_OP;
        END;
        $$ LANGUAGE plpgsql;
    """)
    op.execute("""
        CREATE TRIGGER case_note_append_only BEFORE UPDATE OR DELETE ON case_note
        FOR EACH ROW EXECUTE FUNCTION tramite_note_is_append_only();
    """)


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP TRIGGER IF EXISTS case_note_append_only ON case_note")
        op.execute("DROP FUNCTION IF EXISTS tramite_note_is_append_only()")
        op.execute("DROP TRIGGER IF EXISTS document_only_voided ON document")
        op.execute("DROP FUNCTION IF EXISTS tramite_document_only_voided()")
    op.drop_index(op.f("ix_case_note_instance_id"), table_name="case_note")
    op.drop_table("case_note")
    op.drop_index("ix_document_sha256", table_name="document")
    op.drop_index(op.f("ix_document_instance_id"), table_name="document")
    op.drop_table("document")
    op.drop_table("document_counter")
