"""Throughput benchmark (not a test): raw SpiffWorkflow against Tramite's engine and HTTP API.

    cd /work/main && .venv/bin/python -m bench.engine [--cases N] [--raw-cases N] [--engine-cases N]
                                                      [--http-cases N] [--loop-rounds N] [--no-http]
                                                      [--db postgresql+psycopg://...] [--rounds N]

(a) raw SpiffWorkflow in memory; (b) the same with a JSON save/load (stock serializer) after start
and after completion; (c) Tramite's engine commands on SQLite, start + complete with full audit, and
with --db the same on PostgreSQL (database `<name>_engine_c`, recreated), with the CPU per case of
this process and of the server's backends and the server's fsync/synchronous_commit;
(d) the same flow over HTTP against a live `tramite serve` (1 process, gthread, 4 threads, access log on), with
one client and with 4 concurrent clients; and the cost of one completion after 10, 100 and 1,000
earlier completions in one looping case. One diagram (bench/diagram.py) for (a)-(d).
(a), (b) and (c) run interleaved, in --rounds rounds of a slice of their cases each, so that their
ratios compare one machine: a shared VM's speed moves within minutes.

Prints a table and writes it as Markdown to bench/RESULTS.md.
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

from .common import ROOT, RESULTS, HTTP_THREADS, log, shown_command
from .engine_cases import EngineCases, _copy_catalogues, bench_loop_engine
from .http_flow import bench_http
from .raw import bench_loop_raw
from .report import build_report

# Re-exported for bench.profile_engine.
from .common import PASSWORD, USERNAME, WARMUP  # noqa: E402,F401
from .engine_cases import build_engine, engine_case  # noqa: E402,F401

def _interleaved(args, tmp: Path) -> dict:
    """(a), (b), (c) and, with --db, (c) on PostgreSQL, in `args.rounds` rounds of a slice each, the
    order turned round every other round: each measurement sees the machine the others see (on a
    shared VM the speed moves by 2x within the hour, so a ratio of runs minutes apart measured the
    machine). Each measurement's cases are split evenly over the rounds."""
    from .pg_common import database_url, drop_database
    from .raw import RawCases

    rounds = max(1, args.rounds)
    url = database_url(args.db, "engine_c") if args.db else None
    log(f"(a), (b), (c){' and (c) on PostgreSQL' if url else ''} interleaved in {rounds} rounds: "
        f"{args.raw_cases} raw cases and {args.engine_cases} engine cases each ...")
    (tmp / "c").mkdir()
    runs = {"a": RawCases(with_json=False), "b": RawCases(with_json=True), "c": EngineCases(tmp / "c")}
    try:
        if url:
            (tmp / "c_pg").mkdir()
            runs["c_pg"] = EngineCases(tmp / "c_pg", url)
        sizes = {"a": args.raw_cases, "b": args.raw_cases, "c": args.engine_cases, "c_pg": args.engine_cases}
        for round_no in range(rounds):
            order = list(runs) if round_no % 2 == 0 else list(reversed(runs))
            for key in order:
                n = sizes[key] // rounds + (1 if round_no < sizes[key] % rounds else 0)
                if n:
                    runs[key].run(n)
        results = {key: run.result() for key, run in runs.items()}
    finally:
        for run in runs.values():
            run.close()
        if url:
            drop_database(url)
    for key in runs:
        log(f"    ({key}) {results[key]['cases_s']:.0f} cases/s")
    if url:
        pg = results["c_pg"]
        log(f"    (c) PostgreSQL: CPU per case {pg['cpu_s'] / pg['cases'] * 1000:.2f} ms here + "
            f"{pg['server_cpu_s'] / pg['cases'] * 1000:.2f} ms server; {pg['durability']}")
    return results


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
    parser.add_argument("--rounds", type=int, default=5,
                        help="rounds (a), (b) and (c) are interleaved in, each a slice of their cases [5]")
    parser.add_argument("--no-http", action="store_true", help="skip (d)")
    parser.add_argument("--db", default=None,
                        help="a PostgreSQL URL: (c) on PostgreSQL as well, in database <name>_engine_c")
    parser.add_argument("--no-write", action="store_true", help="do not write bench/RESULTS.md")
    args = parser.parse_args(argv)
    if args.cases:
        args.raw_cases = args.engine_cases = args.http_cases = args.cases
    command = shown_command("bench.engine", argv if argv is not None else sys.argv[1:])

    os.chdir(ROOT)
    total_started = time.perf_counter()
    results: dict = {}
    with tempfile.TemporaryDirectory(prefix="tramite-bench-") as tmp:
        tmp = Path(tmp)
        # The engine reads roles.json / parameters.json from TRAMITE_PROCESSES_DIR: a copy, nothing deployed.
        _copy_catalogues(tmp / "processes")
        os.environ["TRAMITE_PROCESSES_DIR"] = str(tmp / "processes")
        os.environ.setdefault("TRAMITE_DATA_DIR", str(tmp / "data"))

        results.update(_interleaved(args, tmp))
        log(f"loop, engine commands, {args.loop_rounds} completions in one case ...")
        (tmp / "loop").mkdir()
        results["loop_engine"] = bench_loop_engine(args.loop_rounds, tmp / "loop")
        log(f"    {results['loop_engine']['seconds']:.1f} s")
        log(f"loop, raw SpiffWorkflow in memory (budget {args.raw_loop_budget:.0f} s) ...")
        results["loop_raw"] = bench_loop_raw(args.loop_rounds, args.raw_loop_budget)
        log(f"    {results['loop_raw']['completed']} completions in {results['loop_raw']['seconds']:.1f} s")
        if not args.no_http:
            log(f"(d) HTTP against `tramite serve`, {args.http_cases} cases x (1 client, {HTTP_THREADS} clients) ...")
            (tmp / "d").mkdir()
            results["d"] = bench_http(args.http_cases, tmp / "d")
            log(f"    {results['d']['seq']['cases_s']:.1f} / {results['d']['conc']['cases_s']:.1f} cases/s")
    total = time.perf_counter() - total_started
    text, md = build_report(args, results, total, command)
    print()
    print(text)
    print(f"\nwhole run: {total:.0f} s")
    if not args.no_write:
        # Keep the PostgreSQL section that bench.production writes below this run's table.
        old = RESULTS.read_text(encoding="utf-8") if RESULTS.exists() else ""
        marker = old.find("\n## PostgreSQL (issue 8)")
        RESULTS.write_text(md.rstrip("\n") + "\n" + (old[marker:] if marker >= 0 else ""), encoding="utf-8")
        print(f"written to {RESULTS.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
