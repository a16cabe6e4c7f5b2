"""(d): the same flow over HTTP against a live `tramite serve`, one and several clients."""
from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time

from contextlib import contextmanager
from pathlib import Path

from .common import ROOT, PASSWORD, USERNAME, WARMUP, HTTP_THREADS, pct, run_clients
from .diagram import COMPLETE_DATA, KEY
from .http_client import Client, HttpError
from .engine_cases import _copy_catalogues, build_engine

def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def live_server(workdir: Path):
    """Seed a fresh SQLite database here, then run `tramite serve` on it; yields (port, log path)."""
    from engine.kernel.engine import Engine  # noqa: F401 - imported for the side effect of a clear error early

    data_dir, processes_dir = workdir / "data", workdir / "processes"
    data_dir.mkdir(parents=True, exist_ok=True)
    _copy_catalogues(processes_dir)
    eng, url = build_engine(data_dir, user=True)
    eng.db.dispose()

    port = free_port()
    env = {**os.environ, "TRAMITE_DATABASE_URL": url, "TRAMITE_DATA_DIR": str(data_dir),
           "TRAMITE_PROCESSES_DIR": str(processes_dir), "TRAMITE_SECRET_KEY": "bench-secret",
           "TRAMITE_CLOCK": "system", "PYTHONUNBUFFERED": "1"}
    server_log = workdir / "serve.log"
    # `tramite serve` as the README starts it (gthread, its access log on, here into the log file),
    # not a bench-only gunicorn: what users run is what is measured (issue 21).
    tramite = Path(sys.executable).with_name("tramite")
    cmd = [*([str(tramite)] if tramite.exists() else [sys.executable, "-m", "api.cli"]), "serve",
           "--host", "127.0.0.1", "--port", str(port), "--workers", "1", "--threads", str(HTTP_THREADS),
           "--no-timer-worker"]
    with open(server_log, "wb") as out:
        proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 30
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"tramite serve exited with {proc.returncode}:\n{server_log.read_text()[-3000:]}")
            try:
                probe = Client(port)
                health = probe.request("GET", "/healthz", expect=(200,))
                probe.close()
                if health.get("status") == "ok":
                    break
            except (OSError, HttpError):
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"tramite serve not healthy after 30 s:\n{server_log.read_text()[-3000:]}")
            time.sleep(0.1)
        yield port, server_log
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def http_case(client: Client, timings: dict[str, list[float]], lock: threading.Lock | None = None) -> None:
    def timed(kind, method, path, body=None):
        t0 = time.perf_counter()
        result = client.request(method, path, body)
        elapsed = time.perf_counter() - t0
        if lock:
            with lock:
                timings[kind].append(elapsed)
        else:
            timings[kind].append(elapsed)
        return result

    case = timed("start", "POST", f"/api/v1/processes/{KEY}/instances", {"variables": {}})
    tasks = timed("list_tasks", "GET", f"/api/v1/tasks?instance={case['id']}")
    (task,) = tasks
    timed("complete", "POST", f"/api/v1/tasks/{task['id']}/complete", {"data": dict(COMPLETE_DATA)})
    final = timed("read_case", "GET", f"/api/v1/instances/{case['id']}")
    assert final["status"] == "completed", final


def _new_timings() -> dict[str, list[float]]:
    return {"start": [], "list_tasks": [], "complete": [], "read_case": []}


def bench_http(n: int, workdir: Path) -> dict:
    with live_server(workdir) as (port, server_log):
        login = Client(port)
        token = login.request("POST", "/api/v1/auth/token", {"username": USERNAME, "password": PASSWORD})["token"]
        login.close()

        # single client, sequential
        client = Client(port, token)
        scratch = _new_timings()
        for _ in range(WARMUP):
            http_case(client, scratch)
        seq = _new_timings()
        started = time.perf_counter()
        for _ in range(n):
            http_case(client, seq)
        seq_elapsed = time.perf_counter() - started
        client.close()

        # HTTP_THREADS concurrent clients, n cases in all
        conc = _new_timings()
        lock = threading.Lock()
        shares = [n // HTTP_THREADS + (1 if i < n % HTTP_THREADS else 0) for i in range(HTTP_THREADS)]
        clients = [Client(port, token) for _ in shares]
        try:
            conc_elapsed, errors = run_clients(len(shares), lambda k, _i: http_case(clients[k], conc, lock),
                                               shares)
        finally:
            for c in clients:
                c.close()
        ok = n - len(errors)

    def lat(t):
        return {k: (pct(v, 50), pct(v, 95)) for k, v in t.items()}
    return {"seq": {"cases": n, "seconds": seq_elapsed, "cases_s": n / seq_elapsed, "latency": lat(seq)},
            "conc": {"cases": ok, "seconds": conc_elapsed, "cases_s": ok / conc_elapsed, "latency": lat(conc),
                     "errors": errors}}
