"""Where the time goes in (c) and (d): cProfile around the benchmark's cases.

    cd /work/main && .venv/bin/python -m bench.profile_engine [c|d|both] [--cases N] [--top N]

(c) profiles the engine commands in-process (same as bench.engine's (c)).
(d) profiles the server side of the HTTP flow in-process: the same Flask app gunicorn serves
    (create_app(bootstrap=False)) driven through Flask's test client, so only gunicorn's socket
    handling is missing. Prints the top functions by cumulative and by own time, plus a breakdown
    by component (SpiffWorkflow, SQLAlchemy, sqlite3, Flask/Werkzeug/marshmallow, jsonschema, ...).
"""
from __future__ import annotations

import argparse
import cProfile
import io
import os
import pstats
import tempfile
import time
from collections import defaultdict
from pathlib import Path

from .diagram import COMPLETE_DATA, KEY, ROLE
from .engine import (PASSWORD, ROOT, USERNAME, WARMUP, _copy_catalogues, build_engine, engine_case)

COMPONENTS = [
    ("SpiffWorkflow", "/SpiffWorkflow/"), ("SQLAlchemy", "/sqlalchemy/"), ("alembic", "/alembic/"),
    ("jsonschema", "/jsonschema"), ("referencing", "/referencing/"), ("RestrictedPython", "/RestrictedPython/"),
    ("marshmallow/flask-smorest/apispec", "/marshmallow"), ("flask-smorest", "/flask_smorest/"),
    ("Flask", "/flask/"), ("Werkzeug", "/werkzeug/"), ("Tramite engine", f"{ROOT}/engine/"),
    ("Tramite api", f"{ROOT}/api/"), ("psycopg", "/psycopg/"), ("json (stdlib)", "/json/"), ("copy (stdlib)", "/copy.py"),
    ("uuid (stdlib)", "/uuid.py"), ("datetime/zoneinfo", "zoneinfo"),
]


def component(filename: str) -> str:
    for name, marker in COMPONENTS:
        if marker in filename:
            return name
    if filename.startswith("~") or filename == "<built-in>":
        return "builtins (sqlite3 C calls, etc.)"
    return "other"


def breakdown(stats: pstats.Stats) -> list[tuple[str, float]]:
    """Own time per component (sums to total)."""
    own = defaultdict(float)
    for (filename, _line, func), (_cc, _nc, tt, _ct, _callers) in stats.stats.items():
        key = component(filename)
        if key.startswith("builtins"):
            if "sqlite3" in func or "execute" in func or "commit" in func or "fetch" in func:
                key = "sqlite3 (C calls)"
            elif "psycopg" in func or "select" in func or "poll" in func or "recv" in func or "send" in func:
                key = "psycopg (C calls, socket waits)"
        own[key] += tt
    return sorted(own.items(), key=lambda kv: -kv[1])


def report(title: str, prof: cProfile.Profile, cases: int, wall: float, top: int) -> None:
    stats = pstats.Stats(prof)
    total = stats.total_tt
    print(f"\n===== {title}: {cases} cases, {wall:.2f} s wall under the profiler "
          f"({wall / cases * 1000:.1f} ms/case), profiled {total:.2f} s =====")
    print("\nown time by component:")
    for name, t in breakdown(stats):
        if t / total >= 0.005:
            print(f"  {name:<40}{t:8.2f} s  {t / total:6.1%}  {t / cases * 1000:7.2f} ms/case")
    buf = io.StringIO()
    pstats.Stats(prof, stream=buf).sort_stats("cumulative").print_stats(rf"{ROOT}/(engine|api)/", top)
    print(f"\nTramite's own functions, top {top} by cumulative (ms/case = cumtime / {cases}):")
    for line in buf.getvalue().splitlines()[6:]:
        parts = line.split(None, 5)
        if len(parts) == 6 and parts[3].replace(".", "").isdigit():
            where = parts[5].replace(str(ROOT) + "/", "")
            print(f"  {float(parts[3]) / cases * 1000:7.2f} ms/case  {parts[0]:>8} calls  {where}")
    for order in ("cumulative", "tottime"):
        buf = io.StringIO()
        pstats.Stats(prof, stream=buf).strip_dirs().sort_stats(order).print_stats(top)
        print(f"\ntop {top} by {order}:")
        print("\n".join(buf.getvalue().splitlines()[6:]))


def profile_c(cases: int, top: int, tmp: Path, db: str | None = None) -> None:
    from engine.identity.actor import Actor
    (tmp / "c").mkdir()
    url = None
    if db:
        from .pg_common import database_url
        url = database_url(db, "profile_c")
    eng, _ = build_engine(tmp / "c", url=url)
    actor = Actor("bench", frozenset({ROLE}))
    for _ in range(WARMUP):
        engine_case(eng, actor)
    prof = cProfile.Profile()
    started = time.perf_counter()
    prof.enable()
    for _ in range(cases):
        engine_case(eng, actor)
    prof.disable()
    wall = time.perf_counter() - started
    eng.db.dispose()
    if url:
        from .pg_common import drop_database
        drop_database(url)
    report("(c) engine commands" + (" on PostgreSQL" if url else ""), prof, cases, wall, top)


def profile_d(cases: int, top: int, tmp: Path) -> None:
    from api.app import create_app
    from engine.config.settings import Settings
    (tmp / "d").mkdir()
    eng, url = build_engine(tmp / "d", user=True)
    eng.db.dispose()
    os.environ["TRAMITE_DATABASE_URL"] = url
    app = create_app(Settings.from_env(database_url=url, secret_key="bench-secret"), bootstrap=False)
    client = app.test_client()
    token = client.post("/api/v1/auth/token", json={"username": USERNAME, "password": PASSWORD}).get_json()["token"]
    headers = {"Authorization": f"Bearer {token}"}
    per_route = defaultdict(float)

    def one_case(timed: bool):
        def call(kind, method, path, body=None):
            t0 = time.perf_counter()
            r = client.open(path, method=method, headers=headers, json=body)
            if timed:
                per_route[kind] += time.perf_counter() - t0
            assert r.status_code in (200, 201), (r.status_code, r.get_data(as_text=True)[:300])
            return r.get_json()
        case = call("start", "POST", f"/api/v1/processes/{KEY}/instances", {"variables": {}})
        (task,) = call("list_tasks", "GET", f"/api/v1/tasks?instance={case['id']}")
        call("complete", "POST", f"/api/v1/tasks/{task['id']}/complete", {"data": dict(COMPLETE_DATA)})
        assert call("read_case", "GET", f"/api/v1/instances/{case['id']}")["status"] == "completed"

    for _ in range(WARMUP):
        one_case(False)
    started = time.perf_counter()
    for _ in range(cases):
        one_case(True)
    unprofiled = time.perf_counter() - started
    print(f"\n(d) in-process Flask test client, no profiler: {cases / unprofiled:.1f} cases/s; "
          "per request: " + ", ".join(f"{k} {v / cases * 1000:.2f} ms" for k, v in per_route.items()))
    prof = cProfile.Profile()
    started = time.perf_counter()
    prof.enable()
    for _ in range(cases):
        one_case(False)
    prof.disable()
    wall = time.perf_counter() - started
    app.extensions["tramite"].db.dispose()
    report("(d) HTTP flow, server side (Flask test client)", prof, cases, wall, top)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.profile_engine")
    parser.add_argument("which", nargs="?", default="both", choices=["c", "d", "both"])
    parser.add_argument("--cases", type=int, default=200)
    parser.add_argument("--top", type=int, default=30)
    parser.add_argument("--db", default=None,
                        help="a PostgreSQL URL: (c) on PostgreSQL, in database <name>_profile_c (recreated)")
    args = parser.parse_args(argv)
    os.chdir(ROOT)
    with tempfile.TemporaryDirectory(prefix="tramite-profile-") as tmp:
        tmp = Path(tmp)
        _copy_catalogues(tmp / "processes")
        os.environ["TRAMITE_PROCESSES_DIR"] = str(tmp / "processes")
        os.environ.setdefault("TRAMITE_DATA_DIR", str(tmp / "data"))
        if args.which in ("c", "both"):
            profile_c(args.cases, args.top, tmp, args.db)
        if args.which in ("d", "both"):
            profile_d(args.cases, args.top, tmp)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
