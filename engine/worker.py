"""The timer worker loop and manual clock moves, both built on the timer commands."""
from __future__ import annotations

import logging
import os
import socket
import threading

from engine.commands.timers import fire_timer, lease_due_timers, next_due_timer, record_failure
from engine.identity.actor import SYSTEM
from engine.errors import Conflict, EngineError, NotFound
from engine.kernel import access
from engine.registries.notifications import SmtpSettings, deliver_outbox
from engine.config.settings import timer_lease

log = logging.getLogger("tramite.timers")
MAX_FIRINGS_PER_MOVE = 100_000


def worker_name() -> str:
    return f"{socket.gethostname()}:{os.getpid()}:{threading.get_ident()}"


def _fire_safely(engine, timer_id: int, now=None) -> bool:
    try:
        return engine.execute(fire_timer, SYSTEM, timer_id, now=now)
    except EngineError as exc:
        engine.execute(record_failure, SYSTEM, timer_id, exc.message)
    except Exception as exc:  # a worker must survive anything one case throws at it
        log.exception("timer %s failed", timer_id)
        engine.execute(record_failure, SYSTEM, timer_id, f"{type(exc).__name__}: {exc}")
    return False


def fire_due(engine, owner: str | None = None, batch: int = 50, lease=None) -> int:
    """Lease and fire the timers due now; returns how many fired."""
    owner = owner or worker_name()
    lease = lease or timer_lease()
    fired = 0
    while True:
        ids = engine.execute(lease_due_timers, SYSTEM, owner, batch, lease)
        if not ids:
            return fired
        fired += sum(1 for timer_id in ids if _fire_safely(engine, timer_id))
        if len(ids) < batch:
            return fired


def move_clock(engine, actor, target) -> int:
    """Move the manual clock to `target`, firing every timer due on the way at its own instant."""
    if not engine.clock.manual:
        raise NotFound("the clock can be moved only when the server runs with TRAMITE_CLOCK=manual")
    access.require_admin(actor, "move the clock")
    if target < engine.now():
        raise Conflict(f"time never moves backwards: the clock reads {engine.now().isoformat()}",
                       code="CLOCK_BACKWARDS")
    fired = 0
    for _ in range(MAX_FIRINGS_PER_MOVE):
        due = engine.execute(next_due_timer, SYSTEM, target)
        if due is None:
            break
        timer_id, due_at = due
        at = max(due_at, engine.now())

        def step(ctx, timer_id=timer_id, at=at):
            engine.clock.move_to(ctx.conn, at)
            return fire_timer(ctx, timer_id)

        try:
            fired += 1 if engine.execute(step, SYSTEM, now=at) else 0
        except Exception as exc:
            log.exception("timer %s failed during a clock move", timer_id)
            engine.execute(record_failure, SYSTEM, timer_id, str(exc))
    engine.execute(lambda ctx: engine.clock.move_to(ctx.conn, target), actor)
    engine.execute(lambda ctx: ctx.audit("clock_moved", data={"to": target}), actor)
    return fired


def work_round(engine, owner: str | None = None, lease=None, smtp: SmtpSettings | None = None) -> dict:
    """One round of the background worker: fire what is due, then hand pending e-mail notices to
    the SMTP transport when one is configured (off by default and in the demo)."""
    fired = fire_due(engine, owner, lease=lease)
    sent = engine.execute(deliver_outbox, SYSTEM, smtp) if smtp is not None else {"transport": "off"}
    return {"fired": fired, **sent}


class TimerWorker(threading.Thread):
    """Polls for due timers until stopped; several may run against one PostgreSQL."""

    def __init__(self, engine, interval: float = 1.0):
        super().__init__(name="tramite-timer-worker", daemon=True)
        self.engine = engine
        self.interval = interval
        self.lease = timer_lease()  # read at start, so a bad setting stops the worker at once
        self.smtp = SmtpSettings.from_env()
        self._stop_event = threading.Event()

    def run(self) -> None:
        owner = worker_name()
        while not self._stop_event.is_set():
            try:
                work_round(self.engine, owner, self.lease, self.smtp)
            except Exception:
                log.exception("timer worker round failed")
            self._stop_event.wait(self.interval)

    def stop(self) -> None:
        self._stop_event.set()
