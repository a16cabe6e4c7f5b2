"""The `tramite` command line: serve, a lone timer worker, migrations, deployment, demo data, users."""
from __future__ import annotations

import argparse
import logging
import os
import signal
import sys
import threading
from pathlib import Path

from engine.errors import EngineError


def _engine():
    from engine.bootstrap import make_engine
    from engine.config.settings import Settings
    settings = Settings.from_env()
    try:
        clock = settings.clock()
    except ValueError as exc:  # TRAMITE_CLOCK or TRAMITE_CLOCK_START: the user's to fix, not a crash
        raise EngineError(str(exc)) from None
    return make_engine(settings.database_url, clock, replica_url=settings.replica_url,
                       prepared_statements=settings.prepared_statements)


def _deploy(engine, path: Path | None = None, demo: bool = False) -> None:
    """Deploy and print each process; `demo`: in the seed report's language (api/demo/words.py)."""
    from engine.bootstrap import deploy_directory
    from engine.config.paths import processes_dir
    root = Path(path) if path else processes_dir()
    if not root.is_dir():
        raise EngineError(f"there is no folder {str(root)!r} to deploy from")
    results = deploy_directory(engine, root)
    from api.demo.words import say as worded

    def say(es, en):
        return worded(es, en) if demo else en
    if not results:
        print(say(f"no hay procedimientos en {root}", f"no procedures under {root}"))
    for r in results:
        done = say("desplegado", "deployed") if r["created"] else say("sin cambios", "unchanged")
        print(f"{r['key']:<32} v{r['version']:<4} {done}", flush=True)


def cmd_serve(args) -> int:
    from engine.bootstrap import prepare

    from api.server import TramiteServer
    engine = _engine()
    prepare(engine)
    _deploy(engine)
    # The workers fork from this process: they must not inherit its open connections.
    engine.db.dispose()
    TramiteServer(host=args.host, port=args.port, workers=args.workers, threads=args.threads,
                  timer_worker=args.timer_worker).run()
    return 0


def cmd_worker(args) -> int:
    from engine.worker import TimerWorker
    stop = threading.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: stop.set())
    from api.server import freeze_loaded_objects
    timer = TimerWorker(_engine(), interval=args.interval)
    # As each `serve` worker: the collector's full runs no longer walk the loaded modules and schemas
    # (bench.profile_timers --freeze: 70-90 ms pauses, ~0.07 ms of CPU per firing).
    freeze_loaded_objects()
    timer.start()
    print(f"timer worker started (every {args.interval} s); Ctrl-C stops", flush=True)
    stop.wait()
    timer.stop()
    timer.join()
    print("timer worker stopped", flush=True)
    return 0


def _retention_shard(shard: tuple[int, int], limit: int, batch: int) -> tuple[int, int]:
    from engine.commands import retention
    done = retention.run(_engine(), limit=limit, batch=batch, shard=shard)
    return len(done.archived), done.skipped


def cmd_retention(args) -> int:
    from concurrent.futures import ProcessPoolExecutor
    from multiprocessing import get_context

    from engine.commands import retention
    n = max(1, args.workers)
    if n == 1:
        results = [_retention_shard((0, 1), args.limit, args.batch)]
    else:  # worker k of n takes the case ids k mod n: no two export the same case
        with ProcessPoolExecutor(n, mp_context=get_context("spawn")) as pool:
            results = list(pool.map(_retention_shard, [(k, n) for k in range(n)], [args.limit // n + 1] * n,
                                    [args.batch] * n))
    print(f"archived {sum(r[0] for r in results)} case(s) to {retention.archive_dir()}; "
          f"skipped {sum(r[1] for r in results)}", flush=True)
    return 0


def cmd_db_upgrade(_args) -> int:
    _engine().db.upgrade()
    print("database is up to date")
    return 0


def cmd_deploy(args) -> int:
    from engine.bootstrap import prepare
    engine = _engine()
    prepare(engine, upgrade=True)
    _deploy(engine, args.path)
    return 0


def cmd_seed_demo(args) -> int:
    from engine.bootstrap import prepare

    from api import demo
    if args.english:
        os.environ["TRAMITE_DEMO_LANG"] = "en"
    engine = _engine()
    prepare(engine)
    _deploy(engine, demo=True)
    demo.seed(engine)
    return 0


def cmd_users_create(args) -> int:
    from engine.bootstrap import prepare
    from engine.commands import accounts
    from engine.identity.actor import SYSTEM
    engine = _engine()
    # So that a fresh installation can get its first admin before the first `serve`.
    prepare(engine)
    engine.execute(accounts.create_user, SYSTEM, args.username, args.password, args.role,
                   full_name=args.full_name or "", office=args.office, email=args.email)
    print(f"created user {args.username} (roles: {', '.join(sorted(set(args.role)))})")
    return 0


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="tramite", description="Trámite: a BPMN case engine.")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")

    serve = sub.add_parser("serve", help="API + web UI + timer workers; migrates and deploys first")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--workers", type=int, default=1, help="HTTP worker processes")
    serve.add_argument("--threads", type=int, default=8, help="threads per worker")
    serve.add_argument("--no-timer-worker", dest="timer_worker", action="store_false",
                       help="run no timer worker (run `tramite worker` elsewhere)")
    serve.set_defaults(run=cmd_serve)

    worker = sub.add_parser("worker", help="a timer worker alone, in the foreground")
    worker.add_argument("--interval", type=float, default=1.0, help="seconds between polls")
    worker.set_defaults(run=cmd_worker)

    keep = sub.add_parser("retention", help="archive the finished cases past their retention period, then "
                          "remove them from the database (run it daily, e.g. from a systemd timer)")
    keep.add_argument("--limit", type=int, default=1000, help="cases at most in this run")
    keep.add_argument("--batch", type=int, default=200, help="cases per transaction and per archive container")
    keep.add_argument("--workers", type=int, default=1, help="processes sharing the cases (by id)")
    keep.set_defaults(run=cmd_retention)

    db = sub.add_parser("db", help="database maintenance")
    db_sub = db.add_subparsers(dest="db_command", required=True, metavar="COMMAND")
    db_sub.add_parser("upgrade", help="apply the migrations").set_defaults(run=cmd_db_upgrade)

    deploy = sub.add_parser("deploy", help="deploy the procedures under PATH; unchanged ones are no-ops")
    deploy.add_argument("path", nargs="?", type=Path, metavar="PATH", help="default: processes/")
    deploy.set_defaults(run=cmd_deploy)

    seed_demo = sub.add_parser("seed-demo", help="demo users (one per role) and demo data; idempotent")
    seed_demo.add_argument("--english", action="store_true",
                           help="print the report in English (default Spanish; also TRAMITE_DEMO_LANG=en)")
    seed_demo.set_defaults(run=cmd_seed_demo)

    users = sub.add_parser("users", help="user accounts")
    users_sub = users.add_subparsers(dest="users_command", required=True, metavar="COMMAND")
    create = users_sub.add_parser("create", help="add a user")
    create.add_argument("username")
    create.add_argument("--password", required=True)
    # Not required here: without one the engine refuses (errors.roles) as the API and the web form do.
    create.add_argument("--role", action="append", default=[], help="repeat for several roles (one at least)")
    create.add_argument("--office")
    create.add_argument("--full-name")
    create.add_argument("--email", help="where the user's task reminders go")
    create.set_defaults(run=cmd_users_create)
    return p


def report(exc: EngineError) -> None:
    print(f"tramite: {exc.message}", file=sys.stderr)
    for where, messages in exc.errors.items():
        for message in messages if isinstance(messages, (list, tuple)) else [messages]:
            print(f"  {where}: {message}", file=sys.stderr)


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    logging.basicConfig(level=logging.WARNING, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    try:
        return args.run(args)
    except EngineError as exc:
        report(exc)
    except KeyboardInterrupt:
        return 130
    return 1


if __name__ == "__main__":
    sys.exit(main())
