"""Throughput of start + complete over HTTP on PostgreSQL with 1 and 2 gunicorn workers, beside
the raw SpiffWorkflow baseline (bench/raw.py) measured in the same run.

The server runs as users run it: `tramite serve` (access log on) with the system clock, the README's
production setting (the manual clock of the production tests reads the database on every command).
Beside the rates, the CPU time the gunicorn workers spent per case (/proc, user + system): a figure a
machine whose speed moves with its other load changes far less than it changes cases/s."""
from __future__ import annotations

import threading
import time
from pathlib import Path

from .common import USERNAME, WARMUP, log
from .diagram import KEY, ROLE, bench_files
from .http_client import CLIENTS
from .http_flow import http_case
from .pg_common import database_url, drop_database, installation, load_average, server, summary, worker_cpu
from .common import run_clients
from .raw import bench_raw


def _prepare(url: str, workdir: Path):
    from engine.commands import accounts
    from engine.identity.actor import SYSTEM

    from tests.production.live import PASSWORD  # the password Installation.tokens() uses

    inst = installation(url, workdir)
    inst.engine.execute(lambda ctx: accounts.add_role(ctx, ROLE, "Oficinista (banco de pruebas)", "Bench clerk"),
                        SYSTEM)
    inst.deploy(KEY, bench_files())
    inst.engine.execute(lambda ctx: accounts.create_user(ctx, USERNAME, PASSWORD, [ROLE], full_name="Bench"),
                        SYSTEM)
    return inst


def _http_run(inst, token: str, workers: int, threads: int, clients: int, cases: int, client: str) -> dict:
    with server(inst, workers=workers, threads=threads, name=f"w{workers}", env={"TRAMITE_CLOCK": "system"}) as live:
        conns = [CLIENTS[client](live.port, token) for _ in range(clients)]
        scratch = {"start": [], "list_tasks": [], "complete": [], "read_case": []}
        for c in conns:  # warm every connection and every worker's caches
            for _ in range(WARMUP):
                http_case(c, scratch)
        timings = {"start": [], "list_tasks": [], "complete": [], "read_case": []}
        whole: list[float] = []
        lock = threading.Lock()

        def one_case(k: int, _i: int) -> None:
            t0 = time.perf_counter()
            http_case(conns[k], timings, lock)
            with lock:
                whole.append(time.perf_counter() - t0)

        per_client = cases // clients
        load_before = load_average()
        pids = live.worker_pids()
        cpu_before = worker_cpu(pids)
        seconds, errors = run_clients(clients, one_case, per_client)
        cpu = worker_cpu(pids) - cpu_before
        for c in conns:
            c.close()
        server_errors = live.server_errors()
    done = len(whole)
    return {"workers": workers, "threads": threads, "clients": clients, "cases": done, "seconds": seconds,
            "cases_s": done / seconds, "errors": errors[:5], "n_errors": len(errors),
            "server_errors": server_errors[:5], "load_before": load_before,
            "server_cpu_ms": cpu / max(len(whole), 1) * 1000,
            "latency": {"case (4 requests)": summary(whole), **{k: summary(v) for k, v in timings.items()}}}


def bench_throughput(base_url: str, workdir: Path, *, cases: int, clients: int, threads: int,
                     raw_cases: int, keep: bool = False, client: str = "lean") -> dict:
    url = database_url(base_url, "http")
    log(f"[throughput] raw SpiffWorkflow baseline, {raw_cases} cases (in memory, then + JSON save/load) ...")
    raw = {"a": bench_raw(raw_cases, with_json=False), "b": bench_raw(raw_cases, with_json=True)}
    log(f"    {raw['a']['cases_s']:.0f} / {raw['b']['cases_s']:.0f} cases/s")
    inst = _prepare(url, workdir / "http")
    token = inst.tokens(USERNAME)[USERNAME]
    runs = []
    try:
        for workers in (1, 2):
            log(f"[throughput] HTTP, gunicorn {workers} worker(s) x {threads} threads, {clients} clients, "
                f"{cases} cases ...")
            run = _http_run(inst, token, workers, threads, clients, cases, client)
            log(f"    {run['cases_s']:.1f} cases/s, server CPU {run['server_cpu_ms']:.1f} ms/case, case p50/p95 "
                f"{run['latency']['case (4 requests)']['p50'] * 1000:.1f}/"
                f"{run['latency']['case (4 requests)']['p95'] * 1000:.1f} ms, errors {run['n_errors']}")
            runs.append(run)
        # the raw baseline once more after the HTTP runs: shows whether the machine's load drifted
        raw["a_after"] = bench_raw(raw_cases, with_json=False)
        statuses = inst.rows("SELECT status, count(*) FROM process_instance GROUP BY status ORDER BY 1")
        durability = {name: inst.scalar(f"SHOW {name}") for name in ("synchronous_commit", "fsync")}
    finally:
        inst.close()
        if not keep:
            drop_database(url)
    return {"raw": raw, "runs": runs, "client": client, "statuses": [tuple(r) for r in statuses], "durability": durability}
