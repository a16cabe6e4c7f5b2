"""the case list's search table: case_search, a narrow copy of each case's searched and visibility
columns kept by triggers, with the trigram indexes moved there from the case row

Revision ID: 0033
Revises: 0032

At 1,000,000 cases a text search matching 10,000 cases rechecked ~17,000 heap blocks of the wide
case rows for its exact total (90-250 ms); the same rows here are ~70 bytes. The trigram indexes
(0009, 0016) leave the case row, so a case's saves that change none of these columns (almost all
of them) write no GIN index. Triggers keep the copy, on PostgreSQL and SQLite alike, so every
writer of cases (commands, migrations, a bulk COPY) keeps it right:
- INSERT: a statement trigger with its transition table on PostgreSQL (one INSERT for a bulk
  load's rows), a row trigger on SQLite.
- UPDATE: a row trigger only when a copied column changed (WHEN on PostgreSQL, UPDATE OF on
  SQLite): the many saves that change none are skipped before any function runs.
- DELETE: the foreign key's ON DELETE CASCADE (the retention purge).
The backfill runs after the triggers exist (CREATE TRIGGER holds off writers until this commits),
then the indexes are built once over the filled table.
"""
import sqlalchemy as sa
from alembic import op

revision = "0033"
down_revision = "0032"
branch_labels = None
depends_on = None

COPIED = ("started_at", "case_number", "process_key", "definition_id", "office", "started_by", "search_text")
COLUMNS = ", ".join(COPIED)
PG_FUNCTIONS = f"""
CREATE FUNCTION tramite_case_search_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO case_search (instance_id, {COLUMNS}) SELECT id, {COLUMNS} FROM new_rows;
    RETURN NULL;
END $$;
CREATE FUNCTION tramite_case_search_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE case_search SET {", ".join(f"{c} = NEW.{c}" for c in COPIED)} WHERE instance_id = NEW.id;
    RETURN NULL;
END $$;
"""
PG_TRIGGERS = f"""
CREATE TRIGGER case_search_insert AFTER INSERT ON process_instance REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION tramite_case_search_insert();
CREATE TRIGGER case_search_update AFTER UPDATE ON process_instance FOR EACH ROW
    WHEN ({" OR ".join(f"OLD.{c} IS DISTINCT FROM NEW.{c}" for c in ("id", *COPIED))})
    EXECUTE FUNCTION tramite_case_search_update();
"""
SQLITE_TRIGGERS = (
    f"CREATE TRIGGER case_search_insert AFTER INSERT ON process_instance BEGIN "
    f"INSERT INTO case_search (instance_id, {COLUMNS}) VALUES (NEW.id, {', '.join(f'NEW.{c}' for c in COPIED)}); END",
    f"CREATE TRIGGER case_search_update AFTER UPDATE OF id, {COLUMNS} ON process_instance BEGIN "
    f"UPDATE case_search SET instance_id = NEW.id, {', '.join(f'{c} = NEW.{c}' for c in COPIED)} "
    f"WHERE instance_id = OLD.id; END",
)
# The search's expressions (engine/queries/case_search.py `search_arms`).
TRIGRAM_INDEXES = {"ix_case_search_number_trgm": "lower(case_number)",
                   "ix_case_search_started_by_trgm": "lower(started_by)",
                   "ix_case_search_text_trgm": "search_text"}
OLD_TRIGRAM_INDEXES = {"ix_instance_case_number_trgm": "lower(case_number)",
                       "ix_instance_started_by_trgm": "lower(started_by)",
                       "ix_instance_search_text_trgm": "search_text"}


def _trigrams(bind) -> bool:
    # Where 0009 / 0016 could make them (pg_trgm present and creatable), the case row has them.
    return bind.dialect.name == "postgresql" and bool(bind.execute(sa.text(
        "SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm'")).scalar())


def upgrade() -> None:
    bind = op.get_bind()
    postgres = bind.dialect.name == "postgresql"
    op.create_table(
        "case_search",
        sa.Column("instance_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"),
                  sa.ForeignKey("process_instance.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("started_at", sa.DateTime(), nullable=False),
        sa.Column("case_number", sa.String(length=40), nullable=False),
        sa.Column("process_key", sa.String(length=100), nullable=False),
        sa.Column("definition_id", sa.Integer(), nullable=False),
        sa.Column("office", sa.String(length=100), nullable=True),
        sa.Column("started_by", sa.String(length=100), nullable=False),
        sa.Column("search_text", sa.Text(), nullable=True),
    )
    if postgres:
        op.execute(PG_FUNCTIONS)
        op.execute(PG_TRIGGERS)
    else:
        for statement in SQLITE_TRIGGERS:
            op.execute(statement)
    # In the order of the case table's primary key: the copy's heap follows the cases' age.
    op.execute(f"INSERT INTO case_search (instance_id, {COLUMNS}) SELECT id, {COLUMNS} FROM process_instance "
               f"ORDER BY id")
    op.create_index("ix_case_search_started", "case_search", ["started_at", "instance_id"])
    op.create_index("ix_case_search_started_by", "case_search", ["started_by"])
    if _trigrams(bind):
        for name, expression in TRIGRAM_INDEXES.items():
            op.execute(f"CREATE INDEX {name} ON case_search USING gin ({expression} gin_trgm_ops)")
        for name in OLD_TRIGRAM_INDEXES:
            op.execute(f"DROP INDEX IF EXISTS {name}")
    if postgres:
        op.execute("ANALYZE case_search")


def downgrade() -> None:
    bind = op.get_bind()
    if _trigrams(bind):
        for name, expression in OLD_TRIGRAM_INDEXES.items():
            op.execute(f"CREATE INDEX {name} ON process_instance USING gin ({expression} gin_trgm_ops)")
    if bind.dialect.name == "postgresql":
        op.execute("DROP TRIGGER case_search_update ON process_instance")
        op.execute("DROP TRIGGER case_search_insert ON process_instance")
        op.execute("DROP FUNCTION tramite_case_search_update()")
        op.execute("DROP FUNCTION tramite_case_search_insert()")
    else:
        op.execute("DROP TRIGGER case_search_update")
        op.execute("DROP TRIGGER case_search_insert")
    op.drop_table("case_search")
