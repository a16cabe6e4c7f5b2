"""list totals kept beside the rows: case_total and task_total, kept by triggers (PostgreSQL)

At 1,000,000 cases a list's page is the head of an index (< 20 ms) and its exact total
(X-Total-Count) a count of 10^4-10^6 index entries (150-1,400 ms). The totals are kept instead as
insert-only delta rows written by triggers in the changing transaction, so every path that writes
cases or tasks (commands, the retention purge, a bulk load, a later migration) keeps them right;
engine/reporting/list_totals.py folds them and says the design.
- INSERT and DELETE: statement triggers with transition tables (one grouped INSERT for a bulk
  load's or a purge's thousands of rows; one row for a command's).
- UPDATE: row triggers with a WHEN on the counted columns, so the many updates that change none
  of them (variables, lock_version, next_due_at) are skipped before any function is called;
  transition tables cannot have a column list, and a statement trigger would run on every one.
- A case's office move moves its tasks' totals (a task is counted under its case's office).
- A case deleted with its tasks by ON DELETE CASCADE: the case's BEFORE DELETE row trigger takes
  its tasks off while they are still there; the tasks' own trigger then finds no case and adds
  nothing (a purge that deletes the tasks first finds none left at the case's trigger).
- TRUNCATE empties the totals.
The backfill runs after the triggers exist: CREATE TRIGGER holds off writers until this commits.
SQLite gets the (empty) tables for the models' sake; its lists count their rows.

Revision ID: 0031
Revises: 0030
"""
import sqlalchemy as sa
from alembic import op

revision = "0031"
down_revision = "0030"
branch_labels = None
depends_on = None

CASE_KEY = "definition_id, process_key, status, office, stage, outcome"
TASK_KEY = "state, lane, assignee, office, process_key"
FUNCTIONS = f"""
CREATE FUNCTION tramite_case_total_rows() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        INSERT INTO case_total ({CASE_KEY}, n) SELECT {CASE_KEY}, count(*) FROM new_rows GROUP BY {CASE_KEY};
    ELSE
        INSERT INTO case_total ({CASE_KEY}, n) SELECT {CASE_KEY}, -count(*) FROM old_rows GROUP BY {CASE_KEY};
    END IF;
    RETURN NULL;
END $$;

CREATE FUNCTION tramite_case_total_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO case_total ({CASE_KEY}, n) VALUES
        (OLD.definition_id, OLD.process_key, OLD.status, OLD.office, OLD.stage, OLD.outcome, -1),
        (NEW.definition_id, NEW.process_key, NEW.status, NEW.office, NEW.stage, NEW.outcome, 1);
    IF OLD.office IS DISTINCT FROM NEW.office OR OLD.process_key IS DISTINCT FROM NEW.process_key THEN
        INSERT INTO task_total ({TASK_KEY}, n)
        SELECT state, lane, assignee, OLD.office, OLD.process_key, -count(*) FROM task
         WHERE instance_id = OLD.id GROUP BY state, lane, assignee
        UNION ALL
        SELECT state, lane, assignee, NEW.office, NEW.process_key, count(*) FROM task
         WHERE instance_id = NEW.id GROUP BY state, lane, assignee;
    END IF;
    RETURN NULL;
END $$;

CREATE FUNCTION tramite_case_total_tasks_gone() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO task_total ({TASK_KEY}, n)
    SELECT state, lane, assignee, OLD.office, OLD.process_key, -count(*) FROM task
     WHERE instance_id = OLD.id GROUP BY state, lane, assignee;
    RETURN OLD;
END $$;

CREATE FUNCTION tramite_task_total_rows() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        INSERT INTO task_total ({TASK_KEY}, n)
        SELECT t.state, t.lane, t.assignee, i.office, i.process_key, count(*)
          FROM new_rows t JOIN process_instance i ON i.id = t.instance_id
         GROUP BY t.state, t.lane, t.assignee, i.office, i.process_key;
    ELSE
        INSERT INTO task_total ({TASK_KEY}, n)
        SELECT t.state, t.lane, t.assignee, i.office, i.process_key, -count(*)
          FROM old_rows t JOIN process_instance i ON i.id = t.instance_id
         GROUP BY t.state, t.lane, t.assignee, i.office, i.process_key;
    END IF;
    RETURN NULL;
END $$;

CREATE FUNCTION tramite_task_total_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO task_total ({TASK_KEY}, n)
    SELECT OLD.state, OLD.lane, OLD.assignee, i.office, i.process_key, -1 FROM process_instance i
     WHERE i.id = OLD.instance_id
    UNION ALL
    SELECT NEW.state, NEW.lane, NEW.assignee, i.office, i.process_key, 1 FROM process_instance i
     WHERE i.id = NEW.instance_id;
    RETURN NULL;
END $$;

CREATE FUNCTION tramite_totals_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_TABLE_NAME = 'process_instance' THEN
        DELETE FROM case_total;
    END IF;
    DELETE FROM task_total;  -- a case table emptied empties its tasks (TRUNCATE needs CASCADE)
    RETURN NULL;
END $$;
"""
TRIGGERS = """
CREATE TRIGGER case_total_insert AFTER INSERT ON process_instance REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION tramite_case_total_rows();
CREATE TRIGGER case_total_delete AFTER DELETE ON process_instance REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION tramite_case_total_rows();
CREATE TRIGGER case_total_update AFTER UPDATE ON process_instance FOR EACH ROW
    WHEN (OLD.definition_id IS DISTINCT FROM NEW.definition_id OR OLD.status IS DISTINCT FROM NEW.status
          OR OLD.office IS DISTINCT FROM NEW.office OR OLD.stage IS DISTINCT FROM NEW.stage
          OR OLD.outcome IS DISTINCT FROM NEW.outcome OR OLD.process_key IS DISTINCT FROM NEW.process_key)
    EXECUTE FUNCTION tramite_case_total_update();
CREATE TRIGGER case_total_tasks_gone BEFORE DELETE ON process_instance FOR EACH ROW
    EXECUTE FUNCTION tramite_case_total_tasks_gone();
CREATE TRIGGER case_total_truncate AFTER TRUNCATE ON process_instance
    FOR EACH STATEMENT EXECUTE FUNCTION tramite_totals_truncated();
CREATE TRIGGER task_total_insert AFTER INSERT ON task REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION tramite_task_total_rows();
CREATE TRIGGER task_total_delete AFTER DELETE ON task REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION tramite_task_total_rows();
CREATE TRIGGER task_total_update AFTER UPDATE ON task FOR EACH ROW
    WHEN (OLD.state IS DISTINCT FROM NEW.state OR OLD.lane IS DISTINCT FROM NEW.lane
          OR OLD.assignee IS DISTINCT FROM NEW.assignee OR OLD.instance_id IS DISTINCT FROM NEW.instance_id)
    EXECUTE FUNCTION tramite_task_total_update();
CREATE TRIGGER task_total_truncate AFTER TRUNCATE ON task
    FOR EACH STATEMENT EXECUTE FUNCTION tramite_totals_truncated();
"""
BACKFILL = f"""
INSERT INTO case_total ({CASE_KEY}, n, pending)
SELECT {CASE_KEY}, count(*), false FROM process_instance GROUP BY {CASE_KEY};
INSERT INTO task_total ({TASK_KEY}, n, pending)
SELECT t.state, t.lane, t.assignee, i.office, i.process_key, count(*), false
  FROM task t JOIN process_instance i ON i.id = t.instance_id
 GROUP BY t.state, t.lane, t.assignee, i.office, i.process_key;
"""
NAMES = {"process_instance": ("case_total_insert", "case_total_delete", "case_total_update",
                              "case_total_tasks_gone", "case_total_truncate"),
         "task": ("task_total_insert", "task_total_delete", "task_total_update", "task_total_truncate")}


def upgrade() -> None:
    for name, key in (("case_total", (sa.Column("definition_id", sa.Integer, nullable=False),
                                      sa.Column("process_key", sa.String(100), nullable=False),
                                      sa.Column("status", sa.String(20), nullable=False),
                                      sa.Column("office", sa.String(100)), sa.Column("stage", sa.String(60)),
                                      sa.Column("outcome", sa.String(60)))),
                      ("task_total", (sa.Column("state", sa.String(20), nullable=False),
                                      sa.Column("lane", sa.String(64)), sa.Column("assignee", sa.String(100)),
                                      sa.Column("office", sa.String(100)),
                                      sa.Column("process_key", sa.String(100), nullable=False)))):
        op.create_table(name, *key, sa.Column("n", sa.BigInteger, nullable=False),
                        sa.Column("pending", sa.Boolean, nullable=False, server_default=sa.true()))
    op.create_index("ix_instance_started_by", "process_instance", ["started_by", "definition_id"])
    if op.get_bind().dialect.name != "postgresql":
        return
    op.execute(FUNCTIONS)
    op.execute(TRIGGERS)
    op.execute("SET LOCAL work_mem = '256MB'")  # the backfill's grouping of every task in memory
    op.execute(BACKFILL)


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        for table, names in NAMES.items():
            for name in names:
                op.execute(f"DROP TRIGGER IF EXISTS {name} ON {table}")
        for function in ("tramite_case_total_rows", "tramite_case_total_update", "tramite_case_total_tasks_gone",
                         "tramite_task_total_rows", "tramite_task_total_update", "tramite_totals_truncated"):
            op.execute(f"DROP FUNCTION IF EXISTS {function}()")
    op.drop_index("ix_instance_started_by", "process_instance")
    op.drop_table("task_total")
    op.drop_table("case_total")
