"""What one round trip to PostgreSQL costs here, and whether psycopg's pipeline mode saves it (a
measurement for issue 21, not a test). Side by side in one run, alternated in slices:

    .venv/bin/python -m bench.pg_round_trips [--db postgresql+psycopg://...] [--n 3000] [--rounds 4]

- `SELECT 1`, prepared, in autocommit: one round trip alone;
- BEGIN, a one-row INSERT … RETURNING, COMMIT: a command's smallest write (3 round trips);
- the same with the INSERT and the COMMIT in one pipeline (`conn.pipeline()`): 2 round trips;
- a SELECT first (a command reads before it writes), then INSERT and COMMIT, plain and pipelined;
- BEGIN, INSERT, COMMIT sent on libpq itself (psycopg's `pgconn`), one by one and in one pipeline:
  what a round trip costs without psycopg's Python layer.

Each per execution: wall time, this process's CPU, and the server backend's CPU (from /proc: the
server must run on this machine). The durable settings are printed: figures with fsync or
synchronous_commit off say nothing about production. The write goes to a TEMP table.
"""
from __future__ import annotations

import argparse
import select
import statistics
import time

import psycopg
from psycopg import pq
from sqlalchemy.engine import make_url

from .common import log
from .pg_common import DEFAULT_DB
from .pg_cpu import _cpu_seconds

INSERT = "INSERT INTO rt (a) VALUES (1) RETURNING a"


def _plain_write(conn, cur) -> None:
    cur.execute(INSERT, prepare=True)
    cur.fetchone()
    conn.commit()


def _piped_write(conn, cur) -> None:
    with conn.pipeline():
        cur.execute(INSERT, prepare=True)
        conn.commit()
    cur.fetchone()


def _read_then(write):
    def run(conn, cur) -> None:
        cur.execute("SELECT 1", prepare=True)
        cur.fetchone()
        write(conn, cur)
    return run


def _libpq_plain(conn, _cur) -> None:
    pg = conn.pgconn
    pg.exec_(b"BEGIN")
    _answer(pg.exec_prepared(b"rt_insert", []), pq.ExecStatus.TUPLES_OK)
    _answer(pg.exec_(b"COMMIT"), pq.ExecStatus.COMMAND_OK)


def _libpq_piped(conn, _cur) -> None:
    """BEGIN, the INSERT and COMMIT in one pipeline on libpq itself, without psycopg's Python layer."""
    pg = conn.pgconn
    pg.enter_pipeline_mode()
    pg.send_query_params(b"BEGIN", None)
    pg.send_query_prepared(b"rt_insert", [])
    pg.send_query_params(b"COMMIT", None)
    pg.pipeline_sync()
    pg.flush()
    results = []
    while not results or results[-1].status != pq.ExecStatus.PIPELINE_SYNC:
        select.select([pg.socket], [], [])
        pg.consume_input()
        while not pg.is_busy():
            result = pg.get_result()
            if result is None:
                if results and results[-1].status == pq.ExecStatus.PIPELINE_SYNC:
                    break
                continue
            results.append(result)
            if result.status == pq.ExecStatus.PIPELINE_SYNC:
                break
    pg.exit_pipeline_mode()
    _answer(results[1], pq.ExecStatus.TUPLES_OK)
    _answer(results[2], pq.ExecStatus.COMMAND_OK)


def _answer(result, expected) -> None:
    if result.status != expected:
        raise RuntimeError(f"{result.status.name}: {result.error_message.decode()}")


def _select(conn, cur) -> None:
    cur.execute("SELECT 1", prepare=True)
    cur.fetchone()


CASES = (
    ("SELECT 1 (autocommit)", _select, True),
    ("BEGIN, INSERT, COMMIT", _plain_write, False),
    ("the same, INSERT + COMMIT pipelined", _piped_write, False),
    ("BEGIN, SELECT, INSERT, COMMIT", _read_then(_plain_write), False),
    ("the same, INSERT + COMMIT pipelined", _read_then(_piped_write), False),
    ("BEGIN, INSERT, COMMIT on libpq itself", _libpq_plain, False),
    ("the same, all three in one libpq pipeline", _libpq_piped, False),
)


def _slice(conn, cur, run, n: int) -> tuple[float, float, float]:
    pid = conn.info.backend_pid
    server, wall, here = _cpu_seconds(pid), time.perf_counter(), time.process_time()
    for _ in range(n):
        run(conn, cur)
    return time.perf_counter() - wall, time.process_time() - here, _cpu_seconds(pid) - server


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.pg_round_trips", description=__doc__.split("\n")[0])
    parser.add_argument("--db", default=DEFAULT_DB, help=f"a PostgreSQL URL (its database is only read) [{DEFAULT_DB}]")
    parser.add_argument("--n", type=int, default=3000, help="executions of each kind per round [3000]")
    parser.add_argument("--rounds", type=int, default=4, help="rounds, the kinds alternated in each [4]")
    args = parser.parse_args(argv)
    url = make_url(args.db).set(drivername="postgresql").render_as_string(hide_password=False)
    conns = {}
    for label, run, autocommit in CASES:
        conn = psycopg.connect(url, autocommit=autocommit)
        cur = conn.cursor()
        if not autocommit:
            cur.execute("CREATE TEMP TABLE rt (a int)")
            conn.commit()
            _answer(conn.pgconn.prepare(b"rt_insert", INSERT.encode()), pq.ExecStatus.COMMAND_OK)
        for _ in range(200):  # warm: prepared statements, caches
            run(conn, cur)
        conns[label] = (conn, cur)
    settings = {name: next(iter(conns.values()))[0].execute(f"SHOW {name}").fetchone()[0]
                for name in ("fsync", "synchronous_commit")}
    log(f"{args.rounds} rounds x {args.n} executions of each kind; {settings}")
    samples: dict[int, list] = {i: [] for i in range(len(CASES))}
    for round_no in range(args.rounds):
        order = range(len(CASES)) if round_no % 2 == 0 else reversed(range(len(CASES)))
        for i in order:
            conn, cur = conns[CASES[i][0]]
            samples[i].append(_slice(conn, cur, CASES[i][1], args.n))
    print(f"\n{'per execution, medians of the rounds':<44} {'wall':>9} {'client CPU':>11} {'server CPU':>11}")
    for i, (label, _run, _auto) in enumerate(CASES):
        wall, here, server = (statistics.median(s[k] for s in samples[i]) / args.n * 1e6 for k in range(3))
        print(f"{label:<44} {wall:7.0f} µs {here:9.0f} µs {server:9.0f} µs")
    for conn, _cur in conns.values():
        conn.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
