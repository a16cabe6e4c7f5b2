"""Bytes per completed simple case on PostgreSQL (issue 21): tables + indexes + history.

Runs N bench cases (start → user task → complete, bench/diagram.py) through the engine commands on a
fresh database and reports the growth of pg_total_relation_size (heap + TOAST + indexes) of every
table, divided by N: as written (dead row versions of the case row's updates included) and after
VACUUM FULL (the live data alone). It also prints the average stored size of the largest columns,
to show what a case is made of.

    python -m bench.storage [--db URL] [--cases 10000]
"""
from __future__ import annotations

import argparse
import os
import subprocess
import time
from datetime import datetime, timezone

from sqlalchemy import text

from .common import log
from .diagram import COMPLETE_DATA, KEY, ROLE, bench_files
from .pg_common import DEFAULT_DB, database_url, recreate_database

TARGET_BYTES = 8 * 1024
# The columns a case writes, by table: their average stored size (pg_column_size: compressed if TOASTed).
COLUMNS = {"process_instance": ["variables", "workflow_meta", "activity", "search_text"],
           "workflow_task_state": ["body"], "task": ["data"], "audit_event": ["data", "rule_ids", "message"]}


def _sizes(conn) -> dict[str, int]:
    rows = conn.execute(text("SELECT c.relname, pg_total_relation_size(c.oid) FROM pg_class c "
                             "JOIN pg_namespace n ON n.oid = c.relnamespace "
                             "WHERE n.nspname = 'public' AND c.relkind = 'r'"))
    return {name: size for name, size in rows}


def _rows(conn, tables) -> dict[str, int]:
    return {t: conn.execute(text(f'SELECT count(*) FROM "{t}"')).scalar() for t in tables}


def _column_sizes(conn) -> dict[str, float]:
    out = {}
    for table, columns in COLUMNS.items():
        for column in columns:
            avg = conn.execute(text(f'SELECT avg(pg_column_size("{column}")) FROM "{table}"')).scalar()
            out[f"{table}.{column}"] = float(avg or 0)
    return out


def setup(url: str):
    """A fresh database with the bench diagram deployed; (engine, a function running one case)."""
    from engine.bootstrap import make_engine, prepare
    from engine.commands import accounts
    from engine.commands.cases import start_case
    from engine.commands.deploy import deploy
    from engine.commands.tasks import complete
    from engine.identity.actor import SYSTEM, Actor

    recreate_database(url)
    eng = make_engine(url)
    eng.db.upgrade()
    prepare(eng, upgrade=False)
    eng.execute(lambda ctx: accounts.add_role(ctx, ROLE, "Oficinista (banco de pruebas)", "Bench clerk"), SYSTEM)
    eng.execute(deploy, SYSTEM, KEY, bench_files())
    actor = Actor("bench", frozenset({ROLE}))

    def one_case() -> None:
        case = eng.execute(start_case, actor, KEY, {})
        result = eng.execute(complete, actor, case["open_tasks"][0]["id"], dict(COMPLETE_DATA))
        assert result["instance"]["status"] == "completed", result["instance"]["status"]
    return eng, one_case


def run(url: str, cases: int) -> dict:
    eng, one_case = setup(url)
    one_case()  # the shared rows (parameter snapshot, definition, counters) exist before measuring
    raw = eng.db.write_engine.execution_options(isolation_level="AUTOCOMMIT")
    with raw.connect() as conn:
        conn.execute(text("VACUUM FULL"))
        before = _sizes(conn)
        wal_from = conn.execute(text("SELECT pg_current_wal_insert_lsn()")).scalar()
    started = time.perf_counter()
    for _ in range(cases):
        one_case()
    seconds = time.perf_counter() - started
    with raw.connect() as conn:
        wal = conn.execute(text("SELECT pg_wal_lsn_diff(pg_current_wal_insert_lsn(), :lsn)"), {"lsn": wal_from}).scalar()
        written = _sizes(conn)
        conn.execute(text("VACUUM FULL"))
        live = _sizes(conn)
        rows = _rows(conn, [t for t in live if live[t] != before[t]])
        columns = _column_sizes(conn)
    eng.db.dispose()
    tables = sorted((t for t in live if written[t] != before[t] or live[t] != before[t]),
                    key=lambda t: before[t] - live[t])
    return {"cases": cases, "seconds": seconds,
            "written": {t: (written[t] - before[t]) / cases for t in tables},
            "live": {t: (live[t] - before[t]) / cases for t in tables},
            "rows": {t: rows.get(t, 0) / (cases + 1) for t in tables}, "columns": columns,
            "wal": float(wal) / cases}


def report(result: dict, command: str, load: tuple[str, str], commit: str) -> str:
    written, live = sum(result["written"].values()), sum(result["live"].values())
    lines = [f"- {datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC; commit {commit}; 2 CPUs shared with other "
             f"engineers' work: load average {load[0]} at the start, {load[1]} at the end; "
             f"{result['cases']:,} cases in {result['seconds']:.0f} s",
             f"- command: `{command}`",
             "- one case = start + complete of bench/diagram.py (one user task, two scripts, full audit); "
             "synchronous_commit=on",
             "",
             "| table | bytes/case as written | bytes/case live (after VACUUM FULL) | rows/case |",
             "|---|---|---|---|"]
    for table in result["live"]:
        lines.append(f"| {table} | {result['written'][table]:,.0f} | {result['live'][table]:,.0f} | "
                     f"{result['rows'][table]:.2f} |")
    verdict = "PASS" if live <= TARGET_BYTES else "FAIL"
    lines += [f"| **total** | **{written:,.0f}** | **{live:,.0f}** | |", "",
              f"- target <= {TARGET_BYTES:,} bytes per completed case (live data): {verdict}",
              f"- WAL written per case: {result['wal']:,.0f} bytes (the whole server's, while the cases ran: "
              "alone on its server, it is the cases')",
              "- average stored column sizes (bytes): " + ", ".join(
                  f"{name} {size:,.0f}" for name, size in result["columns"].items())]
    return "\n".join(lines)


def _load() -> str:
    return " / ".join(f"{v:.2f}" for v in os.getloadavg())


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.storage", description=__doc__.split("\n")[0])
    parser.add_argument("--db", default=DEFAULT_DB, help="PostgreSQL URL; its database name gets _storage")
    parser.add_argument("--cases", type=int, default=10_000)
    args = parser.parse_args(argv)
    url = database_url(args.db, "storage")
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    start_load = _load()
    result = run(url, args.cases)
    command = f"python -m bench.storage --cases {args.cases}"
    log(report(result, command, (start_load, _load()), commit))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
