"""overdue cases: totals kept per due day, and an index for the overdue list's page (PostgreSQL)

At 1,000,000 cases the overdue case list (`?overdue=true`) was its count, 148,000 entries of
ix_instance_next_due (29 ms; with a process and a status, a filter over the heap: 215 ms), and its
page, a backward scan of ix_instance_started that reads every newer case that is not overdue
(42 ms). "Overdue" moves with the clock, so it cannot be a kept total of its own; the due day
can. case_due_total keeps case_total's key plus the UTC day of the case's next due date (a case
without one is not there): the cases due before today are a sum of kept rows, and today's, due
before now, one short range of ix_instance_next_due (engine/queries/overdue_totals.py).
- Row triggers whose WHEN skips, without a function call, every write of a case without a due
  date (a start inserts the case before its tasks; a purge deletes finished cases) and every
  update that keeps the due day and the key: a command that moves the due date within a day, or
  changes variables only, writes nothing here.
- The worker's fold (engine/reporting/list_totals.py) also folds the days before its today into
  one row per key (`folded_past`), so the table stays one row per key for the past plus one per key
  and future day.
- ix_instance_due_started: the cases with a due date in the list's order, with the columns its
  filters and the visibility rule read, so the page's ids are an index-only scan that skips the
  newer cases without reading them (engine/queries/cases.py).
SQLite gets the (empty) table for the models' sake; its lists count their rows.

Revision ID: 0032
Revises: 0031
"""
import sqlalchemy as sa
from alembic import op

revision = "0032"
down_revision = "0031"
branch_labels = None
depends_on = None

KEY = "definition_id, process_key, status, office, stage, outcome"
FUNCTIONS = f"""
CREATE FUNCTION tramite_case_due_row() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP <> 'INSERT' AND OLD.next_due_at IS NOT NULL THEN
        INSERT INTO case_due_total ({KEY}, due_day, n) VALUES
            (OLD.definition_id, OLD.process_key, OLD.status, OLD.office, OLD.stage, OLD.outcome,
             OLD.next_due_at::date, -1);
    END IF;
    IF TG_OP <> 'DELETE' AND NEW.next_due_at IS NOT NULL THEN
        INSERT INTO case_due_total ({KEY}, due_day, n) VALUES
            (NEW.definition_id, NEW.process_key, NEW.status, NEW.office, NEW.stage, NEW.outcome,
             NEW.next_due_at::date, 1);
    END IF;
    RETURN NULL;
END $$;

CREATE FUNCTION tramite_case_due_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM case_due_total;
    RETURN NULL;
END $$;
"""
TRIGGERS = """
CREATE TRIGGER case_due_insert AFTER INSERT ON process_instance FOR EACH ROW
    WHEN (NEW.next_due_at IS NOT NULL) EXECUTE FUNCTION tramite_case_due_row();
CREATE TRIGGER case_due_delete AFTER DELETE ON process_instance FOR EACH ROW
    WHEN (OLD.next_due_at IS NOT NULL) EXECUTE FUNCTION tramite_case_due_row();
CREATE TRIGGER case_due_update AFTER UPDATE ON process_instance FOR EACH ROW
    WHEN ((OLD.next_due_at IS NOT NULL OR NEW.next_due_at IS NOT NULL)
          AND (OLD.next_due_at::date IS DISTINCT FROM NEW.next_due_at::date
               OR OLD.definition_id IS DISTINCT FROM NEW.definition_id OR OLD.status IS DISTINCT FROM NEW.status
               OR OLD.office IS DISTINCT FROM NEW.office OR OLD.stage IS DISTINCT FROM NEW.stage
               OR OLD.outcome IS DISTINCT FROM NEW.outcome OR OLD.process_key IS DISTINCT FROM NEW.process_key))
    EXECUTE FUNCTION tramite_case_due_row();
CREATE TRIGGER case_due_truncate AFTER TRUNCATE ON process_instance
    FOR EACH STATEMENT EXECUTE FUNCTION tramite_case_due_truncated();
"""
BACKFILL = f"""
INSERT INTO case_due_total ({KEY}, due_day, n, pending)
SELECT {KEY}, next_due_at::date, count(*), false FROM process_instance WHERE next_due_at IS NOT NULL
 GROUP BY {KEY}, next_due_at::date;
"""
# The page's ids in the list's order (started_at DESC, id DESC: this index backwards), with every
# column the overdue list's filters and a staff member's visibility read, so no heap is visited
# for the newer cases that are not overdue.
PAGE_INDEX = """
CREATE INDEX ix_instance_due_started ON process_instance (started_at, id)
    INCLUDE (next_due_at, process_key, status, definition_id, office, started_by)
    WHERE next_due_at IS NOT NULL
"""
TRIGGER_NAMES = ("case_due_insert", "case_due_delete", "case_due_update", "case_due_truncate")


def upgrade() -> None:
    op.create_table(
        "case_due_total",
        sa.Column("definition_id", sa.Integer, nullable=False),
        sa.Column("process_key", sa.String(100), nullable=False),
        sa.Column("status", sa.String(20), nullable=False),
        sa.Column("office", sa.String(100)), sa.Column("stage", sa.String(60)), sa.Column("outcome", sa.String(60)),
        sa.Column("due_day", sa.Date, nullable=False),
        sa.Column("n", sa.BigInteger, nullable=False),
        sa.Column("pending", sa.Boolean, nullable=False, server_default=sa.true()),
        sa.Column("folded_past", sa.Boolean, nullable=False, server_default=sa.false()))
    op.create_index("ix_case_due_total_day", "case_due_total", ["due_day"])
    if op.get_bind().dialect.name != "postgresql":
        return
    # A reader checks that no fold ran at a later day than its own (a clock set back): one probe.
    op.execute("CREATE INDEX ix_case_due_total_past ON case_due_total (due_day) WHERE folded_past")
    op.execute(FUNCTIONS)
    op.execute(TRIGGERS)
    op.execute(BACKFILL)
    op.execute("ANALYZE case_due_total")  # its readers' plans from the first request, not autovacuum's
    op.execute(PAGE_INDEX)


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP INDEX IF EXISTS ix_instance_due_started")
        for name in TRIGGER_NAMES:
            op.execute(f"DROP TRIGGER IF EXISTS {name} ON process_instance")
        for function in ("tramite_case_due_row", "tramite_case_due_truncated"):
            op.execute(f"DROP FUNCTION IF EXISTS {function}()")
        op.execute("DROP INDEX IF EXISTS ix_case_due_total_past")
    op.drop_index("ix_case_due_total_day", "case_due_total")
    op.drop_table("case_due_total")
