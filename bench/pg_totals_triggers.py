"""What keeping the list totals costs a write (migration 0031), and why its triggers are of the
kinds they are: one case's life as the engine writes it, timed with the totals' triggers off, as
0031 makes them (statement INSERT/DELETE, row UPDATE with WHEN), all row-level, and all
statement-level, in interleaved blocks on one connection (drift hits all alike).

    PYTHONPATH=. .venv/bin/python -m bench.pg_totals_triggers postgresql+psycopg://... [cases per block]

The database is recreated (`<name>_triggers`) and migrated. A case: start (case row + its first
task + two updates of the case that change no counted column), claim, complete with the next task
and a stage, complete and end; then the retention purge of 50 cases in one statement pair."""
from __future__ import annotations

import argparse
import statistics
import sys
import time

import psycopg

from .pg_common import database_url, recreate_database
from .pg_load import libpq

TRIGGERS = {"process_instance": ("case_total_insert", "case_total_delete", "case_total_update",
                                 "case_total_tasks_gone"),
            "task": ("task_total_insert", "task_total_delete", "task_total_update")}
CASE_KEY = "definition_id, process_key, status, office, stage, outcome"
TASK_KEY = "state, lane, assignee, office, process_key"
ROW_LEVEL = f"""
CREATE OR REPLACE FUNCTION bench_case_row() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO case_total ({CASE_KEY}, n) VALUES (NEW.definition_id, NEW.process_key, NEW.status, NEW.office, NEW.stage, NEW.outcome, 1);
  ELSE
    INSERT INTO case_total ({CASE_KEY}, n) VALUES (OLD.definition_id, OLD.process_key, OLD.status, OLD.office, OLD.stage, OLD.outcome, -1);
  END IF;
  RETURN NULL;
END $$;
CREATE OR REPLACE FUNCTION bench_task_row() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO task_total ({TASK_KEY}, n) SELECT NEW.state, NEW.lane, NEW.assignee, i.office, i.process_key, 1
      FROM process_instance i WHERE i.id = NEW.instance_id;
  ELSE
    INSERT INTO task_total ({TASK_KEY}, n) SELECT OLD.state, OLD.lane, OLD.assignee, i.office, i.process_key, -1
      FROM process_instance i WHERE i.id = OLD.instance_id;
  END IF;
  RETURN NULL;
END $$;
CREATE OR REPLACE FUNCTION bench_case_update_statement() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO case_total ({CASE_KEY}, n)
  SELECT o.definition_id, o.process_key, o.status, o.office, o.stage, o.outcome, -1 FROM old_rows o JOIN new_rows n USING (id)
   WHERE (o.definition_id, o.process_key, o.status, o.office, o.stage, o.outcome)
         IS DISTINCT FROM (n.definition_id, n.process_key, n.status, n.office, n.stage, n.outcome)
  UNION ALL
  SELECT n.definition_id, n.process_key, n.status, n.office, n.stage, n.outcome, 1 FROM old_rows o JOIN new_rows n USING (id)
   WHERE (o.definition_id, o.process_key, o.status, o.office, o.stage, o.outcome)
         IS DISTINCT FROM (n.definition_id, n.process_key, n.status, n.office, n.stage, n.outcome);
  RETURN NULL;
END $$;
CREATE OR REPLACE FUNCTION bench_task_update_statement() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO task_total ({TASK_KEY}, n)
  SELECT o.state, o.lane, o.assignee, i.office, i.process_key, -1 FROM old_rows o JOIN new_rows n USING (id)
    JOIN process_instance i ON i.id = o.instance_id
   WHERE (o.state, o.lane, o.assignee) IS DISTINCT FROM (n.state, n.lane, n.assignee)
  UNION ALL
  SELECT n.state, n.lane, n.assignee, i.office, i.process_key, 1 FROM old_rows o JOIN new_rows n USING (id)
    JOIN process_instance i ON i.id = n.instance_id
   WHERE (o.state, o.lane, o.assignee) IS DISTINCT FROM (n.state, n.lane, n.assignee);
  RETURN NULL;
END $$;
CREATE TRIGGER bench_case_ins_row AFTER INSERT ON process_instance FOR EACH ROW EXECUTE FUNCTION bench_case_row();
CREATE TRIGGER bench_case_del_row AFTER DELETE ON process_instance FOR EACH ROW EXECUTE FUNCTION bench_case_row();
CREATE TRIGGER bench_task_ins_row AFTER INSERT ON task FOR EACH ROW EXECUTE FUNCTION bench_task_row();
CREATE TRIGGER bench_task_del_row AFTER DELETE ON task FOR EACH ROW EXECUTE FUNCTION bench_task_row();
CREATE TRIGGER bench_case_upd_statement AFTER UPDATE ON process_instance REFERENCING OLD TABLE AS old_rows
  NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION bench_case_update_statement();
CREATE TRIGGER bench_task_upd_statement AFTER UPDATE ON task REFERENCING OLD TABLE AS old_rows
  NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION bench_task_update_statement();
"""
# variant: (0031's triggers enabled, the bench's enabled)
VARIANTS = {
    "no totals": ((), ()),
    "0031: statement INSERT/DELETE, row UPDATE with WHEN": (
        [*TRIGGERS["process_instance"], *TRIGGERS["task"]], ()),
    "all row-level (UPDATE with WHEN)": (["case_total_update", "case_total_tasks_gone", "task_total_update"],
                                         ["bench_case_ins_row", "bench_case_del_row", "bench_task_ins_row",
                                          "bench_task_del_row"]),
    "all statement-level (UPDATE with transition tables)": (
        ["case_total_insert", "case_total_delete", "case_total_tasks_gone", "task_total_insert",
         "task_total_delete"], ["bench_case_upd_statement", "bench_task_upd_statement"]),
}
BENCH = ("bench_case_ins_row", "bench_case_del_row", "bench_case_upd_statement")
BENCH_TASK = ("bench_task_ins_row", "bench_task_del_row", "bench_task_upd_statement")


def _switch(conn, variant: str) -> None:
    ours, bench = VARIANTS[variant]
    for table, names in (("process_instance", (*TRIGGERS["process_instance"], *BENCH)),
                         ("task", (*TRIGGERS["task"], *BENCH_TASK))):
        for name in names:
            on = name in ours or name in bench
            conn.execute(f"ALTER TABLE {table} {'ENABLE' if on else 'DISABLE'} TRIGGER {name}")


def _case(conn, n: int, definition: int) -> None:
    number = f"B-{n}"
    with conn.transaction():
        case = conn.execute(
            "INSERT INTO process_instance (case_number, process_key, definition_id, status, variables, workflow_meta,"
            " activity, started_by, started_at, lock_version, office) VALUES (%s, 'bench', %s, 'active', '{}', '{}',"
            " '{}', 'clerk', now(), 1, 'Norte') RETURNING id", (number, definition)).fetchone()[0]
        conn.execute("INSERT INTO task (instance_id, spiff_task_id, element_id, name, lane, state, priority, created_at)"
                     " VALUES (%s, %s, 'review', 'Review', 'clerk', 'open', 0, now())", (case, f"{number}-1"))
        for _ in range(2):
            conn.execute("UPDATE process_instance SET variables = '{\"a\": 1}', lock_version = lock_version + 1"
                         " WHERE id = %s", (case,))
    with conn.transaction():
        conn.execute("UPDATE task SET assignee = 'clerk' WHERE spiff_task_id = %s", (f"{number}-1",))
    with conn.transaction():
        conn.execute("UPDATE task SET state = 'completed', completed_at = now() WHERE spiff_task_id = %s",
                     (f"{number}-1",))
        conn.execute("INSERT INTO task (instance_id, spiff_task_id, element_id, name, lane, state, priority, created_at)"
                     " VALUES (%s, %s, 'approve', 'Approve', 'boss', 'open', 0, now())", (case, f"{number}-2"))
        conn.execute("UPDATE process_instance SET stage = 'approval', lock_version = lock_version + 1 WHERE id = %s",
                     (case,))
    with conn.transaction():
        conn.execute("UPDATE task SET state = 'completed', assignee = 'boss' WHERE spiff_task_id = %s",
                     (f"{number}-2",))
        conn.execute("UPDATE process_instance SET status = 'completed', lock_version = lock_version + 1"
                     " WHERE id = %s", (case,))


def _purge(conn, first: int, count: int) -> None:
    with conn.transaction():
        ids = [r[0] for r in conn.execute("SELECT id FROM process_instance WHERE case_number = ANY(%s)",
                                          ([f"B-{n}" for n in range(first, first + count)],))]
        conn.execute("DELETE FROM task WHERE instance_id = ANY(%s)", (ids,))
        conn.execute("DELETE FROM process_instance WHERE id = ANY(%s)", (ids,))


def main(argv: list[str]) -> int:
    from engine.bootstrap import make_engine
    parser = argparse.ArgumentParser(prog="python -m bench.pg_totals_triggers", description=__doc__.split("\n")[0])
    parser.add_argument("url", help="base PostgreSQL URL; its database name gets _triggers")
    parser.add_argument("per_block", nargs="?", type=int, default=200, help="cases per block [200]")
    options = parser.parse_args(argv)
    base, per_block = options.url, options.per_block
    url = database_url(base, "triggers")
    recreate_database(url)
    make_engine(url).db.upgrade()
    times: dict[str, list[float]] = {v: [] for v in VARIANTS}
    purges: dict[str, list[float]] = {v: [] for v in VARIANTS}
    with psycopg.connect(libpq(url), autocommit=True) as conn:
        conn.execute(ROW_LEVEL)
        definition = conn.execute(
            "INSERT INTO process_definition (key, version, name, hash, files, summary, deployed_at, deployed_by)"
            " VALUES ('bench', 1, 'bench', 'h', '{}', '{}', now(), 'bench') RETURNING id").fetchone()[0]
        n = 0
        for _round in range(5):
            for variant in VARIANTS:
                _switch(conn, variant)
                t0 = time.perf_counter()
                for _ in range(per_block):
                    n += 1
                    _case(conn, n, definition)
                times[variant].append((time.perf_counter() - t0) / per_block)
                t0 = time.perf_counter()
                _purge(conn, n - 49, 50)
                purges[variant].append(time.perf_counter() - t0)
    base_ms = statistics.median(times["no totals"]) * 1000
    print(f"| triggers | ms per case (start, claim, 2 completions; median of 5 blocks of {per_block}) | "
          "+ms over none | purge of 50 cases, ms |\n|---|---|---|---|")
    for variant in VARIANTS:
        ms = statistics.median(times[variant]) * 1000
        print(f"| {variant} | {ms:.2f} | {ms - base_ms:+.2f} | {statistics.median(purges[variant]) * 1000:.1f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
