"""What migration 0032 costs a write: one case's life as the engine writes it, with due dates, timed
without 0032's objects (its triggers disabled, ix_instance_due_started dropped) and with them, in
interleaved blocks on one connection (drift hits both alike); bench/pg_totals_triggers.py's case,
plus the due date the engine keeps on the case row (next_due_at: set with the first task, moved by
the next task, cleared at the end). 0031's triggers stay on in both.

    PYTHONPATH=. .venv/bin/python -m bench.pg_due_triggers postgresql+psycopg://... [cases per block]

The database is recreated (`<name>_due_triggers`) and migrated."""
from __future__ import annotations

import argparse
import statistics
import sys
import time

import psycopg

from .pg_common import database_url, recreate_database
from .pg_load import libpq

TRIGGERS = ("case_due_insert", "case_due_delete", "case_due_update")
INDEX = ("CREATE INDEX ix_instance_due_started ON process_instance (started_at, id) INCLUDE (next_due_at, "
         "process_key, status, definition_id, office, started_by) WHERE next_due_at IS NOT NULL")


def _switch(conn, on: bool) -> None:
    for name in TRIGGERS:
        conn.execute(f"ALTER TABLE process_instance {'ENABLE' if on else 'DISABLE'} TRIGGER {name}")
    conn.execute(INDEX if on else "DROP INDEX IF EXISTS ix_instance_due_started")


def _case(conn, n: int, definition: int) -> None:
    number = f"D-{n}"
    with conn.transaction():
        case = conn.execute(
            "INSERT INTO process_instance (case_number, process_key, definition_id, status, variables, workflow_meta,"
            " activity, started_by, started_at, lock_version, office) VALUES (%s, 'bench', %s, 'active', '{}', '{}',"
            " '{}', 'clerk', now(), 1, 'Norte') RETURNING id", (number, definition)).fetchone()[0]
        conn.execute("INSERT INTO task (instance_id, spiff_task_id, element_id, name, lane, state, priority, created_at,"
                     " due_at) VALUES (%s, %s, 'review', 'Review', 'clerk', 'open', 0, now(), now() + interval '20 days')",
                     (case, f"{number}-1"))
        conn.execute("UPDATE process_instance SET variables = '{\"a\": 1}', lock_version = lock_version + 1,"
                     " next_due_at = now() + interval '20 days' WHERE id = %s", (case,))
        conn.execute("UPDATE process_instance SET lock_version = lock_version + 1 WHERE id = %s", (case,))
    with conn.transaction():
        conn.execute("UPDATE task SET assignee = 'clerk' WHERE spiff_task_id = %s", (f"{number}-1",))
        conn.execute("UPDATE process_instance SET lock_version = lock_version + 1 WHERE id = %s", (case,))
    with conn.transaction():
        conn.execute("UPDATE task SET state = 'completed', completed_at = now() WHERE spiff_task_id = %s",
                     (f"{number}-1",))
        conn.execute("INSERT INTO task (instance_id, spiff_task_id, element_id, name, lane, state, priority, created_at,"
                     " due_at) VALUES (%s, %s, 'approve', 'Approve', 'boss', 'open', 0, now(), now() + interval '30 days')",
                     (case, f"{number}-2"))
        conn.execute("UPDATE process_instance SET stage = 'approval', lock_version = lock_version + 1,"
                     " next_due_at = now() + interval '30 days' WHERE id = %s", (case,))
    with conn.transaction():
        conn.execute("UPDATE task SET state = 'completed', assignee = 'boss' WHERE spiff_task_id = %s",
                     (f"{number}-2",))
        conn.execute("UPDATE process_instance SET status = 'completed', lock_version = lock_version + 1,"
                     " next_due_at = NULL WHERE id = %s", (case,))


def _server_cpu(conn) -> float:
    pid = conn.execute("SELECT pg_backend_pid()").fetchone()[0]
    with open(f"/proc/{pid}/stat", encoding="ascii") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / 100


def main(argv: list[str]) -> int:
    from engine.bootstrap import make_engine
    parser = argparse.ArgumentParser(prog="python -m bench.pg_due_triggers", description=__doc__.split("\n")[0])
    parser.add_argument("url", help="base PostgreSQL URL; its database name gets _due_triggers")
    parser.add_argument("per_block", nargs="?", type=int, default=200, help="cases per block [200]")
    options = parser.parse_args(argv)
    base, per_block = options.url, options.per_block
    url = database_url(base, "due_triggers")
    recreate_database(url)
    make_engine(url).db.upgrade()
    wall: dict[bool, list[float]] = {False: [], True: []}
    cpu: dict[bool, list[float]] = {False: [], True: []}
    with psycopg.connect(libpq(url), autocommit=True) as conn:
        definition = conn.execute(
            "INSERT INTO process_definition (key, version, name, hash, files, summary, deployed_at, deployed_by)"
            " VALUES ('bench', 1, 'bench', 'h', '{}', '{}', now(), 'bench') RETURNING id").fetchone()[0]
        n = 0
        for block in range(10):
            on = block % 2 == 1
            _switch(conn, on)
            t0, c0 = time.perf_counter(), _server_cpu(conn)
            for _ in range(per_block):
                n += 1
                _case(conn, n, definition)
            wall[on].append((time.perf_counter() - t0) / per_block * 1000)
            cpu[on].append((_server_cpu(conn) - c0) / per_block * 1000)
        rows = conn.execute("SELECT count(*) FROM case_due_total").fetchone()[0]
    print(f"| 0032 | ms per case (median of 5 blocks of {per_block}) | server CPU ms per case |\n|---|---|---|")
    for on in (False, True):
        print(f"| {'with' if on else 'without'} | {statistics.median(wall[on]):.2f} | {statistics.median(cpu[on]):.2f} |")
    print(f"case_due_total rows written: {rows}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
