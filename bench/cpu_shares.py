"""Who spent a benchmark's CPU on this machine (issue 21): the gunicorn workers, the PostgreSQL
primary's processes (backends, WAL writer, WAL sender…), its replica's, the benchmark's own client
threads, and everything else on the machine, each read from /proc before and after the measured
interval. On 2 shared cores the clients and the database are part of the budget the HTTP target
was set on, so a figure per case for each says which one a change has to come out of."""
from __future__ import annotations

import os
import re
import time
from pathlib import Path

TICKS = os.sysconf("SC_CLK_TCK")


def _stat(pid: int) -> list[str] | None:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None


def process_cpu(pid: int, *, reaped_children: bool = False) -> float:
    """utime + stime of `pid` (and, with reaped_children, of its children already waited for)."""
    fields = _stat(pid)
    if fields is None:
        return 0.0
    ticks = int(fields[11]) + int(fields[12])
    if reaped_children:
        ticks += int(fields[13]) + int(fields[14])
    return ticks / TICKS


def children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            fields = _stat(int(entry.name))
            if fields is not None and int(fields[1]) == pid:
                found.append(int(entry.name))
    return found


def cluster_cpu(postmaster: int | None) -> float:
    """Every process of one PostgreSQL cluster: its postmaster, the live children, the reaped ones."""
    if not postmaster:
        return 0.0
    return process_cpu(postmaster, reaped_children=True) + sum(process_cpu(c) for c in children(postmaster))


def postmaster_of(port: int | None) -> int | None:
    """The postmaster listening on `port` on this machine: the `postgres -D DIR` process whose
    DIR/postmaster.pid names that port (its fourth line), so that no database privilege is needed."""
    if not port:
        return None
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            pid = int(entry.name)
            fields = _stat(pid)
            if fields is None or int(fields[1]) != 1 or "postgres" not in _cmdline(pid):
                continue
            if _port_of(pid) == str(port):
                return pid
    return None


def replica_postmaster(primary: int | None) -> int | None:
    """The postmaster of a replica streaming from `primary`, found by its WAL receiver's parent: the
    benchmark knows only the primary's URL."""
    if not primary or not any("walsender" in _cmdline(c) for c in children(primary)):
        return None
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and "walreceiver" in _cmdline(int(entry.name)):
            fields = _stat(int(entry.name))
            parent = int(fields[1]) if fields else None
            if parent and parent != primary and _streams_from(parent, primary):
                return parent
    return None


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


def _streams_from(replica: int, primary: int) -> bool:
    # Several helpers' pairs run side by side: the replica whose data directory names the primary's
    # port in its primary_conninfo is ours.
    port = _port_of(primary)
    data = _data_dir_of(replica)
    if not port or not data:
        return False
    for name in ("postgresql.auto.conf", "postgresql.conf"):
        try:
            if re.search(rf"\bport={port}\b", Path(data, name).read_text()):
                return True
        except OSError:
            continue
    return False


def _data_dir_of(pid: int) -> str | None:
    parts = _cmdline(pid).split()
    for i, part in enumerate(parts):
        if part == "-D" and i + 1 < len(parts):
            return parts[i + 1]
    try:
        return os.readlink(f"/proc/{pid}/cwd")
    except OSError:
        return None


def _port_of(postmaster: int) -> str | None:
    data = _data_dir_of(postmaster)
    try:
        return Path(data, "postmaster.pid").read_text().split("\n")[3].strip() if data else None
    except (OSError, IndexError):
        return None


def machine_cpu() -> float:
    """CPU seconds every core spent busy (user, nice, system, irq, softirq, steal) so far."""
    fields = Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]
    busy = [int(fields[i]) for i in (0, 1, 2, 5, 6, 7)]
    return sum(busy) / TICKS


class CpuShares:
    """Snapshots of each group's CPU; `per_case(n)` gives ms per case for each since `start()`."""

    def __init__(self, workers: list[int], primary: int | None):
        self.workers, self.primary = workers, primary
        self.replica = replica_postmaster(primary)

    def _read(self) -> dict[str, float]:
        return {"server (gunicorn workers)": sum(process_cpu(p) for p in self.workers),
                "PostgreSQL primary": cluster_cpu(self.primary),
                "PostgreSQL replica": cluster_cpu(self.replica),
                "clients (this process)": time.process_time(),
                "machine": machine_cpu()}

    def start(self) -> None:
        self.before = self._read()

    def per_case(self, cases: int) -> dict[str, float]:
        after = self._read()
        used = {k: after[k] - self.before[k] for k in after}
        ours = sum(v for k, v in used.items() if k != "machine")
        used["everything else on the machine"] = max(used.pop("machine") - ours, 0.0)
        return {k: v / max(cases, 1) * 1000 for k, v in used.items()}
