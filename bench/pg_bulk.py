"""The server-side parts of the bulk load (bench/pg_load.py): secondary indexes and constraints
dropped before the COPY and built once afterwards, the tasks numbered in creation order, and the
cases' history written into audit_event from the rows just loaded.

Built once over the loaded rows a btree is sorted in one pass; kept during a 10,000,000-row COPY
every row is a random insert into each of the task table's ten indexes (and a foreign-key probe)."""
from __future__ import annotations

TABLES = ("process_instance", "task", "audit_event")
# The session settings of the load: a sort of 10,000,000 rows and an index build each in memory.
LOAD_SETTINGS = ("SET work_mem = '512MB'", "SET maintenance_work_mem = '1GB'",
                 "SET max_parallel_maintenance_workers = 1")


def drop_secondary(conn) -> dict:
    """Drop every index and constraint of TABLES except their primary keys; return how to rebuild them.
    Foreign keys of other tables point at the primary keys, which stay."""
    constraints = conn.execute(
        "SELECT c.conrelid::regclass::text, c.conname, pg_get_constraintdef(c.oid), c.contype "
        "FROM pg_constraint c WHERE c.conrelid = ANY(%s::regclass[]) AND c.contype IN ('u', 'f') "
        "ORDER BY c.contype = 'f' DESC, c.conname", (list(TABLES),)).fetchall()
    for table, name, _definition, _kind in constraints:
        conn.execute(f'ALTER TABLE {table} DROP CONSTRAINT "{name}"')
    indexes = conn.execute(
        "SELECT i.indexrelid::regclass::text, pg_get_indexdef(i.indexrelid) FROM pg_index i "
        "WHERE i.indrelid = ANY(%s::regclass[]) AND NOT i.indisprimary ORDER BY 1", (list(TABLES),)).fetchall()
    for name, _definition in indexes:
        conn.execute(f"DROP INDEX {name}")
    conn.commit()
    # Rebuilt in reverse: indexes, then unique constraints, then the foreign keys that may need them.
    return {"indexes": [d for _n, d in indexes],
            "constraints": [(t, n, d) for t, n, d, kind in reversed(constraints)]}


def rebuild_secondary(conn, saved: dict) -> None:
    for statement in LOAD_SETTINGS:
        conn.execute(statement)
    for definition in saved["indexes"]:
        conn.execute(definition)
    for table, name, definition in saved["constraints"]:
        conn.execute(f'ALTER TABLE {table} ADD CONSTRAINT "{name}" {definition}')
    conn.commit()


STAGE = "bench_task_stage"
TASK_COLUMNS = ("instance_id, spiff_task_id, element_id, name, lane, assignee, state, priority, created_at, "
                "due_at, completed_at, completed_by, data")


def create_stage(conn) -> None:
    """The tasks arrive case by case; they get their ids in creation order from this staging table."""
    conn.execute(f"DROP TABLE IF EXISTS {STAGE}")
    conn.execute(f"CREATE UNLOGGED TABLE {STAGE} AS SELECT {TASK_COLUMNS} FROM task WITH NO DATA")
    conn.commit()


def tasks_from_stage(conn) -> int:
    """Task ids grow with time as the engine writes them (open tasks in the recent end of the heap)."""
    for statement in LOAD_SETTINGS:
        conn.execute(statement)
    conn.execute(f"INSERT INTO task (id, {TASK_COLUMNS}) SELECT row_number() OVER (ORDER BY created_at, "
                 f"instance_id, spiff_task_id), {TASK_COLUMNS} FROM {STAGE}")
    conn.execute(f"DROP TABLE {STAGE}")
    last = conn.execute("SELECT coalesce(max(id), 0) FROM task").fetchone()[0]
    conn.execute("SELECT setval(pg_get_serial_sequence('task', 'id'), greatest(%s, 1))", (last,))
    return last


def write_history(conn) -> int:
    """audit_event as real cases write it: case_started (its version and variables), one
    task_completed per completed task (its answers), case_completed / case_cancelled at the end;
    in time order, as the engine appends them. The table's trigger refuses only UPDATE and DELETE."""
    for statement in LOAD_SETTINGS:
        conn.execute(statement)
    conn.execute(
        "INSERT INTO audit_event (id, at, actor, instance_id, task_id, element_id, type, data, rule_ids, message) "
        "SELECT base.last + row_number() OVER (ORDER BY e.at, e.instance_id, e.seq), e.at, e.actor, e.instance_id, e.task_id, "
        "e.element_id, e.type, e.data, e.rule_ids, e.message FROM ("
        " SELECT i.started_at AS at, i.started_by AS actor, i.id AS instance_id, NULL::bigint AS task_id,"
        "  NULL AS element_id, 'case_started' AS type,"
        "  jsonb_build_object('version', 1, 'variables', i.variables) AS data, '[]'::jsonb AS rule_ids,"
        "  NULL AS message, 0::bigint AS seq FROM process_instance i"
        " UNION ALL SELECT t.completed_at, t.completed_by, t.instance_id, t.id, t.element_id, 'task_completed',"
        "  coalesce(t.data, '{}'::jsonb), '[]'::jsonb, NULL, t.id FROM task t WHERE t.state = 'completed'"
        " UNION ALL SELECT i.ended_at, 'engine', i.id, NULL, NULL,"
        "  CASE i.status WHEN 'completed' THEN 'case_completed' ELSE 'case_cancelled' END,"
        "  jsonb_build_object('outcome', i.outcome), '[]'::jsonb, NULL, 9223372036854775807"
        "  FROM process_instance i WHERE i.ended_at IS NOT NULL"
        ") AS e(at, actor, instance_id, task_id, element_id, type, data, rule_ids, message, seq), "
        # after the events the installation wrote itself (deployments, users)
        "(SELECT coalesce(max(id), 0) AS last FROM audit_event) AS base")
    written = conn.execute("SELECT count(*) FROM audit_event WHERE instance_id IS NOT NULL").fetchone()[0]
    conn.execute("SELECT setval(pg_get_serial_sequence('audit_event', 'id'), "
                 "(SELECT greatest(max(id), 1) FROM audit_event))")
    return written
