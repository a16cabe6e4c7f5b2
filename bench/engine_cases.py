"""(c): Tramite's engine commands on SQLite (and on PostgreSQL with --db), and the loop cost through them."""
from __future__ import annotations

import shutil
import time

from pathlib import Path

from .common import LOOP_KEY, LOOP_ROLE, PASSWORD, ROOT, USERNAME, WARMUP, Slices, pct, window_medians
from .diagram import COMPLETE_DATA, KEY, ROLE, bench_files, loop_files

def _copy_catalogues(target: Path) -> None:
    target.mkdir(parents=True, exist_ok=True)
    for name in ("roles.json", "parameters.json"):
        shutil.copy(ROOT / "processes" / name, target / name)


def build_engine(workdir: Path, *, user: bool = False, loop: bool = False, url: str | None = None):
    """A fresh database (SQLite in `workdir`, or the PostgreSQL `url`, recreated): migrations, seed,
    role bench_clerk, the bench diagram deployed."""
    from engine.commands import accounts
    from engine.bootstrap import prepare
    from engine.commands.deploy import deploy
    from engine.identity.actor import SYSTEM
    from engine.bootstrap import make_engine

    if url is None:
        url = f"sqlite:///{workdir / 'tramite.db'}"
    else:
        from .pg_common import recreate_database
        recreate_database(url)
    eng = make_engine(url)
    eng.db.upgrade()
    prepare(eng, upgrade=False)

    def seed(ctx):
        accounts.add_role(ctx, ROLE, "Oficinista (banco de pruebas)", "Bench clerk")
        if loop:
            accounts.add_role(ctx, LOOP_ROLE, "Oficinista de prueba", "Test clerk")
        if user:
            accounts.create_user(ctx, USERNAME, PASSWORD, [ROLE], full_name="Bench User")
    eng.execute(seed, SYSTEM)
    eng.execute(deploy, SYSTEM, KEY, bench_files())
    if loop:
        eng.execute(deploy, SYSTEM, LOOP_KEY, loop_files())
    return eng, url


def engine_case(eng, actor, timings: dict | None = None) -> None:
    from engine.commands.cases import start_case
    from engine.commands.tasks import complete

    t0 = time.perf_counter()
    case = eng.execute(start_case, actor, KEY, {})
    t1 = time.perf_counter()
    (task,) = case["open_tasks"]
    result = eng.execute(complete, actor, task["id"], dict(COMPLETE_DATA))
    t2 = time.perf_counter()
    assert result["instance"]["status"] == "completed", result["instance"]
    if timings is not None:
        timings["start"].append(t1 - t0)
        timings["complete"].append(t2 - t1)


class EngineCases(Slices):
    """(c) in slices (start + complete one after another), to interleave with (b) (bench.raw.RawCases);
    on PostgreSQL (`url`) also the CPU the server backends serving it spent (idle while another slice
    runs) and the durability."""

    def __init__(self, workdir: Path, url: str | None = None):
        from engine.identity.actor import Actor

        super().__init__()
        self.eng, _ = build_engine(workdir, url=url)
        self.actor = Actor("bench", frozenset({ROLE}))
        self.timings: dict | None = None  # the warm-up's cases are not timed
        for _ in range(WARMUP):
            self.one()
        self.timings = {"start": [], "complete": []}
        self.server = None
        if url is not None:
            from .pg_cpu import BackendCpu
            self.server = BackendCpu(self.eng.db.write_engine)

    def one(self) -> None:
        engine_case(self.eng, self.actor, self.timings)

    def result(self) -> dict:
        extra = ({} if self.server is None else
                 {"server_cpu_s": self.server.seconds(), "durability": self.server.durability()})
        return {**super().result(), **extra,
                "latency": {k: (pct(v, 50), pct(v, 95)) for k, v in self.timings.items()}}

    def close(self) -> None:
        self.eng.db.dispose()


def bench_loop_engine(rounds: int, workdir: Path) -> dict:
    from engine.commands.cases import start_case
    from engine.commands.tasks import complete
    from engine.identity.actor import Actor

    eng, _ = build_engine(workdir, loop=True)
    actor = Actor("bench_looper", frozenset({LOOP_ROLE}))
    costs: list[float] = []
    try:
        # A short warm-up case first, so that cost@10 is not paid for cold caches (specs, SQL compilation).
        warm = eng.execute(start_case, actor, LOOP_KEY, {"rounds": 0})
        for round_no in range(1, WARMUP + 1):
            warm = eng.execute(complete, actor, warm["open_tasks"][0]["id"], {"done": round_no == WARMUP})["instance"]
        case = eng.execute(start_case, actor, LOOP_KEY, {"rounds": 0})
        started = time.perf_counter()
        for round_no in range(1, rounds + 1):
            (task,) = case["open_tasks"]
            t0 = time.perf_counter()
            result = eng.execute(complete, actor, task["id"], {"done": round_no == rounds})
            costs.append(time.perf_counter() - t0)
            case = result["instance"]
        elapsed = time.perf_counter() - started
    finally:
        eng.db.dispose()
    assert case["status"] == "completed" and case["variables"]["rounds"] == rounds, case["status"]
    return {"rounds": rounds, "seconds": elapsed, "medians": window_medians(costs)}
