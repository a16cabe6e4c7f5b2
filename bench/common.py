"""Settings and small helpers shared by the benchmark modules."""
from __future__ import annotations

import re
import statistics
import threading
import time
from pathlib import Path


ROOT = Path(__file__).resolve().parent.parent
RESULTS = Path(__file__).resolve().parent / "RESULTS.md"
PASSWORD = "bench-secreto-123"
USERNAME = "bench_user"
LOOP_KEY, LOOP_ROLE = "test_loop", "test_clerk"
LOOP_WINDOWS = {10: (6, 15), 100: (96, 105), 1000: (991, 1000)}  # 1-based completion numbers
WARMUP = 10
HTTP_THREADS = 4

# Targets from the issue (item 10).
TARGET_C_OVER_B = 0.50
TARGET_HTTP_CASES_S = 100.0
TARGET_LOOP_RATIO = 2.0


def log(msg: str) -> None:
    print(msg, flush=True)


def shown_command(module: str, argv: list[str]) -> str:
    """The command line a results file quotes, database passwords masked."""
    shown = [re.sub(r"^(postgresql[^:]*://[^:/@]+:)[^@]*@", r"\1***@", a) for a in argv]
    return " ".join([f"cd /work/main && .venv/bin/python -m {module}", *shown])


class Slices:
    """One measurement taken in slices (`run(n)` adds n cases of `one()`), so that a run can
    interleave several and each sees the machine the others see (bench/engine.py)."""

    def __init__(self):
        self.cases, self.seconds, self.cpu = 0, 0.0, 0.0

    def one(self) -> None:
        raise NotImplementedError

    def run(self, n: int) -> None:
        cpu_started, started = time.process_time(), time.perf_counter()
        for _ in range(n):
            self.one()
        self.seconds += time.perf_counter() - started
        self.cpu += time.process_time() - cpu_started
        self.cases += n

    def result(self) -> dict:
        return {"cases": self.cases, "seconds": self.seconds, "cases_s": self.cases / self.seconds, "cpu_s": self.cpu}

    def close(self) -> None:
        """What the measurement holds (a database) let go; nothing by default."""


def pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    k = (len(ordered) - 1) * p / 100
    lo, hi = int(k), min(int(k) + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (k - lo)


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f} ms"


def window_medians(costs: list[float]) -> dict[int, float | None]:
    out = {}
    for label, (first, last) in LOOP_WINDOWS.items():
        window = costs[first - 1:last]
        out[label] = statistics.median(window) if len(window) == last - first + 1 else None
    return out


def run_clients(n_threads: int, work, per_thread) -> tuple[float, list[str]]:
    """Start n_threads threads at one barrier, each calling work(thread_index, i) per_thread times
    (an int, or one count per thread); returns (wall seconds from the barrier, errors)."""
    errors: list[str] = []
    lock = threading.Lock()
    barrier = threading.Barrier(n_threads + 1)

    def body(k: int) -> None:
        barrier.wait()
        for i in range(per_thread if isinstance(per_thread, int) else per_thread[k]):
            try:
                work(k, i)
            except Exception as exc:  # noqa: BLE001 - reported, not hidden
                with lock:
                    errors.append(f"{type(exc).__name__}: {str(exc)[:200]}")

    threads = [threading.Thread(target=body, args=(k,)) for k in range(n_threads)]
    for t in threads:
        t.start()
    barrier.wait()
    started = time.perf_counter()
    for t in threads:
        t.join()
    return time.perf_counter() - started, errors
