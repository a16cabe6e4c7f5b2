"""parameter snapshots: one shared row per distinct set of frozen parameters instead of a copy per case

Every case froze the whole parameter store (~4 KB of JSON) into its own row; cases started under the
same values now point at one `parameter_snapshot` row. Existing cases are pointed at the snapshot
of exactly the values they froze, so none changes what it reads.

SQLite: the column is added and the old one dropped with ALTER TABLE, not a batch rebuild (dropping
process_instance to rebuild it would cascade-delete its tasks, timers and workflow state with
foreign keys on). SQLite cannot add a NOT NULL foreign key column to a table with rows, so
`parameters_id` is nullable on both databases (one schema); the engine always sets it.
PostgreSQL's DROP COLUMN frees the old bytes only as rows are rewritten (VACUUM FULL reclaims them).

Revision ID: 0026
Revises: 0025
"""
import hashlib
import json

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = "0026"
down_revision = "0025"
branch_labels = None
depends_on = None

JSON = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")


def _digest(values: dict) -> str:
    # Frozen here on purpose: engine/config/parameters.py content_hash must give the same digest.
    text = json.dumps(values, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


def upgrade() -> None:
    bind = op.get_bind()
    pg = bind.dialect.name == "postgresql"
    inspector = sa.inspect(bind)
    # A SQLite database downgraded from 0026 still has the table and the column (see downgrade).
    if not inspector.has_table("parameter_snapshot"):
        op.create_table(
            "parameter_snapshot",
            sa.Column("id", sa.Integer(), nullable=False),
            sa.Column("hash", sa.String(length=64), nullable=False),
            sa.Column("content", JSON, nullable=False),
            sa.Column("created_at", sa.DateTime(), nullable=False),
            sa.PrimaryKeyConstraint("id"),
            sa.UniqueConstraint("hash"),
        )
    if pg:
        op.add_column("process_instance", sa.Column("parameters_id", sa.Integer(), nullable=True))
        op.create_foreign_key(None, "process_instance", "parameter_snapshot", ["parameters_id"], ["id"])
    elif "parameters_id" not in {c["name"] for c in inspector.get_columns("process_instance")}:
        op.execute("ALTER TABLE process_instance ADD COLUMN parameters_id INTEGER REFERENCES parameter_snapshot (id)")
    as_text = "parameters::text" if pg else "parameters"
    snapshots = sa.table("parameter_snapshot", sa.column("id"), sa.column("hash"), sa.column("content", JSON),
                         sa.column("created_at"))  # untyped: SQLite gives MIN(started_at) back as text
    groups = bind.execute(sa.text(f"SELECT {as_text}, MIN(started_at) FROM process_instance GROUP BY {as_text}"))
    for stored, first_started in groups.fetchall():
        values = json.loads(stored)
        digest = _digest(values)
        row_id = bind.execute(sa.select(snapshots.c.id).where(snapshots.c.hash == digest)).scalar()
        if row_id is None:
            row_id = bind.execute(snapshots.insert().values(hash=digest, content=values, created_at=first_started)
                                  .returning(snapshots.c.id)).scalar_one()
        bind.execute(sa.text(f"UPDATE process_instance SET parameters_id = :id WHERE {as_text} = :stored"),
                     {"id": row_id, "stored": stored})
    op.execute("ALTER TABLE process_instance DROP COLUMN parameters")


def downgrade() -> None:
    bind = op.get_bind()
    pg = bind.dialect.name == "postgresql"
    op.add_column("process_instance", sa.Column("parameters", JSON, nullable=True))
    op.execute("UPDATE process_instance SET parameters = (SELECT s.content FROM parameter_snapshot s"
               " WHERE s.id = process_instance.parameters_id)")
    if not pg:
        # SQLite cannot drop a column with a foreign key, and the column's reference must stay
        # valid for later batch migrations that reflect the table: both stay, unused.
        return
    op.alter_column("process_instance", "parameters", nullable=False)
    op.drop_column("process_instance", "parameters_id")
    op.drop_table("parameter_snapshot")
