"""The CPU a PostgreSQL server spends for a benchmark: the backends serving one engine's connections,
read from /proc (the server runs on this machine), so a figure can say what a case costs both sides."""
from __future__ import annotations

import os

from sqlalchemy import text

_TICK = os.sysconf("SC_CLK_TCK")


def _cpu_seconds(pid: int) -> float:
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:  # a backend that ended (its connection was closed) counts no more
        return 0.0
    return (int(fields[11]) + int(fields[12])) / _TICK  # utime + stime


class BackendCpu:
    """Backends of the database `engine` connects to, counted from now: `seconds()` is the CPU they
    used since. Made after a warm-up, when the pool holds the connections the measured run uses."""

    def __init__(self, engine):
        self.engine = engine
        with engine.connect() as conn:
            self.database = conn.execute(text("SELECT current_database()")).scalar()
        self.pids = self._pids()
        self.start = {pid: _cpu_seconds(pid) for pid in self.pids}

    def _pids(self) -> list[int]:
        with self.engine.connect() as conn:
            return list(conn.execute(text("SELECT pid FROM pg_stat_activity WHERE datname = :d"),
                                     {"d": self.database}).scalars())

    def seconds(self) -> float:
        pids = set(self._pids()) | set(self.pids)
        return sum(max(0.0, _cpu_seconds(pid) - self.start.get(pid, 0.0)) for pid in pids)

    def durability(self) -> dict:
        with self.engine.connect() as conn:
            return {name: conn.execute(text(f"SHOW {name}")).scalar() for name in ("fsync", "synchronous_commit")}
