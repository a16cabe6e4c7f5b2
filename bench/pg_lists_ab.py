"""The queries family's lists, old code against new, side by side on one loaded database: two live
`tramite serve` (one from an older checkout through PYTHONPATH, one from this tree), the same
requests alternating between them block by block (the order flips each round), so the machine's
load hits both alike. Reports p50/p95 per list and CPU per request: gunicorn's processes plus the
database's backends (only the server being asked is busy during its block), read from /proc.

    PYTHONPATH=. .venv/bin/python -m bench.pg_lists_ab URL_OF_<db>_queries OLD_CHECKOUT [rounds] [per block]

The database must hold the queries family's load (bench.production --only queries --keep); it is
migrated to this tree's head first (the older code reads it unchanged) and its totals folded."""
from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

from sqlalchemy import text

from .common import ROOT
from .pg_common import get, installation, load_average, server
from .pg_cpu import _cpu_seconds
from .pg_queries import QUERIES, USERS, _clients, _kind, _total, path_of


def _pids(live) -> list[int]:
    return [live.proc.pid, *live.worker_pids()]


def _backends(conn) -> list[int]:
    return [r[0] for r in conn.execute(text(
        "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()"))]


def _cpu(live, conn) -> float:
    return sum(_cpu_seconds(p) for p in _pids(live)) + sum(_cpu_seconds(p) for p in _backends(conn))


def main(argv: list[str]) -> int:
    from engine.reporting.list_totals import fold_round
    parser = argparse.ArgumentParser(prog="python -m bench.pg_lists_ab", description=__doc__.split("\n")[0])
    parser.add_argument("url", help="the queries family's kept database (bench.production --only queries --keep)")
    parser.add_argument("old", help="an older checkout, its server's PYTHONPATH")
    parser.add_argument("rounds", nargs="?", type=int, default=20, help="rounds [20]")
    parser.add_argument("per", nargs="?", type=int, default=3, help="requests per list and block [3]")
    options = parser.parse_args(argv)
    url, old, rounds, per = options.url, options.old, options.rounds, options.per
    inst = installation(url, Path(tempfile.mkdtemp(prefix="lists_ab_")), fresh=False)
    inst.engine.db.upgrade()
    fold_round(inst.engine)
    tokens = inst.tokens(*USERS)
    samples = {(label, side): [] for _, label, *_ in QUERIES for side in ("old", "new")}
    cpu = {key: 0.0 for key in samples}
    with server(inst, workers=2, threads=4, name="old", env={"PYTHONPATH": old}) as live_old, \
            server(inst, workers=2, threads=4, name="new", env={"PYTHONPATH": str(ROOT)}) as live_new, \
            inst.engine.db.read_engine.connect() as conn:
        lives = {"old": live_old, "new": live_new}
        http = {side: _clients(live.port, tokens) for side, live in lives.items()}
        totals = {}
        for _, label, user, path, args in QUERIES:
            for side, live in lives.items():
                for _ in range(3):
                    status, body = get(http[side][(user, _kind(path))], path_of(path, args))
                    assert status == 200, (side, label, status, str(body)[:300])
                if _kind(path) == "api":
                    totals[(label, side)] = _total(live.port, tokens[user], path_of(path, args))
        load_before = load_average()
        for r in range(rounds):
            for _, label, user, path, args in QUERIES:
                for side in (("old", "new") if r % 2 == 0 else ("new", "old")):
                    conn.commit()
                    c0 = _cpu(lives[side], conn)
                    for _ in range(per):
                        t0 = time.perf_counter()
                        status, _body = get(http[side][(user, _kind(path))], path_of(path, args))
                        samples[(label, side)].append(time.perf_counter() - t0)
                        assert status == 200, (side, label, status)
                    cpu[(label, side)] += _cpu(lives[side], conn) - c0
        load_after = load_average()
        errors = {side: live.server_errors()[:3] for side, live in lives.items()}
    inst.close()
    n = rounds * per
    print(f"old {old} vs new {ROOT}; {rounds} rounds x {per} requests per list and side, alternating; "
          f"load {load_before} -> {load_after}; server errors {errors}")
    print("| list | query | total old / new | old p50 / p95 ms | new p50 / p95 ms | old CPU ms/req | new CPU ms/req |")
    print("|---|---|---|---|---|---|---|")
    for group, label, *_ in QUERIES:
        cells = []
        for side in ("old", "new"):
            s = sorted(samples[(label, side)])
            cells.append(f"{statistics.median(s) * 1000:.1f} / {s[int(0.95 * (len(s) - 1))] * 1000:.1f}")
        total = (f"{totals[(label, 'old')]:,} / {totals[(label, 'new')]:,}" if (label, "old") in totals else "-")
        print(f"| {group} | {label} | {total} | {cells[0]} | {cells[1]} | "
              f"{cpu[(label, 'old')] / n * 1000:.1f} | {cpu[(label, 'new')] / n * 1000:.1f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
