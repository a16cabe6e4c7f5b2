"""Throughput benchmark (not a test): raw SpiffWorkflow against Tramite's engine and HTTP API.

    cd /work/main && .venv/bin/python -m bench.engine [--cases N] [--raw-cases N] [--engine-cases N]
                                                      [--http-cases N] [--loop-rounds N] [--no-http]

(a) raw SpiffWorkflow in memory; (b) the same with a JSON save/load (stock serializer) after start
and after completion; (c) Tramite's engine commands on SQLite, start + complete with full audit;
(d) the same flow over HTTP against a live gunicorn server (1 process, gthread, 4 threads), with
one client and with 4 concurrent clients; and the cost of one completion after 10, 100 and 1,000
earlier completions in one looping case. One diagram (bench/diagram.py) for (a)-(d).

Prints a table and writes it as Markdown to bench/RESULTS.md.
"""
from __future__ import annotations

import argparse
import http.client
import json
import os
import platform
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from contextlib import contextmanager
from datetime import datetime, timezone
from pathlib import Path

from SpiffWorkflow.bpmn.serializer.workflow import BpmnWorkflowSerializer
from SpiffWorkflow.bpmn.workflow import BpmnWorkflow
from SpiffWorkflow.spiff.parser.process import SpiffBpmnParser
from SpiffWorkflow.spiff.serializer.config import SPIFF_CONFIG
from SpiffWorkflow.util.task import TaskState

from .diagram import COMPLETE_DATA, KEY, ROLE, bench_files, bench_xml, loop_files

ROOT = Path(__file__).resolve().parent.parent
RESULTS = Path(__file__).resolve().parent / "RESULTS.md"
PASSWORD = "bench-secreto-123"
USERNAME = "bench_user"
LOOP_KEY, LOOP_ROLE = "test_loop", "test_clerk"
LOOP_WINDOWS = {10: (6, 15), 100: (96, 105), 1000: (991, 1000)}  # 1-based completion numbers
WARMUP = 10
HTTP_THREADS = 4

# Targets from the issue (item 10).
TARGET_C_OVER_B = 0.50
TARGET_HTTP_CASES_S = 100.0
TARGET_LOOP_RATIO = 2.0


def log(msg: str) -> None:
    print(msg, flush=True)


def pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    k = (len(ordered) - 1) * p / 100
    lo, hi = int(k), min(int(k) + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (k - lo)


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f} ms"


# ------------------------------------------------------------------------------------------
# (a) and (b): raw SpiffWorkflow
# ------------------------------------------------------------------------------------------
def parse_spec(xml: str, pid: str):
    parser = SpiffBpmnParser()
    parser.add_bpmn_str(xml.encode("utf-8"))
    return parser.get_spec(pid)


def _ready_user_task(wf):
    ready = wf.get_tasks(state=TaskState.READY, manual=True)
    return ready[0] if ready else None


def raw_case(spec, serializer=None) -> None:
    wf = BpmnWorkflow(spec)
    wf.do_engine_steps()
    if serializer is not None:
        wf = serializer.deserialize_json(serializer.serialize_json(wf))
    task = _ready_user_task(wf)
    task.data.update(COMPLETE_DATA)
    task.run()
    wf.do_engine_steps()
    if serializer is not None:
        wf = serializer.deserialize_json(serializer.serialize_json(wf))
    assert wf.is_completed() and wf.data.get("outcome") == "APPROVED", wf.data


def bench_raw(n: int, with_json: bool) -> dict:
    spec = parse_spec(bench_xml(), KEY)
    serializer = BpmnWorkflowSerializer(BpmnWorkflowSerializer.configure(SPIFF_CONFIG)) if with_json else None
    for _ in range(WARMUP):
        raw_case(spec, serializer)
    started = time.perf_counter()
    for _ in range(n):
        raw_case(spec, serializer)
    elapsed = time.perf_counter() - started
    return {"cases": n, "seconds": elapsed, "cases_s": n / elapsed}


# ------------------------------------------------------------------------------------------
# (c): Tramite's engine commands on SQLite
# ------------------------------------------------------------------------------------------
def _copy_catalogues(target: Path) -> None:
    target.mkdir(parents=True, exist_ok=True)
    for name in ("roles.json", "parameters.json"):
        shutil.copy(ROOT / "processes" / name, target / name)


def build_engine(workdir: Path, *, user: bool = False, loop: bool = False):
    """A fresh SQLite database: migrations, seed, role bench_clerk, the bench diagram deployed."""
    from engine import accounts
    from engine.bootstrap import prepare
    from engine.commands.deploy import deploy
    from engine.context import SYSTEM
    from engine.core import Engine

    url = f"sqlite:///{workdir / 'tramite.db'}"
    eng = Engine(url)
    eng.db.upgrade()
    prepare(eng, upgrade=False)

    def seed(ctx):
        accounts.add_role(ctx, ROLE, "Oficinista (banco de pruebas)", "Bench clerk")
        if loop:
            accounts.add_role(ctx, LOOP_ROLE, "Oficinista de prueba", "Test clerk")
        if user:
            accounts.create_user(ctx, USERNAME, PASSWORD, [ROLE], full_name="Bench User")
    eng.execute(seed, SYSTEM)
    eng.execute(deploy, SYSTEM, KEY, bench_files())
    if loop:
        eng.execute(deploy, SYSTEM, LOOP_KEY, loop_files())
    return eng, url


def engine_case(eng, actor, timings: dict | None = None) -> None:
    from engine.commands.cases import start_case
    from engine.commands.tasks import complete

    t0 = time.perf_counter()
    case = eng.execute(start_case, actor, KEY, {})
    t1 = time.perf_counter()
    (task,) = case["open_tasks"]
    result = eng.execute(complete, actor, task["id"], dict(COMPLETE_DATA))
    t2 = time.perf_counter()
    assert result["instance"]["status"] == "completed", result["instance"]
    if timings is not None:
        timings["start"].append(t1 - t0)
        timings["complete"].append(t2 - t1)


def bench_engine(n: int, workdir: Path) -> dict:
    from engine.context import Actor

    eng, _ = build_engine(workdir)
    actor = Actor("bench", frozenset({ROLE}))
    try:
        for _ in range(WARMUP):
            engine_case(eng, actor)
        timings = {"start": [], "complete": []}
        started = time.perf_counter()
        for _ in range(n):
            engine_case(eng, actor, timings)
        elapsed = time.perf_counter() - started
    finally:
        eng.db.dispose()
    return {"cases": n, "seconds": elapsed, "cases_s": n / elapsed,
            "latency": {k: (pct(v, 50), pct(v, 95)) for k, v in timings.items()}}


# ------------------------------------------------------------------------------------------
# Loop cost: one case completing its user task many times
# ------------------------------------------------------------------------------------------
def _window_medians(costs: list[float]) -> dict[int, float | None]:
    out = {}
    for label, (first, last) in LOOP_WINDOWS.items():
        window = costs[first - 1:last]
        out[label] = statistics.median(window) if len(window) == last - first + 1 else None
    return out


def bench_loop_engine(rounds: int, workdir: Path) -> dict:
    from engine.commands.cases import start_case
    from engine.commands.tasks import complete
    from engine.context import Actor

    eng, _ = build_engine(workdir, loop=True)
    actor = Actor("bench_looper", frozenset({LOOP_ROLE}))
    costs: list[float] = []
    try:
        # A short warm-up case first, so that cost@10 is not paid for cold caches (specs, SQL compilation).
        warm = eng.execute(start_case, actor, LOOP_KEY, {"rounds": 0})
        for round_no in range(1, WARMUP + 1):
            warm = eng.execute(complete, actor, warm["open_tasks"][0]["id"], {"done": round_no == WARMUP})["instance"]
        case = eng.execute(start_case, actor, LOOP_KEY, {"rounds": 0})
        started = time.perf_counter()
        for round_no in range(1, rounds + 1):
            (task,) = case["open_tasks"]
            t0 = time.perf_counter()
            result = eng.execute(complete, actor, task["id"], {"done": round_no == rounds})
            costs.append(time.perf_counter() - t0)
            case = result["instance"]
        elapsed = time.perf_counter() - started
    finally:
        eng.db.dispose()
    assert case["status"] == "completed" and case["variables"]["rounds"] == rounds, case["status"]
    return {"rounds": rounds, "seconds": elapsed, "medians": _window_medians(costs)}


def bench_loop_raw(rounds: int, budget_s: float) -> dict:
    """Raw SpiffWorkflow in memory, no pruning: stops at the depth trap or when the budget is spent."""
    spec = parse_spec(loop_files()["loop.bpmn"], LOOP_KEY)
    wf = BpmnWorkflow(spec)
    wf.task_tree.data.update({"rounds": 0})
    wf.do_engine_steps()
    costs: list[float] = []
    stopped = None
    started = time.perf_counter()
    for round_no in range(1, rounds + 1):
        try:
            task = _ready_user_task(wf)
            if task is None:
                stopped = (round_no, f"no READY user task (is_completed()={wf.is_completed()}): depth trap")
                break
            t0 = time.perf_counter()
            task.data.update({"done": round_no == rounds})
            task.run()
            wf.do_engine_steps()
            # include finding the next task, as the engine does
            _ready_user_task(wf)
            costs.append(time.perf_counter() - t0)
        except Exception as exc:  # noqa: BLE001 - the library's failure is what we report
            stopped = (round_no, f"{type(exc).__name__}: {str(exc).splitlines()[0][:80]}")
            break
        if time.perf_counter() - started > budget_s:
            stopped = (round_no + 1, f"time budget of {budget_s:.0f} s spent")
            break
    return {"completed": len(costs), "seconds": time.perf_counter() - started, "stopped": stopped,
            "medians": _window_medians(costs), "tasks": len(wf.tasks)}


# ------------------------------------------------------------------------------------------
# (d): HTTP against a live gunicorn server
# ------------------------------------------------------------------------------------------
def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class HttpError(Exception):
    def __init__(self, status: int, body: bytes, method: str, path: str):
        super().__init__(f"{method} {path} -> {status}: {body[:300]!r}")
        self.status = status


class Client:
    """One keep-alive connection (http.client), JSON in and out, a bearer token."""

    def __init__(self, port: int, token: str | None = None):
        self.port = port
        self.token = token
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)

    def request(self, method: str, path: str, body=None, expect=(200, 201)):
        payload = None if body is None else json.dumps(body).encode()
        headers = {"Accept": "application/json"}
        if payload is not None:
            headers["Content-Type"] = "application/json"
        if self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        for attempt in (1, 2):
            try:
                self.conn.request(method, path, body=payload, headers=headers)
                response = self.conn.getresponse()
                data = response.read()
                break
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
                # The server closed an idle keep-alive connection: reconnect once.
                self.conn.close()
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
                if attempt == 2:
                    raise
        if response.status not in expect:
            raise HttpError(response.status, data, method, path)
        return json.loads(data) if data else None

    def close(self) -> None:
        self.conn.close()


@contextmanager
def live_server(workdir: Path):
    """Seed a fresh SQLite database here, then run gunicorn on it; yields (port, log path)."""
    from engine.core import Engine  # noqa: F401 - imported for the side effect of a clear error early

    data_dir, processes_dir = workdir / "data", workdir / "processes"
    data_dir.mkdir(parents=True, exist_ok=True)
    _copy_catalogues(processes_dir)
    eng, url = build_engine(data_dir, user=True)
    eng.db.dispose()

    port = free_port()
    env = {**os.environ, "TRAMITE_DATABASE_URL": url, "TRAMITE_DATA_DIR": str(data_dir),
           "TRAMITE_PROCESSES_DIR": str(processes_dir), "TRAMITE_SECRET_KEY": "bench-secret",
           "TRAMITE_CLOCK": "system", "PYTHONUNBUFFERED": "1"}
    server_log = workdir / "gunicorn.log"
    gunicorn = ROOT / ".venv" / "bin" / "gunicorn"
    cmd = [str(gunicorn), "-w", "1", "-k", "gthread", "--threads", str(HTTP_THREADS),
           "-b", f"127.0.0.1:{port}", "--no-control-socket", "--log-level", "warning",
           "api.wsgi:application()"]
    with open(server_log, "wb") as out:
        proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 30
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"gunicorn exited with {proc.returncode}:\n{server_log.read_text()[-3000:]}")
            try:
                probe = Client(port)
                health = probe.request("GET", "/healthz", expect=(200,))
                probe.close()
                if health.get("status") == "ok":
                    break
            except (OSError, HttpError):
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"gunicorn not healthy after 30 s:\n{server_log.read_text()[-3000:]}")
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
        errors: list[str] = []
        shares = [n // HTTP_THREADS + (1 if i < n % HTTP_THREADS else 0) for i in range(HTTP_THREADS)]
        barrier = threading.Barrier(HTTP_THREADS + 1)

        def worker(count: int) -> None:
            c = Client(port, token)
            try:
                barrier.wait()
                for _ in range(count):
                    try:
                        http_case(c, conc, lock)
                    except (HttpError, AssertionError, ValueError) as exc:
                        with lock:
                            errors.append(str(exc)[:300])
            finally:
                c.close()

        threads = [threading.Thread(target=worker, args=(k,)) for k in shares]
        for t in threads:
            t.start()
        barrier.wait()
        started = time.perf_counter()
        for t in threads:
            t.join()
        conc_elapsed = time.perf_counter() - started
        ok = n - len(errors)

    def lat(t):
        return {k: (pct(v, 50), pct(v, 95)) for k, v in t.items()}
    return {"seq": {"cases": n, "seconds": seq_elapsed, "cases_s": n / seq_elapsed, "latency": lat(seq)},
            "conc": {"cases": ok, "seconds": conc_elapsed, "cases_s": ok / conc_elapsed, "latency": lat(conc),
                     "errors": errors}}


# ------------------------------------------------------------------------------------------
# Report
# ------------------------------------------------------------------------------------------
def verdict(ok: bool | None) -> str:
    return "n/a" if ok is None else ("PASS" if ok else "FAIL")


def build_report(args, r: dict, total_s: float, command: str) -> tuple[str, str]:
    """(plain text table, Markdown document)."""
    rows: list[tuple[str, str, str, str]] = []  # measurement, result, target, verdict
    a, b, c = r["a"], r["b"], r["c"]
    rows.append(("(a) raw SpiffWorkflow, in memory", f"{a['cases_s']:.0f} cases/s ({a['cases']} cases)", "", ""))
    rows.append(("(b) raw SpiffWorkflow + JSON save/load x2", f"{b['cases_s']:.0f} cases/s ({b['cases']} cases)",
                 "", ""))
    rows.append(("(c) Tramite engine commands, SQLite, full audit",
                 f"{c['cases_s']:.0f} cases/s ({c['cases']} cases)", "", ""))
    ratio_cb = c["cases_s"] / b["cases_s"]
    rows.append(("(c) / (b)", f"{ratio_cb:.0%}", f">= {TARGET_C_OVER_B:.0%}", verdict(ratio_cb >= TARGET_C_OVER_B)))
    rows.append(("(c) / (a)", f"{c['cases_s'] / a['cases_s']:.0%}", "", ""))
    d = r.get("d")
    if d:
        seq, conc = d["seq"], d["conc"]
        rows.append(("(d) HTTP, live gunicorn 1 worker, 1 client",
                     f"{seq['cases_s']:.1f} cases/s ({seq['cases']} cases)", f">= {TARGET_HTTP_CASES_S:.0f} cases/s",
                     verdict(seq["cases_s"] >= TARGET_HTTP_CASES_S)))
        errs = f", {len(conc['errors'])} failed" if conc["errors"] else ""
        rows.append((f"(d) HTTP, live gunicorn 1 worker, {HTTP_THREADS} clients",
                     f"{conc['cases_s']:.1f} cases/s ({conc['cases']} cases{errs})",
                     f">= {TARGET_HTTP_CASES_S:.0f} cases/s",
                     verdict(conc["cases_s"] >= TARGET_HTTP_CASES_S and not conc["errors"])))
    else:
        rows.append(("(d) HTTP", "skipped (--no-http)", "", "n/a"))
    le = r["loop_engine"]
    m = le["medians"]
    loop_ratio = m[1000] / m[10] if m.get(1000) and m.get(10) else None
    rows.append(("loop, engine: cost of a completion @10 / @100 / @1000",
                 " / ".join(ms(m[k]) if m[k] else "-" for k in (10, 100, 1000)), "", ""))
    rows.append(("loop, engine: cost@1000 / cost@10",
                 f"{loop_ratio:.2f}x" if loop_ratio else "-", f"<= {TARGET_LOOP_RATIO:.0f}x",
                 verdict(loop_ratio <= TARGET_LOOP_RATIO if loop_ratio else None)))
    lr = r.get("loop_raw")
    if lr:
        mr = lr["medians"]
        result = " / ".join(ms(mr[k]) if mr[k] else "-" for k in (10, 100, 1000))
        if lr["stopped"]:
            result += f"; stopped at round {lr['stopped'][0]} ({lr['stopped'][1]})"
        rows.append(("loop, raw SpiffWorkflow in memory, no pruning: @10 / @100 / @1000", result, "", ""))

    widths = [max(len(row[i]) for row in rows + [("measurement", "result", "target", "verdict")]) for i in range(4)]
    header = ("measurement", "result", "target", "verdict")
    line = "  ".join("-" * w for w in widths)
    text = [line, "  ".join(h.ljust(w) for h, w in zip(header, widths)), line]
    text += ["  ".join(v.ljust(w) for v, w in zip(row, widths)) for row in rows]
    text.append(line)

    lat_rows = [("(c) engine, start_case", *c["latency"]["start"]), ("(c) engine, complete", *c["latency"]["complete"])]
    if d:
        for label, part in (("1 client", d["seq"]), (f"{HTTP_THREADS} clients", d["conc"])):
            for kind, (p50, p95) in part["latency"].items():
                lat_rows.append((f"(d) {label}, {kind}", p50, p95))
    text.append("")
    text.append("latency per request type            p50        p95")
    text += [f"  {name:<34}{ms(p50):>10} {ms(p95):>10}" for name, p50, p95 in lat_rows]
    if d and d["conc"]["errors"]:
        text.append("")
        text.append(f"concurrent HTTP errors ({len(d['conc']['errors'])}), first: {d['conc']['errors'][0]}")

    now = datetime.now(timezone.utc).astimezone()
    import SpiffWorkflow
    import sqlalchemy
    spiff_version = getattr(SpiffWorkflow, "__version__", None)
    if spiff_version is None:
        from importlib.metadata import version
        spiff_version = version("SpiffWorkflow")
    md = [
        "# Benchmark results",
        "",
        f"- date: {now:%Y-%m-%d %H:%M %Z}",
        f"- machine: {os.cpu_count()} CPUs (nproc {len(os.sched_getaffinity(0))}), {platform.machine()}, "
        f"{platform.system()} {platform.release()}",
        f"- Python {platform.python_version()}, SpiffWorkflow {spiff_version}, SQLAlchemy {sqlalchemy.__version__}",
        f"- command: `{command}`",
        f"- whole run: {total_s:.0f} s",
        "- diagram (all four measurements): start → script → exclusive gateway → user task (lane "
        "`bench_clerk`) → script → end (`bench/diagram.py`); loop: `tests/diagrams/loop.bpmn`",
        f"- (d): gunicorn `-w 1 -k gthread --threads {HTTP_THREADS}` on SQLite; one case = POST instances, "
        "GET tasks?instance=, POST tasks/<id>/complete, GET instances/<id>; http.client keep-alive",
        "",
        "| measurement | result | target | verdict |",
        "|---|---|---|---|",
        *[f"| {m_} | {res} | {tgt} | {v} |" for m_, res, tgt, v in rows],
        "",
        "| latency per request type | p50 | p95 |",
        "|---|---|---|",
        *[f"| {name} | {ms(p50)} | {ms(p95)} |" for name, p50, p95 in lat_rows],
        "",
    ]
    if d and d["conc"]["errors"]:
        md += [f"Concurrent HTTP errors: {len(d['conc']['errors'])}; first: `{d['conc']['errors'][0]}`", ""]
    return "\n".join(text), "\n".join(md)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.engine", description=__doc__.split("\n")[0])
    parser.add_argument("--cases", type=int, default=None,
                        help="cases for every throughput measurement (overrides the three below)")
    parser.add_argument("--raw-cases", type=int, default=300, help="cases for (a) and (b) [300]")
    parser.add_argument("--engine-cases", type=int, default=200, help="cases for (c) [200]")
    parser.add_argument("--http-cases", type=int, default=200, help="cases for (d), per client mode [200]")
    parser.add_argument("--loop-rounds", type=int, default=1000, help="completions in the loop case [1000]")
    parser.add_argument("--raw-loop-budget", type=float, default=20.0,
                        help="seconds allowed for the raw SpiffWorkflow loop [20]")
    parser.add_argument("--no-http", action="store_true", help="skip (d)")
    parser.add_argument("--no-write", action="store_true", help="do not write bench/RESULTS.md")
    args = parser.parse_args(argv)
    if args.cases:
        args.raw_cases = args.engine_cases = args.http_cases = args.cases
    command = "cd /work/main && .venv/bin/python -m bench.engine" + (" " + " ".join(argv if argv is not None
                                                                                    else sys.argv[1:])).rstrip()

    os.chdir(ROOT)
    total_started = time.perf_counter()
    results: dict = {}
    with tempfile.TemporaryDirectory(prefix="tramite-bench-") as tmp:
        tmp = Path(tmp)
        # The engine reads roles.json / parameters.json from TRAMITE_PROCESSES_DIR: a copy, nothing deployed.
        _copy_catalogues(tmp / "processes")
        os.environ["TRAMITE_PROCESSES_DIR"] = str(tmp / "processes")
        os.environ.setdefault("TRAMITE_DATA_DIR", str(tmp / "data"))

        log(f"(a) raw SpiffWorkflow in memory, {args.raw_cases} cases ...")
        results["a"] = bench_raw(args.raw_cases, with_json=False)
        log(f"    {results['a']['cases_s']:.0f} cases/s")
        log(f"(b) raw SpiffWorkflow + JSON save/load, {args.raw_cases} cases ...")
        results["b"] = bench_raw(args.raw_cases, with_json=True)
        log(f"    {results['b']['cases_s']:.0f} cases/s")
        log(f"(c) Tramite engine commands on SQLite, {args.engine_cases} cases ...")
        (tmp / "c").mkdir()
        results["c"] = bench_engine(args.engine_cases, tmp / "c")
        log(f"    {results['c']['cases_s']:.0f} cases/s")
        log(f"loop, engine commands, {args.loop_rounds} completions in one case ...")
        (tmp / "loop").mkdir()
        results["loop_engine"] = bench_loop_engine(args.loop_rounds, tmp / "loop")
        log(f"    {results['loop_engine']['seconds']:.1f} s")
        log(f"loop, raw SpiffWorkflow in memory (budget {args.raw_loop_budget:.0f} s) ...")
        results["loop_raw"] = bench_loop_raw(args.loop_rounds, args.raw_loop_budget)
        log(f"    {results['loop_raw']['completed']} completions in {results['loop_raw']['seconds']:.1f} s")
        if not args.no_http:
            log(f"(d) HTTP against gunicorn, {args.http_cases} cases x (1 client, {HTTP_THREADS} clients) ...")
            (tmp / "d").mkdir()
            results["d"] = bench_http(args.http_cases, tmp / "d")
            log(f"    {results['d']['seq']['cases_s']:.1f} / {results['d']['conc']['cases_s']:.1f} cases/s")
    total = time.perf_counter() - total_started
    text, md = build_report(args, results, total, command)
    print()
    print(text)
    print(f"\nwhole run: {total:.0f} s")
    if not args.no_write:
        RESULTS.write_text(md, encoding="utf-8")
        print(f"written to {RESULTS.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
