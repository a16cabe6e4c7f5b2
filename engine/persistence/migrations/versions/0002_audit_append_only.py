"""audit_event is append-only: PostgreSQL refuses UPDATE and DELETE on it

Revision ID: 0002
Revises: 0001
"""
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return  # SQLite has no trigger-level guarantee worth the name; the application never updates it
    op.execute("""
        CREATE FUNCTION tramite_audit_is_append_only() RETURNS trigger AS $$
        BEGIN
            RAISE EXCEPTION 'audit_event is append-only (% refused)', TG_OP;
        END;
        $$ LANGUAGE plpgsql;
    """)
    op.execute("""
        CREATE TRIGGER audit_event_append_only BEFORE UPDATE OR DELETE ON audit_event
        FOR EACH ROW EXECUTE FUNCTION tramite_audit_is_append_only();
    """)


def downgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    op.execute("DROP TRIGGER IF EXISTS audit_event_append_only ON audit_event")
    op.execute("DROP FUNCTION IF EXISTS tramite_audit_is_append_only()")
