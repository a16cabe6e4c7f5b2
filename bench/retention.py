"""The retention job on PostgreSQL (issue 21): N finished bench cases archived and removed.

Runs N bench cases to completion, then `engine.commands.retention.run` over them with the bench
process given a period of 0 years (so every finished case is due; the shipped procedures keep 3),
and reports cases/s for the whole job (export ZIP with its PDF index, fsync, hash, and the short
delete transaction), how many rows are left, and the database size before and after.

    python -m bench.retention [--db URL] [--cases 1000]
"""
from __future__ import annotations

import argparse
import os
import subprocess
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path

from sqlalchemy import text

from .common import log
from .diagram import KEY
from .pg_common import DEFAULT_DB, database_url
from .storage import setup


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.retention", description=__doc__.split("\n")[0])
    parser.add_argument("--db", default=DEFAULT_DB, help="PostgreSQL URL; its database name gets _retention")
    parser.add_argument("--cases", type=int, default=1000)
    args = parser.parse_args(argv)
    from engine.commands import retention as job
    from engine.config import retention

    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    load_start = " / ".join(f"{v:.2f}" for v in os.getloadavg())
    eng, one_case = setup(database_url(args.db, "retention"))
    started = time.perf_counter()
    for _ in range(args.cases):
        one_case()
    made = time.perf_counter() - started
    retention.periods = lambda: {KEY: 0}  # bench only: every finished bench case is due now
    size = "SELECT pg_database_size(current_database())"
    with eng.db.write_engine.connect() as conn:
        before = conn.execute(text(size)).scalar()
    with tempfile.TemporaryDirectory() as folder:
        started = time.perf_counter()
        done = job.run(eng, limit=args.cases, folder=Path(folder))
        seconds = time.perf_counter() - started
        archive_bytes = sum(p.stat().st_size for p in Path(folder).rglob("*.zip"))
    with eng.db.write_engine.connect() as conn:
        left = conn.execute(text("SELECT (SELECT count(*) FROM process_instance), (SELECT count(*) FROM audit_event "
                                 "WHERE instance_id IS NOT NULL), (SELECT count(*) FROM case_archive)")).one()
        after = conn.execute(text(size)).scalar()
    eng.db.dispose()
    n = len(done.archived)
    load_end = " / ".join(f"{v:.2f}" for v in os.getloadavg())
    log("\n".join([
        f"- {datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC; commit {commit}; 2 CPUs shared with other engineers' "
        f"work: load average {load_start} at the start, {load_end} at the end",
        f"- command: `python -m bench.retention --cases {args.cases}`; {args.cases:,} cases made in {made:.0f} s",
        f"- archived and removed {n:,} cases in {seconds:.1f} s: {n / seconds:.1f} cases/s "
        f"({seconds / max(n, 1) * 1000:.0f} ms per case); skipped {done.skipped}",
        f"- left: {left[0]} case rows, {left[1]} history rows of cases, {left[2]:,} archive records; "
        f"archive ZIPs {archive_bytes / max(n, 1) / 1024:.1f} KB per case",
        f"- database {before / 1e6:.1f} MB before, {after / 1e6:.1f} MB after (space is reused, not returned, "
        "until VACUUM FULL)",
    ]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
