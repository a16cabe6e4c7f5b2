"""Where the HTTP server's CPU goes per case (issue 21; a tool, not a test): `tramite serve` as the
README starts it (gthread, access log on) on PostgreSQL, the bench's four-request case from N
clients, the worker processes' CPU time read from /proc before and after, and, when py-spy is
installed, a sampling profile of the workers (the thread holding the GIL) folded by layer.

    .venv/bin/python -m bench.profile_http --db postgresql+psycopg://tramite:tramite@127.0.0.1:5432/tramite_bench \\
        [--workers 1] [--threads 4] [--clients 4] [--cases 300] [--clock system] [--py-spy] [--out /tmp/profile]
        [--server-pythonpath /path/to/another/checkout]   # the server from another commit: a before/after pair
"""
from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

from .common import ROOT, USERNAME, WARMUP, log, run_clients
from .http_flow import Client, http_case
from .pg_common import DEFAULT_DB, database_url, drop_database, server

TICKS = os.sysconf("SC_CLK_TCK")
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


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS  # utime + stime


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


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.profile_http", description=__doc__.split("\n")[0])
    p.add_argument("--db", default=DEFAULT_DB)
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--threads", type=int, default=4)
    p.add_argument("--clients", type=int, default=4)
    p.add_argument("--cases", type=int, default=300)
    p.add_argument("--py-spy", action="store_true", help="sample the workers with py-spy (only threads holding the GIL)")
    p.add_argument("--out", default=None, help="folder for the raw py-spy stacks")
    p.add_argument("--server-pythonpath", default=None,
                   help="PYTHONPATH of the server only (another checkout, for a before/after pair)")
    p.add_argument("--clock", default="manual", choices=("manual", "system"),
                   help="the server's TRAMITE_CLOCK [manual, as tests/production/live.py]")
    args = p.parse_args(argv)
    os.chdir(ROOT)
    os.environ.setdefault("TRAMITE_PROCESSES_DIR", str(ROOT / "processes"))
    url = database_url(args.db, "profile")
    out = Path(args.out or tempfile.mkdtemp(prefix="tramite-profile-"))
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="tramite-profile-") as tmp:
        inst = prepare(url, Path(tmp))
        if args.server_pythonpath:
            os.environ["PYTHONPATH"] = args.server_pythonpath
        token = inst.tokens(USERNAME)[USERNAME]
        try:
            with server(inst, workers=args.workers, threads=args.threads, name="profile",
                        env={"TRAMITE_CLOCK": args.clock}) as live:
                conns = [Client(live.port, token) for _ in range(args.clients)]
                scratch = {"start": [], "list_tasks": [], "complete": [], "read_case": []}
                for c in conns:
                    for _ in range(WARMUP):
                        http_case(c, scratch)
                pids = live.worker_pids()
                spies = []
                if args.py_spy:
                    spy = shutil.which("py-spy") or str(Path(sys.executable).with_name("py-spy"))
                    for pid in pids:
                        spies.append(subprocess.Popen(
                            [spy, "record", "--pid", str(pid), "--format", "raw", "--rate", "250", "--gil",
                             "--output", str(out / f"worker-{pid}.txt"), "--nonblocking"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
                    time.sleep(1.0)
                before = {pid: cpu_seconds(pid) for pid in pids}
                timings = {"start": [], "list_tasks": [], "complete": [], "read_case": []}
                lock = threading.Lock()
                seconds, errors = run_clients(args.clients, lambda k, _i: http_case(conns[k], timings, lock),
                                              args.cases // args.clients)
                used = sum(cpu_seconds(pid) - before[pid] for pid in pids)
                for s in spies:
                    s.send_signal(2)
                for s in spies:
                    s.wait(timeout=60)
                for c in conns:
                    c.close()
                done = len(timings["read_case"])
        finally:
            inst.close()
            drop_database(url)
    log(f"{done} cases in {seconds:.1f} s = {done / seconds:.1f} cases/s, errors {len(errors)}; "
        f"workers' CPU {used:.1f} s = {used / max(done, 1) * 1000:.1f} ms per case")
    for path in sorted(out.glob("worker-*.txt")):
        layers = fold(path)
        total = sum(layers.values()) or 1
        log(f"--- {path.name}: {total} samples of the thread holding the GIL")
        for name in [n for n, _ in LAYERS] + [OTHER]:
            log(f"  {name:<58} {layers[name] / total * 100:5.1f}%")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
