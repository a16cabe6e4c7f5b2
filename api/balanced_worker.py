"""gunicorn's gthread worker, taking a new connection only while it holds no more connections than
the least loaded of its sibling workers.

Every worker of a gunicorn server accepts from the one listening socket whenever it is readable, so
which worker gets a connection is a race, and a kept-alive connection stays with the worker that won
it. Seen under issue 21's benchmark: the 8 clients' connections landed 6 / 2 on the two workers, so
one process, one interpreter lock, carried three quarters of the requests while the other had little
to do, and two workers were no faster than one (the split changed from run to run, and the figures
with it). An API client, or a proxy that keeps its upstream connections alive, meets the same.

Each worker writes how many connections it holds into memory the master shares with its children
(made before the workers fork); a worker stops listening while it holds more than the least loaded
live sibling, so new connections go to the workers holding fewest. Each looks again when a
connection is offered (a sibling may have let some go while this one, idle, had no turn) and, while
it does not listen, every BALANCE_RECHECK seconds. A slot whose worker died (a killed worker not yet
replaced) is dropped when it would stop another from accepting."""
from __future__ import annotations

import ctypes
import multiprocessing
import os

from gunicorn.workers.gthread import ThreadWorker

# Seconds between two looks of a worker that stopped listening for balance (about 100 wake-ups a
# second while it waits, a few µs each).
BALANCE_RECHECK = 0.01
# Logged by each worker once it takes part: until then its siblings take every connection (a client
# connecting to a server still booting may stay with the first worker ready).
READY = "Taking connections"


class Loads:
    """(pid, connections held) per slot, shared by the master's children; twice as many slots as
    workers, so a replacement finds a slot while the worker it replaces is still being reaped."""

    def __init__(self, workers: int):
        size = max(2, 2 * workers)
        self.pids = multiprocessing.RawArray(ctypes.c_long, size)
        self.conns = multiprocessing.RawArray(ctypes.c_long, size)
        self.lock = multiprocessing.Lock()

    def claim(self, pid: int) -> int:
        """A free slot (or a dead worker's) for `pid`; -1 when none is (the worker then takes part in
        no balancing: it accepts as gunicorn's own)."""
        with self.lock:
            for i, holder in enumerate(self.pids):
                if holder == 0 or not _alive(holder):
                    self.pids[i], self.conns[i] = pid, 0
                    return i
        return -1

    def fewest_elsewhere(self, slot: int) -> int | None:
        """The fewest connections a live sibling holds, or None without one."""
        while True:
            fewest, holder = None, -1
            for i, pid in enumerate(self.pids):
                if pid and i != slot and (fewest is None or self.conns[i] < fewest):
                    fewest, holder = self.conns[i], i
            if fewest is None or fewest >= self.conns[slot] or _alive(self.pids[holder]):
                return fewest
            self.pids[holder] = 0  # a dead worker's slot would hold the others back: dropped


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)  # no signal sent: only whether the process exists
    except ProcessLookupError:
        return False
    except PermissionError:  # exists, another user's
        pass
    return True


class BalancedThreadWorker(ThreadWorker):
    """gthread with `nr_conns` published and `worker_connections` capped at one more than the
    least loaded sibling's count (gunicorn's loop listens while nr_conns < worker_connections)."""

    loads: Loads | None = None  # set in the master (api/server.py), inherited by the forked workers
    _slot = -1
    _held = 0
    _limit = 1000

    def run(self):
        # Here, once the app is loaded: a worker still booting would hold the others back, taking
        # no connection itself.
        if self.loads is not None:
            self._slot = self.loads.claim(os.getpid())
            if self._slot >= 0:
                self.loads.conns[self._slot] = self._held
                self.log.info("%s (balanced with its siblings, slot %d)", READY, self._slot)
        super().run()

    def accept(self, listener):
        # The loop decided to listen at its last turn; a sibling may have let connections go since
        # (this worker, idle, had no turn): looked at again here, where it decides who gets one.
        if self._slot >= 0 and self._held >= self.worker_connections:
            self.set_accept_enabled(False)
            return
        super().accept(listener)

    def wait_for_and_dispatch_events(self, timeout):
        # A worker that stopped listening because a sibling held fewer connections learns that the
        # sibling caught up only by looking again: it looks every BALANCE_RECHECK seconds, not at
        # gunicorn's 1 s (which stalled new connections a second while every worker waited).
        if self._slot >= 0 and not self._accepting and self._held < self._limit:
            timeout = min(timeout, BALANCE_RECHECK)
        super().wait_for_and_dispatch_events(timeout)

    @property
    def nr_conns(self) -> int:
        return self._held

    @nr_conns.setter
    def nr_conns(self, value: int) -> None:
        self._held = value
        if self._slot >= 0:
            self.loads.conns[self._slot] = value

    @property
    def worker_connections(self) -> int:
        if self._slot < 0:
            return self._limit
        fewest = self.loads.fewest_elsewhere(self._slot)
        return self._limit if fewest is None else min(self._limit, fewest + 1)

    @worker_connections.setter
    def worker_connections(self, value: int) -> None:
        self._limit = value
