"""Where the HTTP server's CPU goes per case (issue 21; a tool, not a test): `tramite serve` as the
README starts it (gthread, access log on) on PostgreSQL, the bench's four-request case from N
clients, the worker processes' CPU time read from /proc before and after, and, when py-spy is
installed, a sampling profile of the workers (the thread holding the GIL) folded by layer.

    .venv/bin/python -m bench.profile_http --db postgresql+psycopg://tramite:tramite@127.0.0.1:5432/tramite_bench \\
        [--workers 1] [--threads 4] [--clients 4] [--cases 300] [--clock system] [--py-spy] [--out /tmp/profile]
        [--server-pythonpath /path/to/another/checkout]   # the server from another commit: a before/after pair
        [--before /path/to/old/checkout --rounds 3]        # old and new servers alternately, one database

Beside the workers' CPU, what the PostgreSQL primary, its replica, the client threads and the rest
of the machine spent per case (bench/cpu_shares.py): on 2 shared cores all of it is the budget.
"""
from __future__ import annotations

import argparse
import itertools
import os
import shutil
import subprocess
import sys
import statistics
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

from sqlalchemy.engine import make_url

from .common import ROOT, USERNAME, WARMUP, log, pct, run_clients
from .cpu_shares import CpuShares, postmaster_of
from .http_client import CLIENTS
from .http_flow import http_case
from .pg_common import DEFAULT_DB, database_url, drop_database, server

# A sampled stack is charged to the first of these layers whose mark one of its frames holds
# (bench/RESULTS.md, "HTTP on PostgreSQL (issue 21)", has the table this prints).
LAYERS = (
    ("engine commands start + complete (Engine.execute)", ("Engine.execute (engine/kernel/engine.py",)),
    ("bearer-token check (pool checkout + its query)", ("authenticate_request (api/rest/auth.py",)),
    ("list query (GET tasks?instance=)", ("read_listing_rows (api/rest/auth.py",)),
    ("case read query (GET instances/<id>)", ("case_detail (engine/queries/cases.py",)),
    ("arguments (webargs + marshmallow)", ("Parser.parse (webargs/core.py", "Parser._get_schema")),
    ("JSON answer encoding", ("jsonify (flask/json", "DecimalJSONProvider.response", "JSONProvider.response")),
    ("hostile-input check", ("refuse_hostile_input",)),
    ("access log line", ("Logger.access (gunicorn/glogging", "AccessLogger.access")),
    ("HTTP request parsing (gunicorn)", ("Parser.__next__ (gunicorn/http/parser",)),
    ("Flask / werkzeug: context, routing, hooks, response", ("Flask.wsgi_app", "Flask.__call__")),
    ("gunicorn: response write, thread hand-offs, poll loop", ("gunicorn/",)),
)
OTHER = "other (GC, psycopg housekeeping)"


def prepare(url: str, workdir: Path):
    from .pg_throughput import _prepare
    return _prepare(url, workdir)


def fold(raw: Path) -> Counter:
    """py-spy's collapsed stacks ("frame;frame;... count" lines) → samples per layer."""
    layers: Counter = Counter()
    for line in raw.read_text().splitlines():
        stack, _, count = line.rpartition(" ")
        frames = stack.split(";")
        layer = next((name for name, marks in LAYERS if any(m in f for m in marks for f in frames)), OTHER)
        layers[layer] += int(count)
    return layers


def measure(inst, token: str, *, workers: int, threads: int, clients: int, cases: int, clock: str,
            pythonpath: str | None, name: str, primary: int | None, spy_out: Path | None = None,
            client: str = "lean") -> dict:
    """One server (the checkout on `pythonpath`, else this one), warmed, then `cases` cases from
    `clients` keep-alive clients: cases/s, case p50/p95 and the CPU per case of each group."""
    env = {"TRAMITE_CLOCK": clock}
    if pythonpath:
        env["PYTHONPATH"] = pythonpath
    with server(inst, workers=workers, threads=threads, name=name, env=env) as live:
        conns = [CLIENTS[client](live.port, token) for _ in range(clients)]
        scratch = {"start": [], "list_tasks": [], "complete": [], "read_case": []}
        for c in conns:
            for _ in range(WARMUP):
                http_case(c, scratch)
        pids = live.worker_pids()
        spies = _start_spies(pids, spy_out) if spy_out else []
        timings = {"start": [], "list_tasks": [], "complete": [], "read_case": []}
        whole: list[float] = []
        lock = threading.Lock()

        def one_case(k: int, _i: int) -> None:
            t0 = time.perf_counter()
            http_case(conns[k], timings, lock)
            with lock:
                whole.append(time.perf_counter() - t0)

        shares = CpuShares(pids, primary)
        shares.start()
        seconds, errors = run_clients(clients, one_case, cases // clients)
        cpu = shares.per_case(len(whole))
        for s in spies:
            s.send_signal(2)
        for s in spies:
            s.wait(timeout=60)
        for c in conns:
            c.close()
    return {"cases": len(whole), "cases_s": len(whole) / seconds, "errors": len(errors),
            "p50": pct(whole, 50) * 1000, "p95": pct(whole, 95) * 1000, "cpu": cpu,
            "requests_p50": {k: pct(v, 50) * 1000 for k, v in timings.items()}}


def _start_spies(pids: list[int], out: Path) -> list[subprocess.Popen]:
    spy = shutil.which("py-spy") or str(Path(sys.executable).with_name("py-spy"))
    spies = [subprocess.Popen([spy, "record", "--pid", str(pid), "--format", "raw", "--rate", "250", "--gil",
                               "--output", str(out / f"worker-{pid}.txt"), "--nonblocking"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) for pid in pids]
    time.sleep(1.0)
    return spies


def line(label: str, run: dict) -> str:
    cpu = run["cpu"]
    return (f"{label:<22} {run['cases_s']:6.1f} cases/s  p50/p95 {run['p50']:6.1f}/{run['p95']:6.1f} ms  "
            "CPU ms/case: " + ", ".join(f"{k} {v:.2f}" for k, v in cpu.items())
            + (f"  ERRORS {run['errors']}" if run["errors"] else ""))


def median_run(runs: list[dict]) -> dict:
    """The rounds' medians, field by field."""
    med = {k: statistics.median(r[k] for r in runs) for k in ("cases_s", "p50", "p95")}
    med["cpu"] = {k: statistics.median(r["cpu"][k] for r in runs) for k in runs[0]["cpu"]}
    med["errors"] = sum(r["errors"] for r in runs)
    return med


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.profile_http", description=__doc__.split("\n")[0])
    p.add_argument("--db", default=DEFAULT_DB)
    p.add_argument("--workers", default="1", help="gunicorn workers; a comma-separated list runs each [1]")
    p.add_argument("--threads", type=int, default=4)
    p.add_argument("--client", default="lean", help="the load generator's HTTP client: lean, stdlib, or both "
                   "(alternated in each round) [lean]")
    p.add_argument("--clients", type=int, default=4)
    p.add_argument("--cases", type=int, default=300)
    p.add_argument("--py-spy", action="store_true", help="sample the workers with py-spy (only threads holding the GIL)")
    p.add_argument("--out", default=None, help="folder for the raw py-spy stacks")
    p.add_argument("--server-pythonpath", default=None,
                   help="PYTHONPATH of the server only (another checkout, for a before/after pair)")
    p.add_argument("--before", default=None, metavar="CHECKOUT",
                   help="an older checkout: its server and this one's run alternately on one database")
    p.add_argument("--rounds", type=int, default=1, help="alternations with --before (medians reported) [1]")
    p.add_argument("--clock", default="manual", choices=("manual", "system"),
                   help="the server's TRAMITE_CLOCK [manual, as tests/production/live.py]")
    args = p.parse_args(argv)
    os.chdir(ROOT)
    os.environ.setdefault("TRAMITE_PROCESSES_DIR", str(ROOT / "processes"))
    url = database_url(args.db, "profile")
    # py-spy's stacks are kept (their folder is printed); without --py-spy no folder is made.
    out = Path(args.out or tempfile.mkdtemp(prefix="tramite-py-spy-")) if args.py_spy else None
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
    variants = [("before", args.before), ("after", args.server_pythonpath or str(ROOT))] if args.before \
        else [("server", args.server_pythonpath)]
    kinds = ["lean", "stdlib"] if args.client == "both" else [args.client]
    results: dict = {}
    with tempfile.TemporaryDirectory(prefix="tramite-profile-") as tmp:
        inst = prepare(url, Path(tmp))
        token = inst.tokens(USERNAME)[USERNAME]
        primary = postmaster_of(make_url(url).port)
        try:
            for workers in [int(w) for w in args.workers.split(",")]:
                for round_ in range(args.rounds):
                    for (variant, path), client in itertools.product(variants, kinds):
                        label = f"{variant} {client}" if len(kinds) > 1 else variant
                        run = measure(inst, token, workers=workers, threads=args.threads, clients=args.clients,
                                      cases=args.cases, clock=args.clock, pythonpath=path,
                                      name=f"{label.replace(' ', '-')}-w{workers}-r{round_}", primary=primary,
                                      spy_out=out, client=client)
                        results.setdefault((workers, label), []).append(run)
                        log(line(f"w{workers} {label} r{round_ + 1}", run))
        finally:
            inst.close()
            drop_database(url)
    log(f"--- medians of {args.rounds} round(s), {args.clients} clients, {args.cases} cases per run, "
        f"load now {' / '.join(Path('/proc/loadavg').read_text().split()[:3])}")
    for (workers, label), runs in results.items():
        log(line(f"w{workers} {label}", median_run(runs)))
    for path in sorted(out.glob("worker-*.txt")) if out is not None else ():
        layers = fold(path)
        total = sum(layers.values()) or 1
        log(f"--- {path.name}: {total} samples of the thread holding the GIL")
        for name in [n for n, _ in LAYERS] + [OTHER]:
            log(f"  {name:<58} {layers[name] / total * 100:5.1f}%")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
