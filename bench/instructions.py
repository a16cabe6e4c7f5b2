"""Instructions per engine case, counted by valgrind's callgrind: a figure the machine does not move (issue 21).

On these shared 2-core machines a case's CPU time moves 10-20 % between runs of the same code, so a
change worth 1 % cannot be seen in time. The instructions the client executes for an engine case
(start + complete of bench/diagram.py's case, on PostgreSQL or SQLite) are the same to ~0.1 % from
run to run, whatever else the machine does. Each code runs twice under callgrind, with 0 and with N
measured cases after the same warm-up (imports, connections, compiled statements, the library's
caches); the difference divided by N is its figure. With --before, another checkout is counted the
same way on a database of its own, and the two are set side by side.

    python -m bench.instructions --db postgresql+psycopg://USER:PW@HOST:PORT/NAME [--cases 100] [--before CHECKOUT]

Needs valgrind (`apt-get install valgrind`). The database server's work is another process and is not
counted: read its CPU with bench.engine. Databases `<NAME>_instr` (and `<NAME>_instr_before`) are
created and dropped. A run takes 1-2 minutes (Python under callgrind runs ~40x slower); two run at once.
Not a test; figures in bench/RESULTS.md.
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from .common import ROOT
from .pg_common import DEFAULT_DB, database_url, drop_database_or_say

# Run by the checkout's own Python path, so that an older checkout (without this module) runs its own
# engine: a negative count builds the database, else a warm-up and then the counted cases.
_CHILD = """
import gc, sys
from pathlib import Path
from bench.engine_cases import build_engine, engine_case
from bench.common import WARMUP
from bench.diagram import ROLE
url, count = sys.argv[1], int(sys.argv[2])
if count < 0:
    eng, _ = build_engine(Path(sys.argv[3]), url=None if url.startswith("sqlite") else url)
else:
    from engine.bootstrap import make_engine
    from engine.identity.actor import Actor
    eng = make_engine(url)
    actor = Actor("bench", frozenset({ROLE}))
    for _ in range(WARMUP):
        engine_case(eng, actor)
    gc.freeze()  # as `tramite serve` and `tramite worker` do once warm
    for _ in range(count):
        engine_case(eng, actor)
eng.db.dispose()
"""
_COLLECTED = re.compile(r"Collected : (\d+)")


def _child(code: Path, url: str, count: int, workdir: Path, counted: bool) -> int | None:
    env = {**os.environ, "PYTHONPATH": str(code), "PYTHONHASHSEED": "0",
           "TRAMITE_PROCESSES_DIR": str(code / "processes")}
    command = [sys.executable, "-c", _CHILD, url, str(count), str(workdir)]
    if counted:
        command = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={workdir}/callgrind.%p", *command]
    done = subprocess.run(command, cwd=code, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"{code}: the cases failed:\n{done.stderr[-3000:]}")
    if not counted:
        return None
    found = _COLLECTED.findall(done.stderr)
    if not found:
        raise SystemExit(f"{code}: callgrind said no total:\n{done.stderr[-2000:]}")
    return int(found[-1])


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.instructions", description=__doc__.split("\n")[0])
    parser.add_argument("--db", default=DEFAULT_DB, help="a PostgreSQL URL, or 'sqlite' for a file database")
    parser.add_argument("--cases", type=int, default=100, help="counted cases per code [100]")
    parser.add_argument("--before", metavar="CHECKOUT", help="another checkout, counted the same way")
    args = parser.parse_args(argv)
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed (apt-get install valgrind)")
    codes = {"this checkout": ROOT}
    if args.before:
        codes["before"] = Path(args.before).resolve()
    workdir = Path(tempfile.mkdtemp(prefix="tramite-instr-"))
    urls = {}
    for label, code in codes.items():
        suffix = "instr" if label == "this checkout" else "instr_before"
        # build_engine makes a SQLite database as tramite.db in the folder it is given
        urls[label] = (f"sqlite:///{workdir / suffix / 'tramite.db'}" if args.db == "sqlite"
                       else database_url(args.db, suffix))
        (workdir / suffix).mkdir()
        _child(code, urls[label], -1, workdir / suffix, counted=False)
    try:
        # Two at once on PostgreSQL; one at a time on SQLite, whose writers would wait on each other.
        with ThreadPoolExecutor(1 if args.db == "sqlite" else 2) as pool:
            runs = {(label, n): pool.submit(_child, code, urls[label], n, workdir, True)
                    for label, code in codes.items() for n in (0, args.cases)}
            totals = {key: run.result() for key, run in runs.items()}
    finally:
        if args.db != "sqlite":
            for url in urls.values():
                drop_database_or_say(url)
        shutil.rmtree(workdir, ignore_errors=True)
    per_case = {label: (totals[(label, args.cases)] - totals[(label, 0)]) / args.cases for label in codes}
    for label, count in per_case.items():
        print(f"{label:>14}: {count / 1e6:8.3f} M instructions per case (start + complete, client only; "
              f"{args.cases} cases, the warm-up's {totals[(label, 0)] / 1e9:.2f} G subtracted)")
    if args.before:
        change = per_case["this checkout"] / per_case["before"] - 1
        print(f"{'change':>14}: {change:+.1%} against the checkout before")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
