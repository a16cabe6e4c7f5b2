"""The retention job on PostgreSQL at scale (issue 21): N finished cases archived and removed by W
workers while a live workload runs beside them.

Loads `--cases` finished bench cases with their rows and history (bench/retention_load.py: one case
run through the engine, copied server-side, ended in 2019–2020, so with the shipped 3-year period
every one is due), then: the live workload alone (start + complete one case through the engine, 2
threads) for `--live` seconds; then the same workload again beside `--workers` processes running
`engine.commands.retention.run` (batches of `--batch` cases, shard k of W each) for `--seconds`,
sampling pg_locks every second. Reports cases/s, the live p50/p95 with and without the job, lock
waits seen, table sizes before/after and the dead rows left for VACUUM.

    python -m bench.retention [--db URL] [--cases 1000000] [--workers 2] [--batch 200] [--seconds 300]
"""
from __future__ import annotations

import argparse
import multiprocessing
import os
import subprocess
import tempfile
import threading
import time
from datetime import datetime, timezone
from pathlib import Path

from sqlalchemy import create_engine, text

from .common import log, pct
from .diagram import KEY
from .pg_common import DEFAULT_DB, database_url, load_average
from .retention_load import load
from .storage import setup

TABLES = ("process_instance", "task", "workflow_task_state", "audit_event", "case_stage_period", "case_archive")
WAITING = ("SELECT l.locktype || ' ' || l.mode || ': ' || left(a.query, 70) FROM pg_locks l "
           "JOIN pg_stat_activity a ON a.pid = l.pid WHERE NOT l.granted AND a.datname = current_database()")


def _worker(url: str, shard: tuple[int, int], batch: int, seconds: float, folder: str, out) -> None:
    from engine.bootstrap import make_engine
    from engine.commands import retention as job
    from engine.config import retention
    retention.periods = lambda: {KEY: 3}  # the bench process kept 3 years, as the shipped procedures
    os.nice(10)  # as deploy/systemd/tramite-retention.service runs it: below the live work
    eng = make_engine(url)
    done = skipped = 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        result = job.run(eng, limit=batch * 5, batch=batch, folder=Path(folder), shard=shard)
        done, skipped = done + len(result.archived), skipped + result.skipped
        if not result.archived and not result.skipped:
            break
    out.put((done, skipped, time.perf_counter() - started))
    eng.db.dispose()


def _live(one_case, seconds: float, threads: int = 2) -> list[float]:
    samples: list[float] = []
    end = time.perf_counter() + seconds

    def loop():
        while time.perf_counter() < end:
            t = time.perf_counter()
            one_case()
            samples.append((time.perf_counter() - t) * 1000)
    running = [threading.Thread(target=loop) for _ in range(threads)]
    for t in running:
        t.start()
    for t in running:
        t.join()
    return samples


def _sizes(conn) -> dict[str, tuple[int, int]]:
    return {t: conn.execute(text("SELECT pg_table_size(:t), pg_indexes_size(:t)"), {"t": t}).one() for t in TABLES}


def _mb(n: int) -> str:
    return f"{n / 1e6:,.0f} MB"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.retention", description=__doc__.split("\n")[0])
    parser.add_argument("--db", default=DEFAULT_DB, help="PostgreSQL URL; its database name gets _retention")
    parser.add_argument("--cases", type=int, default=1_000_000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--batch", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=300, help="how long the job runs (it stops earlier when done)")
    parser.add_argument("--live", type=float, default=60, help="seconds of the live workload alone")
    args = parser.parse_args(argv)
    url = database_url(args.db, "retention")
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    load_start = load_average()
    eng, one_case = setup(url)
    one_case()
    raw = create_engine(url)
    started = time.perf_counter()
    load(raw, 1, args.cases, log)
    loaded = time.perf_counter() - started
    with raw.connect() as conn:
        before = _sizes(conn)
    alone = _live(one_case, args.live)
    log(f"live alone: {len(alone)} cases, p95 {pct(alone, 95):.0f} ms")

    queue = multiprocessing.get_context("spawn").Queue()
    waits: list[int] = []
    waiting: set[str] = set()
    with tempfile.TemporaryDirectory(dir="/work/tmp" if Path("/work/tmp").is_dir() else None) as folder:
        ctx = multiprocessing.get_context("spawn")
        workers = [ctx.Process(target=_worker, args=(url, (k, args.workers), args.batch, args.seconds, folder, queue))
                   for k in range(args.workers)]
        for w in workers:
            w.start()
        stop = threading.Event()

        def sample():
            with raw.connect() as conn:
                while not stop.wait(1.0):
                    found = conn.execute(text(WAITING)).scalars().all()
                    waits.append(len(found))
                    waiting.update(found)
                    conn.rollback()
        sampler = threading.Thread(target=sample)
        sampler.start()
        time.sleep(5)  # the workers import and connect first
        beside = _live(one_case, min(args.live, args.seconds - 10))
        results = [queue.get() for _ in workers]
        for w in workers:
            w.join()
        stop.set()
        sampler.join()
        archive_files = list(Path(folder).rglob("*.zip"))
        archive_bytes = sum(p.stat().st_size for p in archive_files)
    with raw.connect() as conn:
        after = _sizes(conn)
        left = conn.execute(text("SELECT count(*) FROM process_instance WHERE status = 'completed' "
                                 "AND ended_at < '2021-01-01'")).scalar()
        dead = dict(conn.execute(text("SELECT relname, n_dead_tup FROM pg_stat_user_tables WHERE relname IN "
                                      "('process_instance', 'task', 'workflow_task_state', 'audit_event')")).all())
    started = time.perf_counter()
    with raw.execution_options(isolation_level="AUTOCOMMIT").connect() as conn:
        conn.execute(text("VACUUM (ANALYZE) process_instance, task, workflow_task_state, audit_event, "
                          "case_stage_period"))
        vacuumed = _sizes(conn)
    vacuum_seconds = time.perf_counter() - started
    archived = sum(r[0] for r in results)
    seconds = max(r[2] for r in results)
    rate = archived / seconds
    raw.dispose()
    eng.db.dispose()
    lines = [
        f"- {datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC; commit {commit}; 2 CPUs shared with other helpers' "
        f"work and the database server; load average {load_start} at the start, {load_average()} at the end; "
        "durable commits (synchronous_commit=on)",
        f"- command: `python -m bench.retention --cases {args.cases} --workers {args.workers} --batch {args.batch} "
        f"--seconds {args.seconds:.0f} --live {args.live:.0f}`; {args.cases:,} finished cases loaded in {loaded:.0f} s",
        f"- {archived:,} cases archived and removed in {seconds:.0f} s by {args.workers} worker(s), batches of "
        f"{args.batch}: **{rate:.1f} cases/s**; skipped {sum(r[1] for r in results)}; {left:,} due cases left; "
        f"{len(archive_files):,} archive containers, {archive_bytes / max(archived, 1) / 1024:.1f} KB per case"
        + (f"; the whole {args.cases:,} at this rate: {args.cases / rate / 3600:.1f} h" if left else ""),
        f"- live workload (start + complete, engine, 2 threads): alone {len(alone)} cases, p50 {pct(alone, 50):.0f} ms, "
        f"p95 {pct(alone, 95):.0f} ms; beside the job {len(beside)} cases, p50 {pct(beside, 50):.0f} ms, "
        f"p95 {pct(beside, 95):.0f} ms",
        f"- lock waits in the database (pg_locks not granted, sampled each second): max {max(waits, default=0)}, "
        f"in {sum(1 for w in waits if w)} of {len(waits)} samples" + (f" ({'; '.join(sorted(waiting))})" if waiting else ""),
        "- sizes (table / indexes) before → after: " + "; ".join(
            f"{t} {_mb(before[t][0])} / {_mb(before[t][1])} → {_mb(after[t][0])} / {_mb(after[t][1])}" for t in TABLES),
        "- dead rows left for (auto)VACUUM right after: " + ", ".join(f"{t} {n:,}" for t, n in sorted(dead.items()))
        + f"; a plain `VACUUM (ANALYZE)` of those tables took {vacuum_seconds:.0f} s; sizes after it (table / "
        "indexes): " + "; ".join(f"{t} {_mb(vacuumed[t][0])} / {_mb(vacuumed[t][1])}" for t in TABLES[:4]),
    ]
    log("\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
