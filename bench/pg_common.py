"""Shared pieces of the PostgreSQL benchmarks (bench.production): a fresh database per family,
the live servers and HTTP client of tests/production/live.py, latency summaries."""
from __future__ import annotations

import os
import statistics
from contextlib import contextmanager
from pathlib import Path

from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from tests.support.databases import drop_database as dropped

from .common import log, pct

DEFAULT_DB = "postgresql+psycopg://tramite:tramite@127.0.0.1:5432/tramite_bench"


def database_url(base: str, suffix: str) -> str:
    """The --db URL with `_suffix` appended to its database name (one database per family)."""
    url = make_url(base)
    name = f"{url.database or 'tramite_bench'}_{suffix}"[:63]
    if name.startswith("tramite_test"):
        raise SystemExit("refusing a tramite_test* database: those belong to the test suite")
    return url.set(database=name).render_as_string(hide_password=False)


def recreate_database(url: str, *, keep_existing: bool = False) -> None:
    target = make_url(url)
    admin = create_engine(target.set(database="postgres"), isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        exists = conn.execute(text("SELECT 1 FROM pg_database WHERE datname = :n"), {"n": target.database}).scalar()
        if not (keep_existing and exists):
            dropped(conn, target.database)
            conn.execute(text(f'CREATE DATABASE "{target.database}"'))
    admin.dispose()


def drop_database(url: str) -> None:
    target = make_url(url)
    admin = create_engine(target.set(database="postgres"), isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        dropped(conn, target.database)
    admin.dispose()


def drop_database_or_say(url: str) -> None:
    """`drop_database` at a benchmark's end: a database left behind is said, not a failed run (the
    drop already waits for an autovacuum worker, tests/support/databases.py)."""
    try:
        drop_database(url)
    except Exception as exc:  # noqa: BLE001 - reported, the figures stand
        log(f"could not drop {make_url(url).database}: {exc}")


def installation(url: str, workdir: Path, fresh: bool = True):
    """tests/production/live.py's Installation (migrated, seeded, manual clock at START) on `url`."""
    os.environ.setdefault("TRAMITE_TEST_DATABASE_URL", url)  # live.py reads it at import; unused here
    from tests.production.live import Installation
    recreate_database(url, keep_existing=not fresh)
    workdir.mkdir(parents=True, exist_ok=True)
    probe = create_engine(url)
    with probe.connect() as conn:
        ready = conn.execute(text("SELECT to_regclass('public.role') IS NOT NULL")).scalar()
    probe.dispose()
    if not ready:
        return Installation(url, workdir)
    # An installation prepared by an earlier run (--reuse): the same object, without seeding again.
    from engine.config.clock import Clock, parse_instant
    from engine.bootstrap import make_engine
    from tests.production.live import START
    inst = Installation.__new__(Installation)
    inst.url, inst.workdir = url, workdir
    inst.engine = make_engine(url, Clock("manual", parse_instant(START)))
    inst.processes = inst._processes_folder()
    return inst


@contextmanager
def server(inst, workers: int, threads: int, name: str = "server", env: dict[str, str] | None = None):
    from tests.production.live import LiveServer
    live = LiveServer(inst, workers=workers, threads=threads, name=name, env=env)
    live.start()
    try:
        yield live
    except BaseException:
        print(f"--- {name} log (tail) ---\n{live.log()[-3000:]}", flush=True)
        raise
    finally:
        live.stop()


def get(http, path: str):
    """GET on a tests/production/live.Http connection, reconnecting once if the server had closed
    the idle keep-alive connection (gunicorn's keepalive is 2 s)."""
    import http.client as hc
    try:
        return http.request("GET", path)
    except (hc.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
        http.conn = hc.HTTPConnection("127.0.0.1", http.port, timeout=http.timeout)
        return http.request("GET", path)


def worker_cpu(pids: list[int]) -> float:
    """CPU seconds (user + system) these processes have used so far."""
    total = 0.0
    for pid in pids:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def load_average() -> str:
    try:
        return " / ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "?"


def summary(samples: list[float]) -> dict:
    return {"n": len(samples), "p50": pct(samples, 50), "p95": pct(samples, 95),
            "mean": statistics.fmean(samples) if samples else float("nan")}


