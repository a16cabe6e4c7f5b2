"""Migration throughput (issue 20; a benchmark, not a test): running cases moved from one version to
the next, each in its own transaction.

    cd /work/main && .venv/bin/python -m bench.migration [--cases 500]

Every case waits on the bench diagram's user task (start → prepare → route → review); version 2
renames the task and changes the finishing script. Prints cases/s for the preview (dry run) and the
run, and checks every case finishes on version 2 afterwards.
"""
from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

from .common import log
from .diagram import COMPLETE_DATA, KEY, ROLE, bench_files
from .engine_cases import _copy_catalogues, build_engine


def version_two() -> dict:
    files = bench_files()
    files["bench.bpmn"] = files["bench.bpmn"].replace('name="Revisar"', 'name="Revisar la solicitud"').replace(
        "stage = 'DONE'", "stage = 'DONE'\nmigrated = True")
    return files


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.migration", description=__doc__.split("\n")[0])
    parser.add_argument("--cases", type=int, default=500)
    args = parser.parse_args(argv)
    from engine.commands.cases import start_case
    from engine.commands.deploy import deploy
    from engine.commands.migrations import migrate_cases
    from engine.commands.tasks import complete
    from engine.identity.actor import SYSTEM, Actor

    with tempfile.TemporaryDirectory(prefix="tramite-bench-migration-") as tmp:
        tmp = Path(tmp)
        _copy_catalogues(tmp / "processes")
        os.environ["TRAMITE_PROCESSES_DIR"] = str(tmp / "processes")
        os.environ.setdefault("TRAMITE_DATA_DIR", str(tmp / "data"))
        eng, url = build_engine(tmp)
        clerk = Actor("bench", frozenset({ROLE}))
        log(f"starting {args.cases} cases on {url.split(':')[0]} ...")
        tasks = [eng.execute(start_case, clerk, KEY, {})["open_tasks"][0]["id"] for _ in range(args.cases)]
        eng.execute(deploy, SYSTEM, KEY, version_two())
        t0 = time.perf_counter()
        preview = migrate_cases(eng, SYSTEM, KEY, 1, 2, dry_run=True)
        t1 = time.perf_counter()
        result = migrate_cases(eng, SYSTEM, KEY, 1, 2)
        t2 = time.perf_counter()
        assert len(preview["migrated"]) == len(result["migrated"]) == args.cases and not result["blocked"]
        for task_id in tasks:
            done = eng.execute(complete, clerk, task_id, dict(COMPLETE_DATA))["instance"]
            assert done["version"] == 2 and done["variables"].get("migrated") is True
        log(f"preview (dry run): {args.cases / (t1 - t0):.0f} cases/s ({t1 - t0:.2f} s)")
        log(f"migration:         {args.cases / (t2 - t1):.0f} cases/s ({t2 - t1:.2f} s)")
        log("every migrated case finished on version 2")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
