"""Where the HTTP server's CPU goes per case (issue 21; a tool, not a test): `tramite serve` as the
README starts it (gthread, access log on) on PostgreSQL, the bench's four-request case from N
clients, the worker processes' CPU time read from /proc before and after, and, when py-spy is
installed, a sampling profile of the workers folded by request type and by layer.

    .venv/bin/python -m bench.profile_http --db postgresql+psycopg://tramite:tramite@127.0.0.1:5432/tramite_bench \\
        [--workers 1] [--threads 4] [--clients 4] [--cases 300] [--py-spy] [--out /tmp/profile]
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
# A sampled stack is charged to the first of these it holds, outermost first (what the request was)...
REQUESTS = (("start", "instances.py:start"), ("list_tasks", "tasks.py:list_tasks"),
            ("complete", "tasks.py:complete"), ("read_case", "instances.py:get_instance"))
# ... and to the innermost of these layers (where its time went).
LAYERS = (
    ("gunicorn (parse, access log, socket)", ("gunicorn/",)),
    ("werkzeug / flask dispatch", ("werkzeug/", "flask/app.py", "flask/ctx.py", "flask/wrappers.py")),
    ("flask-smorest / marshmallow (arguments)", ("flask_smorest/", "marshmallow/", "webargs/")),
    ("JSON", ("json/", "flask/json/")),
    ("auth (token check)", ("auth.py:authenticate_request", "identity/accounts.py")),
    ("hostile-input check", ("hostile_input.py",)),
    ("headers", ("headers.py",)),
    ("SpiffWorkflow", ("SpiffWorkflow/",)),
    ("SQLAlchemy", ("sqlalchemy/",)),
    ("psycopg / waiting on PostgreSQL", ("psycopg/", "psycopg_binary", "psycopg_pool")),
    ("engine (Tramite)", ("engine/",)),
)


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS  # utime + stime


def prepare(url: str, workdir: Path):
    from .pg_throughput import _prepare
    return _prepare(url, workdir)


def fold(raw: Path) -> dict:
    """py-spy's collapsed stacks → samples per request type, and per layer within each; the engine's
    own commands (Engine.execute: start_case, complete) are one bucket, kept apart from the HTTP layer."""
    per_request: Counter = Counter()
    per_layer: dict[str, Counter] = {}
    for line in raw.read_text().splitlines():
        stack, _, count = line.rpartition(" ")
        n = int(count)
        frames = stack.split(";")
        kind = next((k for k, mark in REQUESTS if any(_frame_is(f, mark) for f in frames)), None)
        if kind is None:
            kind = "outside a view (gunicorn, Flask, hooks)" if any("gunicorn" in f for f in frames) else "other"
        per_request[kind] += n
        if any(_frame_is(f, "engine.py:Engine.execute") for f in frames):
            layer = "engine command (Engine.execute)"
        else:
            layer = "other"
            for frame in reversed(frames):
                hit = next((name for name, marks in LAYERS if any(m in frame for m in marks)), None)
                if hit:
                    layer = hit
                    break
        per_layer.setdefault(kind, Counter())[layer] += n
    return {"requests": per_request, "layers": per_layer}


def _frame_is(frame: str, mark: str) -> bool:
    # py-spy frames read "function (path/file.py:line)"; mark is "file.py:function"
    name, _, where = frame.partition(" (")
    return f"{where.split(':')[0].rsplit('/', 1)[-1]}:{name}" == mark


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
        folded = fold(path)
        total = sum(folded["requests"].values())
        engine_share = sum(c["engine command (Engine.execute)"] for c in folded["layers"].values()) / max(total, 1)
        log(f"--- {path.name}: {total} samples holding the GIL; engine commands {engine_share:.0%}, "
            f"the rest {(1 - engine_share) * used / max(done, 1) * 1000:.1f} ms of the CPU per case")
        for kind, n in folded["requests"].most_common():
            log(f"  {kind:<50} {n / total * 100:5.1f}%")
            for layer, m in folded["layers"][kind].most_common():
                if m / total >= 0.002:
                    log(f"      {layer:<46} {m / total * 100:5.1f}%")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
