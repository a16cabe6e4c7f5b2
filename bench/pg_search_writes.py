"""What the case search table (migration 0033) and its terms (0034) save or cost a case's writes: one
case's life as the engine writes it, on databases at two revisions (default 0033, the copy table kept
by triggers with its trigram indexes, and 0034, the same with the text's terms kept by triggers; 0032
had the three trigram GIN indexes on the case row), in interleaved blocks (drift hits both alike).
Server CPU of each database's backend (utime + stime from /proc: run it on the server's machine) and
wall time per case, on the durable server for commit-bound wall times.

    PYTHONPATH=. .venv/bin/python -m bench.pg_search_writes postgresql+psycopg://.../<name> [cases per block]
        [revision,revision]

The databases (`<name>_sw_<revision>`) are recreated, migrated and given SEED cases
first (the indexes hold entries, as a live database's do). A case: its start (the case row with its
search text and first task), five saves of the case (its variables and workflow state rewritten,
a stage, a due date and the status changing on some: non-HOT updates, which write every index),
its tasks completed, and its end."""
from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time

import psycopg
from alembic import command
from alembic.config import Config

from .pg_common import database_url, recreate_database
from .pg_load import libpq

SEED = 20_000
VARIABLES = json.dumps({"applicant": {"name": "María Núñez Colón", "id": "123-45-6789", "municipality": "Cidra"},
                        "lines": [{"description": f"item {i}", "quantity": i, "price": "45.00"} for i in range(30)]})
META = json.dumps({"tramite": {"open_tasks": 1, "timers": 0}, "data": {"x": "y" * 400}})
SAVES = ("variables = %(v)s, workflow_meta = %(m)s",
         "variables = %(v)s, workflow_meta = %(m)s, stage = 'EVALUATION', next_due_at = now() + interval '20 days'",
         "variables = %(v)s, workflow_meta = %(m)s",
         "variables = %(v)s, workflow_meta = %(m)s, stage = 'DECIDED', next_due_at = NULL",
         "variables = %(v)s, workflow_meta = %(m)s, status = 'completed', outcome = 'APPROVED', ended_at = now()")


LABELS = {"0032": "0032: 3 trigram GINs on the case row", "0033": "0033: case_search copy by triggers",
          "0034": "0034: and the text's terms by triggers"}


def _migrate(url: str, revision: str) -> None:
    from engine.bootstrap import make_engine
    from engine.persistence.database import MIGRATIONS
    engine = make_engine(url)
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.set_main_option("sqlalchemy.url", engine.db.url.replace("%", "%%"))
    with engine.db.write_engine.connect() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, revision)
        if conn.in_transaction():
            conn.commit()
    engine.db.dispose()


def _cpu(pid: int) -> float:
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _case(conn, n: int, definition: int) -> None:
    number = f"SW-{n}"
    with conn.transaction():
        case = conn.execute(
            "INSERT INTO process_instance (case_number, process_key, definition_id, status, variables, workflow_meta,"
            " activity, started_by, started_at, lock_version, office, applicant_name, municipality, search_text)"
            " VALUES (%s, 'bench', %s, 'active', %s, %s, '{}', 'registry_clerk_03', now(), 1, 'Norte',"
            " 'María Núñez Colón', 'Cidra', %s) RETURNING id",
            (number, definition, VARIABLES, META, f"maria nunez colon {n} | 123-45-6789 | cidra")).fetchone()[0]
        conn.execute("INSERT INTO task (instance_id, spiff_task_id, element_id, name, lane, state, priority, created_at)"
                     " VALUES (%s, %s, 'review', 'Review', 'clerk', 'open', 0, now())", (case, f"{number}-1"))
    for i, save in enumerate(SAVES):
        with conn.transaction():
            if i in (1, 3):
                conn.execute("UPDATE task SET state = 'completed', completed_at = now() WHERE instance_id = %s"
                             " AND state = 'open'", (case,))
            conn.execute(f"UPDATE process_instance SET {save}, lock_version = lock_version + 1 WHERE id = %(id)s",
                         {"v": VARIABLES, "m": META, "id": case})


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.pg_search_writes", description=__doc__.split("\n")[0])
    parser.add_argument("url", help="base PostgreSQL URL; its database name gets _sw_<revision>")
    parser.add_argument("per_block", nargs="?", type=int, default=200, help="cases per block [200]")
    parser.add_argument("revisions", nargs="?", default="0033,0034", help="two revisions, comma-separated [0033,0034]")
    options = parser.parse_args(argv)
    base, per_block, revisions = options.url, options.per_block, options.revisions.split(",")
    conns, pids, definitions = {}, {}, {}
    for revision in revisions:
        url = database_url(base, f"sw_{revision}")
        recreate_database(url)
        _migrate(url, revision)
        conn = conns[revision] = psycopg.connect(libpq(url), autocommit=True)
        pids[revision] = conn.execute("SELECT pg_backend_pid()").fetchone()[0]
        definitions[revision] = conn.execute(
            "INSERT INTO process_definition (key, version, name, hash, files, summary, deployed_at, deployed_by)"
            " VALUES ('bench', 1, 'bench', 'h', '{}', '{}', now(), 'bench') RETURNING id").fetchone()[0]
        conn.execute(
            "INSERT INTO process_instance (case_number, process_key, definition_id, status, variables, workflow_meta,"
            " activity, started_by, started_at, lock_version, office, search_text) SELECT 'SEED-' || g, 'bench', %s,"
            " 'completed', '{}', '{}', '{}', 'clerk_' || (g %% 40), now(), 1, 'Norte', 'nombre ' || md5(g::text)"
            " FROM generate_series(1, %s) g", (definitions[revision], SEED))
        conn.execute("VACUUM ANALYZE")
    cpu = {r: [] for r in conns}
    wall = {r: [] for r in conns}
    n = 0
    for _round in range(6):
        for revision, conn in conns.items():
            c0, t0 = _cpu(pids[revision]), time.perf_counter()
            for _ in range(per_block):
                n += 1
                _case(conn, n, definitions[revision])
            wall[revision].append((time.perf_counter() - t0) / per_block * 1000)
            cpu[revision].append((_cpu(pids[revision]) - c0) / per_block * 1000)
    print(f"| case table | server CPU ms per case life (median of 6 blocks of {per_block}) | wall ms per case |"
          "\n|---|---|---|")
    for revision in revisions:
        label = LABELS.get(revision, revision)
        print(f"| {label} | {statistics.median(cpu[revision]):.3f} (blocks {', '.join(f'{x:.2f}' for x in cpu[revision])})"
              f" | {statistics.median(wall[revision]):.2f} |")
    for conn in conns.values():
        conn.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
