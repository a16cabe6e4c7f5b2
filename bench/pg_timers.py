"""Time to fire 10,000 due timers with 2 `tramite worker` processes on PostgreSQL: the cases are
started through the engine (tests/support/diagrams.deadline_flow: a user task with a 20-working-day
boundary timer), the workers start, one clock move makes every timer due, and the fired rows are
counted until none is left."""
from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from .common import log
from .pg_common import database_url, drop_database, installation, load_average

AFTER_EVERY_DEADLINE = "2024-06-01T00:00:00-04:00"


def bench_timers(base_url: str, workdir: Path, *, timers: int, workers: int, interval: float,
                 keep: bool = False, budget: float = 900.0) -> dict:
    from engine.config.clock import parse_instant
    from engine.commands.cases import start_case
    from engine.identity.actor import SYSTEM
    from tests.production.live import TimerWorkerProcess, wait_until
    from tests.support.diagrams import deadline_flow

    url = database_url(base_url, "timers")
    inst = installation(url, workdir / "timers")
    procs = []
    try:
        inst.deploy("test_deadline", deadline_flow())
        engine = inst.engine
        log(f"[timers] starting {timers:,} cases with a deadline through the engine (4 threads) ...")
        t0 = time.perf_counter()
        engine.execute(start_case, SYSTEM, "test_deadline", {})
        with ThreadPoolExecutor(4) as pool:
            list(pool.map(lambda _: engine.execute(start_case, SYSTEM, "test_deadline", {}), range(timers - 1)))
        started_s = time.perf_counter() - t0
        pending = inst.scalar("SELECT count(*) FROM timer WHERE fired_at IS NULL AND NOT cancelled")
        assert pending == timers, pending
        log(f"    {started_s:.0f} s ({timers / started_s:.0f} cases/s)")
        inst.engine.db.write_engine.dispose()

        procs = [TimerWorkerProcess(inst, f"worker{i}", interval=interval) for i in range(workers)]
        for w in procs:
            wait_until(lambda w=w: "timer worker started" in w.log() or w.proc.poll() is not None, 60,
                       f"{w.name} to start")
            if w.proc.poll() is not None:
                raise RuntimeError(w.log()[-3000:])
        time.sleep(interval * 2)  # both past their first (empty) poll
        load_before = load_average()
        log(f"[timers] {workers} workers (poll every {interval} s); one clock move makes all {timers:,} due ...")
        moved = time.perf_counter()
        engine.execute(lambda ctx: engine.clock.move_to(ctx.conn, parse_instant(AFTER_EVERY_DEADLINE)), SYSTEM)
        marks: dict[int, float] = {}
        left = timers
        while left:
            left = inst.scalar("SELECT count(*) FROM timer WHERE fired_at IS NULL AND NOT cancelled")
            done = timers - left
            for share in (10, 50, 90, 100):
                if share not in marks and done * 100 >= share * timers:
                    marks[share] = time.perf_counter() - moved
            if time.perf_counter() - moved > budget:
                break
            if left:
                time.sleep(0.2)
        elapsed = marks.get(100)
        fired_events = inst.scalar("SELECT count(*) FROM audit_event WHERE type = 'timer_fired'")
        fired_cases = inst.scalar("SELECT count(DISTINCT instance_id) FROM audit_event WHERE type = 'timer_fired'")
        statuses = inst.rows("SELECT status, outcome, count(*) FROM process_instance GROUP BY 1, 2")
        tracebacks = sum("Traceback" in w.log() for w in procs)
        # What a commit costs here: the figure is a production one only with both on.
        durability = {name: inst.scalar(f"SHOW {name}") for name in ("synchronous_commit", "fsync")}
    finally:
        for w in procs:
            w.stop()
        inst.close()
        if not keep:
            drop_database(url)
    log(f"    all fired in {elapsed:.1f} s" if elapsed else f"    NOT all fired within {budget:.0f} s")
    return {"timers": timers, "workers": workers, "interval": interval, "start_seconds": started_s,
            "seconds": elapsed, "marks": marks, "rate": timers / elapsed if elapsed else None,
            "fired_events": fired_events, "fired_cases": fired_cases,
            "statuses": [tuple(s) for s in statuses], "tracebacks": tracebacks, "load_before": load_before, "durability": durability}
