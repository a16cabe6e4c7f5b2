"""Task inbox and supervisor case list with 1,000,000 cases and 10,000,000 task rows on PostgreSQL,
measured through a live `tramite serve` (gunicorn) on loopback: p50/p95 per query and user."""
from __future__ import annotations

import time
from datetime import timezone
from pathlib import Path
from urllib.parse import urlencode

from .common import log
from .pg_common import get, database_url, drop_database, installation, load_average, server, summary
from .common import run_clients
from .pg_load import bulk_load, offices

TARGET_P95 = 0.050

# (label, user, path, query args). Users are created below with the roles/offices of USERS.
USERS = {
    "supervisor_00": (["supervisor"], None),
    "regional_office_00": (["regional_office"], "first office"),
    "registry_clerk_00": (["registry_clerk"], None),
    "bid_board_secretary_00": (["bid_board_secretary", "purchasing"], None),
    "commissioner_05": (["commissioner"], None),
}
QUERIES = [
    ("inbox", "mine, busiest clerk", "registry_clerk_00", "/api/v1/tasks", {"scope": "mine"}),
    ("inbox", "mine, office clerk", "regional_office_00", "/api/v1/tasks", {"scope": "mine"}),
    ("inbox", "available, office clerk", "regional_office_00", "/api/v1/tasks", {"scope": "available"}),
    ("inbox", "available, 2 roles", "bid_board_secretary_00", "/api/v1/tasks", {"scope": "available"}),
    ("inbox", "available, page 3", "registry_clerk_00", "/api/v1/tasks", {"scope": "available", "page": 3}),
    ("inbox", "available + overdue", "registry_clerk_00", "/api/v1/tasks", {"scope": "available", "overdue": "true"}),
    ("inbox", "mine or available (default)", "commissioner_05", "/api/v1/tasks", {}),
    ("inbox", "mine, completed (history)", "registry_clerk_00", "/api/v1/tasks", {"scope": "mine", "state": "completed"}),
    ("inbox", "all open (supervisor)", "supervisor_00", "/api/v1/tasks", {"scope": "all"}),
    ("cases", "no filter (supervisor)", "supervisor_00", "/api/v1/instances", {}),
    ("cases", "process", "supervisor_00", "/api/v1/instances", {"process": "materials_aid"}),
    ("cases", "status=active", "supervisor_00", "/api/v1/instances", {"status": "active"}),
    ("cases", "process + status=error", "supervisor_00", "/api/v1/instances",
     {"process": "surplus_disposition", "status": "error"}),
    ("cases", "overdue", "supervisor_00", "/api/v1/instances", {"overdue": "true"}),
    ("cases", "process + active + overdue", "supervisor_00", "/api/v1/instances",
     {"process": "materials_aid", "status": "active", "overdue": "true"}),
    ("cases", "text: case number", "supervisor_00", "/api/v1/instances", {"q": "MAT-2023-00012"}),
    ("cases", "text: started by", "supervisor_00", "/api/v1/instances", {"q": "registry_clerk_03"}),
    ("cases", "text: applicant, no accent", "supervisor_00", "/api/v1/instances", {"q": "nelida colon"}),
    ("cases", "text: applicant, office clerk", "regional_office_00", "/api/v1/instances", {"q": "maria nunez"}),
    ("cases", "status=active, clerk's procedures", "registry_clerk_00", "/api/v1/instances", {"status": "active"}),
    ("cases", "no filter, office clerk", "regional_office_00", "/api/v1/instances", {}),
    # The pages a browser opens: the same lists rendered, with the page's other reads (filter choices).
    ("web", "inbox page (mine + available)", "registry_clerk_00", "/web/tasks", {}),
    ("web", "inbox page, office clerk", "regional_office_00", "/web/tasks", {}),
    ("web", "case list page (supervisor)", "supervisor_00", "/web/cases", {}),
    ("web", "case list page, office clerk", "regional_office_00", "/web/cases", {}),
]


def _kind(path: str) -> str:
    return "web" if path.startswith("/web/") else "api"


def _clients(port: int, tokens: dict) -> dict:
    """One API connection per user, and a logged-in browser session per user of a web page."""
    from tests.production.live import PASSWORD, Http
    from .pg_web import WebSession
    out = {(u, "api"): Http(port, tokens[u]) for u in USERS}
    for user in {user for _, _, user, path, _ in QUERIES if _kind(path) == "web"}:
        out[(user, "web")] = WebSession(port, user, PASSWORD)
    return out


def _total(port: int, token: str, path: str) -> int:
    """X-Total-Count of one answer (the helper client returns only the body)."""
    import http.client
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        conn.request("GET", path, headers={"Authorization": f"Bearer {token}", "Accept": "application/json"})
        response = conn.getresponse()
        response.read()
        return int(response.getheader("X-Total-Count") or 0)
    finally:
        conn.close()


def path_of(path: str, args: dict) -> str:
    return f"{path}?{urlencode(args)}" if args else path


def _keep_load_figures(url: str, info: dict) -> None:
    """The load's own time, kept beside the rows so a --reuse run still reports it."""
    import json
    import psycopg
    from .pg_load import libpq
    with psycopg.connect(libpq(url), autocommit=True) as conn:
        conn.execute("CREATE TABLE IF NOT EXISTS bench_load (figures jsonb)")
        conn.execute("DELETE FROM bench_load")
        conn.execute("INSERT INTO bench_load VALUES (%s)", (json.dumps(
            {"load_seconds": info["load_seconds"], "phases": info.get("phases", {})}),))


def _load_figures(url: str) -> dict:
    import psycopg
    from .pg_load import libpq
    with psycopg.connect(libpq(url), autocommit=True) as conn:
        if conn.execute("SELECT to_regclass('bench_load')").fetchone()[0] is None:
            return {}
        row = conn.execute("SELECT figures FROM bench_load").fetchone()
        return row[0] if row else {}


def prepare(url: str, workdir: Path, *, cases: int, tasks: int, reuse: bool):
    """A database with the real procedures deployed and the bulk rows; reused if already loaded."""
    from engine.commands import accounts
    from engine.bootstrap import deploy_directory
    from engine.config.clock import parse_instant
    from engine.identity.actor import SYSTEM
    from tests.production.live import PASSWORD, START
    from .common import ROOT

    inst = installation(url, workdir, fresh=not reuse)
    loaded = inst.scalar("SELECT count(*) FROM task") if reuse else 0
    info = {"loaded_now": False}
    if loaded != tasks:
        if reuse and loaded:
            inst.close()
            inst = installation(url, workdir, fresh=True)
        deploy_directory(inst.engine, ROOT / "processes")
        office = offices()[0]
        for username, (roles, where) in USERS.items():
            inst.engine.execute(lambda ctx, u=username, r=roles, o=(office if where else None):
                                accounts.create_user(ctx, u, PASSWORD, r, full_name=u, office=o), SYSTEM)
        now = parse_instant(START).astimezone(timezone.utc)
        log(f"[queries] bulk load: {cases:,} cases, {tasks:,} task rows and their history (COPY, indexes "
            f"built after), then VACUUM ANALYZE ...")
        t0 = time.perf_counter()
        info.update(bulk_load(url, now, cases=cases, tasks=tasks, log=log))
        info["load_seconds"] = time.perf_counter() - t0
        info["loaded_now"] = True
        log(f"    {info['load_seconds']:.0f} s; {info['open_tasks']:,} open tasks")
        _keep_load_figures(url, info)
    else:
        log(f"[queries] reusing the loaded database ({loaded:,} task rows)")
        info.update(_load_figures(url))
    info["counts"] = {
        "cases": inst.scalar("SELECT count(*) FROM process_instance"),
        "tasks": inst.scalar("SELECT count(*) FROM task"),
        "open": inst.scalar("SELECT count(*) FROM task WHERE state = 'open'"),
        "history": inst.scalar("SELECT count(*) FROM audit_event"),
        "size": inst.scalar("SELECT pg_size_pretty(pg_total_relation_size('task') "
                            "+ pg_total_relation_size('process_instance'))"),
        "history_size": inst.scalar("SELECT pg_size_pretty(pg_total_relation_size('audit_event'))"),
        "database_size": inst.scalar("SELECT pg_size_pretty(pg_database_size(current_database()))"),
    }
    # Read latency does not wait on commits, but the figures say what the server was.
    info["durability"] = {name: inst.scalar(f"SHOW {name}") for name in ("fsync", "synchronous_commit")}
    return inst, info


def bench_queries(base_url: str, workdir: Path, *, cases: int, tasks: int, rounds: int, clients: int,
                  workers: int, threads: int, keep: bool, reuse: bool) -> dict:
    url = database_url(base_url, "queries")
    inst, info = prepare(url, workdir / "queries", cases=cases, tasks=tasks, reuse=reuse)
    inst.engine.db.upgrade()  # a reused database gets the newer migrations (0008) before measuring
    from engine.reporting.list_totals import fold_round
    fold_round(inst.engine)  # the worker's round at the bench's clock, as a live server has run one
    inst.engine.db.dispose()
    import psycopg
    from .pg_load import libpq
    with psycopg.connect(libpq(url), autocommit=True) as conn:  # no transaction of ours open now: the
        conn.execute("VACUUM ANALYZE process_instance")         # visibility map gets set, as autovacuum
        conn.execute("VACUUM ANALYZE task")                     # leaves it on a live server
        for table in ("case_search", "search_term", "case_search_term"):  # the search's (0033, 0034)
            conn.execute(f"VACUUM ANALYZE {table}")
    info["kept_totals"] = kept_totals(inst)
    info["indexes"] = [r[0] for r in inst.rows("SELECT indexname FROM pg_indexes WHERE tablename = 'task' "
                                               "AND indexname IN ('ix_task_open_order', 'ix_task_available_lane_case')")]
    try:
        tokens = inst.tokens(*USERS)
        with server(inst, workers=workers, threads=threads, name="queries") as live:
            http = _clients(live.port, tokens)
            totals = {}
            for _, label, user, path, args in QUERIES:  # warm-up, and the totals each answer reports
                for _ in range(3):
                    status, body = get(http[(user, _kind(path))], path_of(path, args))
                    if status != 200:
                        raise RuntimeError(f"{label}: {status} {str(body)[:300]}")
                totals[label] = (_total(live.port, tokens[user], path_of(path, args)) if _kind(path) == "api"
                                 else None)
            # Sequential: one client, the queries interleaved round after round (drift hits all alike).
            samples = {label: [] for _, label, *_ in QUERIES}
            load_before = load_average()
            for _ in range(rounds):
                for _, label, user, path, args in QUERIES:
                    t0 = time.perf_counter()
                    status, _body = get(http[(user, _kind(path))], path_of(path, args))
                    samples[label].append(time.perf_counter() - t0)
                    assert status == 200, (label, status)
            # Concurrent: `clients` threads, each running the whole list `rounds // 2` times.
            mixed: list[float] = []
            conns = [_clients(live.port, tokens) for _ in range(clients)]

            def work(k: int, i: int) -> None:
                for j in range(len(QUERIES)):
                    _, label, user, path, args = QUERIES[(j + k * 5 + i) % len(QUERIES)]
                    t0 = time.perf_counter()
                    status, _body = get(conns[k][(user, _kind(path))], path_of(path, args))
                    mixed.append(time.perf_counter() - t0)
                    if status != 200:
                        raise RuntimeError(f"{label}: {status}")
            seconds, errors = run_clients(clients, work, max(1, rounds // 2))
            for c in [*http.values(), *(h for d in conns for h in d.values())]:
                c.close()
            server_errors = live.server_errors()
        if info["kept_totals"]:
            counted = counted_totals(inst)
            info["totals_differ"] = {k: (totals[k], n) for k, n in counted.items() if totals[k] != n}
    finally:
        inst.close()
        if not keep:
            drop_database(url)
    rows = [{"group": g, "label": label, "user": user, "request": path_of(path, args), "total": totals[label],
             **summary(samples[label])} for g, label, user, path, args in QUERIES]
    return {"info": {k: v for k, v in info.items() if k != "people"}, "rows": rows, "load_before": load_before,
            "mixed": {"clients": clients, "requests": len(mixed), "seconds": seconds,
                      "req_s": len(mixed) / seconds, **summary(mixed), "errors": errors[:5]},
            "server_errors": server_errors[:5], "workers": workers, "threads": threads, "rounds": rounds}


def kept_totals(inst) -> dict | None:
    """The kept totals' rows (migration 0031), or None on a database without them."""
    if not inst.scalar("SELECT to_regclass('task_total') IS NOT NULL"):
        return None
    return {t: inst.scalar(f"SELECT count(*) FROM {t}") for t in ("case_total", "task_total")}


def counted_totals(inst) -> dict:
    """Each API list's total counted over the rows, as before 0031, through the engine's list functions."""
    from engine.identity.actor import Actor
    from engine.queries import cases as lists, list_totals
    kept, out = list_totals.kept, {}
    list_totals.kept = lambda _session: False
    try:
        for _, label, user, path, args in QUERIES:
            if _kind(path) == "web":
                continue
            office = inst.scalar(f"SELECT office FROM app_user WHERE username = '{user}'")
            actor = Actor(user, frozenset(USERS[user][0]), office)
            filters = {k: (True if k == "overdue" else v) for k, v in args.items() if k != "page"}
            listing = lists.list_tasks if path.endswith("/tasks") else lists.list_instances
            out[label] = inst.engine.read(listing, actor, inst.engine.now, page=args.get("page", 1), **filters)[1]
    finally:
        list_totals.kept = kept
    return out
