"""CPU, statements and server waits per timer firing, in one process (issue 21): N cases with a
boundary deadline (tests/support/diagrams.deadline_flow), one clock move, then `fire_due` as a
worker runs it, measured after a warm-up lot. With --profile, cProfile with a CPU clock.

    python -m bench.profile_timers --db postgresql+psycopg://USER:PW@HOST:PORT/NAME [--timers 500] [--profile]

The database `<NAME>_tprof` is created and dropped. Not a test; figures in bench/RESULTS.md ("Timers").
"""
from __future__ import annotations

import argparse
import collections
import cProfile
import gc
import os
import pstats
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from .common import ROOT
from .pg_common import DEFAULT_DB, database_url, drop_database_or_say, installation
from .pg_cpu import BackendCpu
from .pg_timers import AFTER_EVERY_DEADLINE


def _sampler(path: str):
    """py-spy sampling this process while it holds the GIL (its CPU, not its waits). cProfile's per-call
    cost multiplies the library's many small calls tenfold, which skews its shares; a sampler does not.
    Started before the measured firings (it takes a moment to attach), stopped after them."""
    spy = subprocess.Popen([str(Path(sys.executable).with_name("py-spy")), "record", "--pid", str(os.getpid()),
                            "--rate", "500", "--format", "raw", "--output", path, "--nonblocking", "--gil"],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(1.5)
    return spy


class _GcClock:
    """The cyclic collector's runs while the firings ran, and their wall time, per generation
    (gc.callbacks): a collection runs with the GIL held, so its time is the worker's CPU."""

    def __init__(self):
        self.runs, self.seconds, self._started = [0, 0, 0], [0.0, 0.0, 0.0], 0.0
        gc.callbacks.append(self._on)

    def _on(self, phase: str, info: dict) -> None:
        if phase == "start":
            self._started = time.perf_counter()
        else:
            self.runs[info["generation"]] += 1
            self.seconds[info["generation"]] += time.perf_counter() - self._started

    def stop(self) -> None:
        gc.callbacks.remove(self._on)

    def summary(self, fired: int) -> str:
        per = sum(self.seconds) / max(fired, 1) * 1000
        return (", ".join(f"generation {g}: {n} runs, {s * 1000:.0f} ms" for g, (n, s) in
                          enumerate(zip(self.runs, self.seconds))) + f"; {per:.3f} ms per firing")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.profile_timers", description=__doc__.split("\n")[0])
    parser.add_argument("--db", default=DEFAULT_DB)
    parser.add_argument("--timers", type=int, default=500)
    parser.add_argument("--batch", type=int, default=None, help="timers per lot [the worker's]")
    parser.add_argument("--profile", action="store_true", help="cProfile (CPU clock) the firings")
    parser.add_argument("--sample", metavar="FILE", help="py-spy samples of the firings into FILE (collapsed stacks, one line per stack and count)")
    parser.add_argument("--sort", default="cumulative")
    parser.add_argument("--top", type=int, default=40)
    parser.add_argument("--freeze", action="store_true",
                        help="gc.freeze() once the engine is warm, as `tramite serve` and `tramite worker` do")
    args = parser.parse_args(argv)
    os.chdir(ROOT)
    os.environ.setdefault("TRAMITE_PROCESSES_DIR", str(ROOT / "processes"))
    import psycopg
    from sqlalchemy import event

    from engine.commands.cases import start_case
    from engine.commands.timers import lease_due_timers
    from engine.config.clock import parse_instant
    from engine.config.settings import timer_lease
    from engine.identity.actor import SYSTEM
    from engine.worker import BATCH, _fire_leased, fire_due
    from tests.support.diagrams import deadline_flow

    url = database_url(args.db, "tprof")
    inst = installation(url, Path(tempfile.mkdtemp(prefix="tramite-tprof-")))
    try:
        inst.deploy("test_deadline", deadline_flow())
        engine = inst.engine
        warm = 40
        for _ in range(args.timers + warm):
            engine.execute(start_case, SYSTEM, "test_deadline", {})
        engine.execute(lambda ctx: engine.clock.move_to(ctx.conn, parse_instant(AFTER_EVERY_DEADLINE)), SYSTEM)
        statements: collections.Counter = collections.Counter()
        waits = [0]
        wait = psycopg.Connection.wait

        def counted_wait(self, *a, **k):
            waits[0] += 1
            return wait(self, *a, **k)

        psycopg.Connection.wait = counted_wait
        event.listen(engine.db.write_engine, "before_cursor_execute",
                     lambda _c, _cur, statement, *_a: statements.update([" ".join(statement.split())[:70]]))
        _fire_leased(engine, engine.execute(lease_due_timers, SYSTEM, "warm-up", warm, timer_lease()))
        statements.clear()
        waits[0] = 0
        if args.freeze:
            gc.collect()
            gc.freeze()
        collector = _GcClock()
        server = BackendCpu(engine.db.write_engine)
        profile = cProfile.Profile(time.process_time)
        spy = _sampler(args.sample) if args.sample else None
        cpu0, wall0 = time.process_time(), time.perf_counter()
        if args.profile:
            profile.enable()
        fired = fire_due(engine, "profile", batch=args.batch or BATCH)
        if args.profile:
            profile.disable()
        cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
        if spy is not None:
            spy.send_signal(signal.SIGINT)
            spy.wait()
        server_s = server.seconds()
        collector.stop()
        psycopg.Connection.wait = wait
        print(f"fired {fired}: per firing {cpu / fired * 1000:.2f} ms CPU here + {server_s / fired * 1000:.2f} ms "
              f"server, wall {wall / fired * 1000:.2f} ms; {sum(statements.values()) / fired:.2f} statements and "
              f"{waits[0] / fired:.2f} server waits per firing; load {os.getloadavg()[0]:.2f}; "
              f"server {server.durability()}")
        print(f"the cyclic garbage collector: {collector.summary(fired)}")
        for statement, n in statements.most_common():
            print(f"  {n / fired:6.2f}  {statement}")
        if args.profile:
            pstats.Stats(profile).sort_stats(args.sort).print_stats(args.top)
    finally:
        inst.close()
        drop_database_or_say(url)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
