"""EXPLAIN (ANALYZE, BUFFERS) of every statement one list request runs, over the queries family's
loaded database (bench.production --only queries --keep), through the engine's own list functions.

    PYTHONPATH=. .venv/bin/python -m bench.pg_explain URL cases supervisor_00 status=active
    PYTHONPATH=. .venv/bin/python -m bench.pg_explain URL tasks regional_office_00 scope=available
    PYTHONPATH=. .venv/bin/python -m bench.pg_explain --counted URL cases supervisor_00

--counted: the total counted over the rows, as before the kept totals (migration 0031).
"""
from __future__ import annotations

import argparse
import sys
import time
from datetime import timezone

from sqlalchemy import create_engine, event, text
from sqlalchemy.orm import Session

from .pg_queries import USERS


def main(argv: list[str]) -> int:
    from engine.config.clock import parse_instant
    from engine.identity.actor import Actor
    from engine.queries import cases as queries
    from tests.production.live import START
    from engine.queries import list_totals
    parser = argparse.ArgumentParser(prog="python -m bench.pg_explain", description=__doc__.split("\n")[0])
    parser.add_argument("--counted", action="store_true", help="count the total over the rows (before 0031)")
    parser.add_argument("url", help="the queries family's kept database")
    parser.add_argument("kind", choices=["cases", "tasks"])
    parser.add_argument("user", choices=sorted(USERS), metavar="user",
                        help="a user of the load (bench/pg_queries.py)")
    parser.add_argument("filters", nargs="*", metavar="key=value", help="the list's filters (q=…, scope=…, page=…)")
    options = parser.parse_args(argv)
    if options.counted:
        list_totals.kept = lambda _session: False
    url, kind, user = options.url, options.kind, options.user
    args: dict = dict(pair.split("=", 1) for pair in options.filters)
    if "page" in args:
        args["page"] = int(args["page"])
    if args.get("overdue"):
        args["overdue"] = True
    engine = create_engine(url)
    captured: list = []
    event.listen(engine, "before_cursor_execute",
                 lambda _c, _cur, statement, parameters, *_: captured.append((statement, parameters)))
    now = parse_instant(START).astimezone(timezone.utc)
    with Session(engine) as session:
        office = session.execute(text("SELECT office FROM app_user WHERE username = :u"), {"u": user}).scalar()
        actor = Actor(user, frozenset(USERS[user][0]), office)
        captured.clear()
        t0 = time.perf_counter()
        listing = queries.list_tasks if kind == "tasks" else queries.list_instances
        items, total = listing(session, actor, now, **args)
        print(f"{(time.perf_counter() - t0) * 1000:.1f} ms; total {total}; {len(items)} rows; "
              f"{len(captured)} statements")
        raw = session.connection().connection.dbapi_connection
        for statement, parameters in list(captured):
            with raw.cursor() as cur:
                cur.execute("EXPLAIN (ANALYZE, BUFFERS) " + statement, parameters)
                print("----", " ".join(statement.split())[:300])
                print("\n".join(row[0] for row in cur.fetchall()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
