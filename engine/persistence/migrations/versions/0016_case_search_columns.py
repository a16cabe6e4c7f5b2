"""search by applicant: the case row's applicant name, id, municipality and reference number, and a
folded `search_text` (lower case, no accents) with a trigram index on PostgreSQL; saved list filters

Revision ID: 0016
Revises: 0015

The columns come from the variables each procedure names (engine/procedures/<p>/case_index.json,
engine/definitions/case_index.py); the projections keep them at every save. Existing cases are
filled here, in batches of 1,000 read in id order (a case started by another, a farmer's
membership, comes after its parent and may take its applicant from it).
"""
import sqlalchemy as sa
from alembic import op

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None

BATCH = 1000


def _trigram_available(bind) -> bool:
    # As 0009: pg_trgm where the database lets its owner create it; without it the search scans.
    if bind.dialect.name != "postgresql":
        return False
    if not bind.execute(sa.text("SELECT 1 FROM pg_available_extensions WHERE name = 'pg_trgm'")).scalar():
        return False
    savepoint = bind.begin_nested()
    try:
        bind.execute(sa.text("CREATE EXTENSION IF NOT EXISTS pg_trgm"))
    except sa.exc.DBAPIError:
        savepoint.rollback()
        return False
    savepoint.commit()
    return True


def _backfill(bind) -> None:
    from engine.definitions import case_index
    from engine.procedures import ALL

    table = sa.table("process_instance", sa.column("id"), sa.column("process_key"), sa.column("variables", sa.JSON),
                     sa.column("parent_instance_id"), *(sa.column(c) for c in case_index.COLUMNS))
    read = (sa.select(table.c.id, table.c.process_key, table.c.variables, table.c.parent_instance_id)
            .where(table.c.id > sa.bindparam("after")).order_by(table.c.id).limit(BATCH))
    parent = sa.select(*(table.c[c] for c in case_index.SHOWN)).where(table.c.id == sa.bindparam("parent"))
    write = (sa.update(table).where(table.c.id == sa.bindparam("row_id"))
             .values(**{c: sa.bindparam(f"v_{c}") for c in case_index.COLUMNS}))
    after = 0
    while True:
        rows = bind.execute(read, {"after": after}).all()
        if not rows:
            return
        updates = []
        for row in rows:
            index = ALL.case_index(row.process_key)
            inherited = None
            if index.inherit_from_parent and row.parent_instance_id is not None:
                found = bind.execute(parent, {"parent": row.parent_instance_id}).first()
                inherited = dict(found._mapping) if found else None
            columns = case_index.project(index, row.variables or {}, inherited)
            updates.append({"row_id": row.id, **{f"v_{c}": v for c, v in columns.items()}})
        bind.execute(write, updates)
        after = rows[-1].id


def upgrade() -> None:
    for name, kind in (("applicant_name", sa.String(length=200)), ("applicant_id", sa.String(length=100)),
                       ("municipality", sa.String(length=100)), ("reference", sa.String(length=100)),
                       ("search_text", sa.Text())):
        op.add_column("process_instance", sa.Column(name, kind, nullable=True))
    bind = op.get_bind()
    _backfill(bind)
    if _trigram_available(bind):
        op.execute("CREATE INDEX ix_instance_search_text_trgm ON process_instance "
                   "USING gin (search_text gin_trgm_ops)")
    op.create_table(
        "saved_filter",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("username", sa.String(length=100), nullable=False),
        sa.Column("list", sa.String(length=20), nullable=False),
        sa.Column("name", sa.String(length=100), nullable=False),
        sa.Column("query", sa.String(length=2000), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("username", "list", "name", name="uq_saved_filter_name"),
    )


def downgrade() -> None:
    op.drop_table("saved_filter")
    op.execute("DROP INDEX IF EXISTS ix_instance_search_text_trgm")
    with op.batch_alter_table("process_instance") as batch:
        for column in ("search_text", "reference", "municipality", "applicant_id", "applicant_name"):
            batch.drop_column(column)
