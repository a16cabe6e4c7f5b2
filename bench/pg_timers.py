"""Time to fire 10,000 due timers with 2 `tramite worker` processes on PostgreSQL: the cases are
started through the engine (tests/support/diagrams.deadline_flow: a user task with a 20-working-day
boundary timer), the workers start, one clock move makes every timer due, and the fired rows are
counted until none is left.

With `before` (a checkout of older code), the same cases are fired twice in one run: the cases are
started once, the database is copied (CREATE DATABASE … TEMPLATE) for each code, and each code's
workers fire their copy, so both see the same rows, the same server and the same hour. Besides the
wall time, each run reports the CPU spent per firing by the worker processes (/proc utime+stime)
and by the server backends serving them, from the clock move until the last timer fired."""
from __future__ import annotations

import copy
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from .common import ROOT, log
from .pg_common import database_url, drop_database_or_say, dropped, installation, load_average
from .pg_cpu import _cpu_seconds

AFTER_EVERY_DEADLINE = "2024-06-01T00:00:00-04:00"


def _clone(source_url: str, target_url: str) -> None:
    """`target` as a copy of `source` (no session may be connected to `source` meanwhile)."""
    source, target = make_url(source_url), make_url(target_url)
    admin = create_engine(target.set(database="postgres"), isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        dropped(conn, target.database)
        conn.execute(text(f'CREATE DATABASE "{target.database}" TEMPLATE "{source.database}"'))
    admin.dispose()


def _backends(conn) -> list[int]:
    """The server processes serving this database, but the one asking."""
    return list(conn.execute(text("SELECT pid FROM pg_stat_activity WHERE datname = current_database() "
                                  "AND pid <> pg_backend_pid()")).scalars())


def bench_timers(base_url: str, workdir: Path, *, timers: int, workers: int, interval: float,
                 keep: bool = False, budget: float = 900.0, before: Path | None = None,
                 reuse: bool = False) -> dict:
    from engine.commands.cases import start_case
    from engine.identity.actor import SYSTEM
    from tests.support.diagrams import deadline_flow

    url = database_url(base_url, "timers")
    # --reuse with a before code: the cases of an earlier run, never fired there (each code fires a copy).
    reuse = reuse and before is not None
    inst = installation(url, workdir / "timers", fresh=not reuse)
    keep = keep or reuse
    try:
        engine = inst.engine
        ready = reuse and _unfired(inst) == (timers, timers)
        started_s = None
        if not ready:
            if reuse:  # not the cases wanted: start over
                inst.close()
                inst = installation(url, workdir / "timers")
                engine = inst.engine
            inst.deploy("test_deadline", deadline_flow())
            log(f"[timers] starting {timers:,} cases with a deadline through the engine (4 threads) ...")
            t0 = time.perf_counter()
            engine.execute(start_case, SYSTEM, "test_deadline", {})
            with ThreadPoolExecutor(4) as pool:
                list(pool.map(lambda _: engine.execute(start_case, SYSTEM, "test_deadline", {}), range(timers - 1)))
            started_s = time.perf_counter() - t0
        pending = inst.scalar("SELECT count(*) FROM timer WHERE fired_at IS NULL AND NOT cancelled")
        assert pending == timers, pending
        log(f"    {started_s:.0f} s ({timers / started_s:.0f} cases/s)" if started_s else
            f"    reusing the {timers:,} unfired cases of {url.rsplit('/', 1)[-1]}")
        engine.db.dispose()
        codes = [("before", Path(before)), ("after", ROOT)] if before else [("this tree", ROOT)]
        runs = []
        for i, (label, code) in enumerate(codes):
            run_url = database_url(base_url, f"timers_{i}") if before else url
            if before:
                _clone(url, run_url)
            try:
                runs.append({"code": label, "code_dir": str(code),
                             **_fire_all(inst, run_url, code, timers=timers, workers=workers, interval=interval,
                                         budget=budget)})
            finally:
                if before and not keep:
                    drop_database_or_say(run_url)
    finally:
        inst.close()
        if not keep:
            drop_database_or_say(url)
    return {**runs[-1], "timers": timers, "workers": workers, "interval": interval, "start_seconds": started_s,
            "runs": runs}


def _unfired(inst) -> tuple[int, int]:
    """(timers, of them unfired) in an installation made earlier."""
    try:
        return (inst.scalar("SELECT count(*) FROM timer"),
                inst.scalar("SELECT count(*) FROM timer WHERE fired_at IS NULL AND NOT cancelled"))
    except Exception:  # noqa: BLE001 - no such table yet: nothing to reuse
        return (0, 0)


def _fire_all(inst, url: str, code: Path, *, timers: int, workers: int, interval: float, budget: float) -> dict:
    """`workers` worker processes running the code at `code` fire every timer of the database at `url`."""
    from engine.bootstrap import make_engine
    from engine.config.clock import Clock, parse_instant
    from engine.identity.actor import SYSTEM
    from tests.production.live import START, TimerWorkerProcess, wait_until

    here = copy.copy(inst)
    here.url = url
    here.engine = engine = make_engine(url, Clock("manual", parse_instant(START)))
    procs = []
    try:
        procs = [TimerWorkerProcess(here, f"worker{i}-{code.name}", interval=interval, PYTHONPATH=str(code))
                 for i in range(workers)]
        for w in procs:
            wait_until(lambda w=w: "timer worker started" in w.log() or w.proc.poll() is not None, 60,
                       f"{w.name} to start")
            if w.proc.poll() is not None:
                raise RuntimeError(w.log()[-3000:])
        time.sleep(interval * 2)  # both past their first (empty) poll: their connections are open
        load_before = load_average()
        with engine.db.read_engine.connect() as watch:
            watch.commit()
            backends = _backends(watch)
            cpu0 = {pid: _cpu_seconds(pid) for pid in backends}
            workers0 = [_cpu_seconds(w.proc.pid) for w in procs]
            log(f"[timers] {workers} workers of {code} (poll {interval} s); one clock move makes all {timers:,} due ...")
            moved = time.perf_counter()
            engine.execute(lambda ctx: engine.clock.move_to(ctx.conn, parse_instant(AFTER_EVERY_DEADLINE)), SYSTEM)
            marks: dict[int, float] = {}
            left = timers
            while left:
                left = watch.execute(text("SELECT count(*) FROM timer WHERE fired_at IS NULL AND NOT cancelled")).scalar()
                watch.commit()
                done = timers - left
                for share in (10, 50, 90, 100):
                    if share not in marks and done * 100 >= share * timers:
                        marks[share] = time.perf_counter() - moved
                if time.perf_counter() - moved > budget:
                    break
                if left:
                    time.sleep(0.2)
            worker_cpu = sum(_cpu_seconds(w.proc.pid) for w in procs) - sum(workers0)
            server_cpu = sum(max(0.0, _cpu_seconds(pid) - cpu0.get(pid, 0.0))
                             for pid in set(_backends(watch)) | set(backends))
            watch.commit()
        load_after = load_average()
        elapsed = marks.get(100)
        fired_events = here.scalar("SELECT count(*) FROM audit_event WHERE type = 'timer_fired'")
        fired_cases = here.scalar("SELECT count(DISTINCT instance_id) FROM audit_event WHERE type = 'timer_fired'")
        statuses = here.rows("SELECT status, outcome, count(*) FROM process_instance GROUP BY 1, 2")
        tracebacks = sum("Traceback" in w.log() for w in procs)
        # What a commit costs here: the figure is a production one only with both on.
        durability = {name: here.scalar(f"SHOW {name}") for name in ("synchronous_commit", "fsync")}
    finally:
        for w in procs:
            w.stop()
        engine.db.dispose()
    fired = timers - left
    log(f"    all fired in {elapsed:.1f} s" if elapsed else f"    NOT all fired within {budget:.0f} s")
    log(f"    CPU per firing: {worker_cpu / max(fired, 1) * 1000:.2f} ms workers + "
        f"{server_cpu / max(fired, 1) * 1000:.2f} ms server; load {load_before} -> {load_after}")
    return {"seconds": elapsed, "marks": marks, "rate": timers / elapsed if elapsed else None,
            "worker_cpu_ms": worker_cpu / max(fired, 1) * 1000, "server_cpu_ms": server_cpu / max(fired, 1) * 1000,
            "fired_events": fired_events, "fired_cases": fired_cases,
            "statuses": [tuple(s) for s in statuses], "tracebacks": tracebacks, "load_before": load_before,
            "load_after": load_after, "durability": durability}
