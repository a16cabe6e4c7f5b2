"""PostgreSQL benchmarks of issue 8 (not tests): HTTP throughput with 1 and 2 gunicorn workers beside
raw SpiffWorkflow, inbox / case-list queries at 1,000,000 cases and 10,000,000 task rows (with their history), and the time
to fire 10,000 due timers with 2 `tramite worker` processes.

    cd /work/main && .venv/bin/python -m bench.production \\
        --db postgresql+psycopg://tramite:tramite@127.0.0.1:5432/tramite_bench [--only throughput,queries,timers]

Each family uses its own database (<db>_http, <db>_queries, <db>_timers), created and dropped by the
run (--keep leaves them; --reuse loads the 10,000,000 task rows only if <db>_queries does not hold them).
Prints a report and writes it into bench/RESULTS.md as the "PostgreSQL (issue 8)" section.
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

from .common import ROOT, RESULTS, shown_command
from .pg_common import DEFAULT_DB, load_average
from .pg_report import build_report, write_section

FAMILIES = ("throughput", "queries", "timers")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.production", description=__doc__.split("\n")[0])
    parser.add_argument("--db", default=DEFAULT_DB, help=f"base PostgreSQL URL [{DEFAULT_DB}]")
    parser.add_argument("--only", default=",".join(FAMILIES), help="comma-separated families [all]")
    parser.add_argument("--cases", type=int, default=400, help="HTTP cases per worker setting [400]")
    parser.add_argument("--clients", type=int, default=4, help="HTTP client threads of the query family [4]")
    parser.add_argument("--http-clients", type=int, default=8,
                        help="HTTP client threads of the throughput family [8, issue 21's target]")
    parser.add_argument("--threads", type=int, default=4, help="gunicorn threads per worker [4]")
    parser.add_argument("--client", choices=("lean", "stdlib"), default="lean",
                        help="the load generator's HTTP client (bench/http_client.py) [lean]")
    parser.add_argument("--raw-cases", type=int, default=300, help="raw SpiffWorkflow baseline cases [300]")
    parser.add_argument("--load-cases", type=int, default=1_000_000, help="cases for the query family [1000000]")
    parser.add_argument("--load-tasks", type=int, default=10_000_000, help="task rows [10000000]")
    parser.add_argument("--rounds", type=int, default=40, help="samples per query [40]")
    parser.add_argument("--timers", type=int, default=10_000, help="due timers [10000]")
    parser.add_argument("--timer-workers", type=int, default=2, help="tramite worker processes [2]")
    parser.add_argument("--interval", type=float, default=1.0, help="worker poll interval, s [1.0, the CLI's]")
    parser.add_argument("--timers-before", default=None, metavar="DIR",
                        help="a checkout of older code: its workers fire a copy of the same timers first, "
                             "in the same run (before/after)")
    parser.add_argument("--keep", action="store_true", help="keep the benchmark databases")
    parser.add_argument("--reuse", action="store_true", help="reuse <db>_queries if already loaded, and with --timers-before <db>_timers if it holds the unfired cases")
    parser.add_argument("--no-write", action="store_true", help="do not update bench/RESULTS.md")
    args = parser.parse_args(argv)
    only = [f.strip() for f in args.only.split(",") if f.strip()]
    unknown = set(only) - set(FAMILIES)
    if unknown:
        parser.error(f"unknown families: {', '.join(sorted(unknown))}")
    command = shown_command("bench.production", argv if argv is not None else sys.argv[1:])

    os.chdir(ROOT)
    os.environ.setdefault("TRAMITE_PROCESSES_DIR", str(ROOT / "processes"))
    from .pg_queries import bench_queries
    from .pg_throughput import bench_throughput
    from .pg_timers import bench_timers

    results: dict = {"load_start": load_average()}
    began = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="tramite-bench-pg-") as tmp:
        tmp = Path(tmp)
        if "throughput" in only:
            results["throughput"] = bench_throughput(args.db, tmp, cases=args.cases, clients=args.http_clients,
                                                     threads=args.threads, raw_cases=args.raw_cases, keep=args.keep,
                                                     client=args.client)
        if "queries" in only:
            results["queries"] = bench_queries(args.db, tmp, cases=args.load_cases, tasks=args.load_tasks,
                                               rounds=args.rounds, clients=args.clients, workers=2,
                                               threads=args.threads, keep=args.keep or args.reuse,
                                               reuse=args.reuse)
        if "timers" in only:
            results["timers"] = bench_timers(args.db, tmp, timers=args.timers, workers=args.timer_workers,
                                             interval=args.interval, keep=args.keep,
                                             before=Path(args.timers_before) if args.timers_before else None,
                                             reuse=args.reuse)
    results["load_end"] = load_average()
    total = time.perf_counter() - began
    text, md = build_report(args, results, total, command)
    print()
    print(text)
    if not args.no_write:
        write_section(md, only)
        print(f"written to {RESULTS.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
