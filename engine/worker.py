"""The timer worker loop, built on the timer commands (a manual clock move is engine.commands.clock's)."""
from __future__ import annotations

import logging
import os
import socket
import threading
import time

from engine.commands.legal_time import resume_due
from engine.commands.timer_lot import fire_timers
from engine.commands.timers import fire_timer, lease_due_timers, record_failure
from engine.identity.actor import SYSTEM
from engine.errors import DatabaseUnavailable, EngineError
from engine.commands import reminders
from engine.commands.notifications import deliver_outbox
from engine.registries.notifications import SmtpSettings
from engine.config.settings import timer_lease
from engine.reporting import list_totals, rollup as report_rollup
from engine.runtime.number_holes import HoleFinder

log = logging.getLogger("tramite.timers")


def worker_name() -> str:
    return f"{socket.gethostname()}:{os.getpid()}:{threading.get_ident()}"


def _fire_safely(engine, timer_id: int, now=None) -> bool:
    try:
        return engine.execute(fire_timer, SYSTEM, timer_id, now=now)
    except DatabaseUnavailable:
        # Not the timer's failure, and not one of its attempts: the round ends here, and the timer
        # fires once its lease runs out after the database is back.
        raise
    except EngineError as exc:
        engine.execute(record_failure, SYSTEM, timer_id, exc.message)
    except Exception as exc:  # a worker must survive anything one case throws at it
        log.exception("timer %s failed", timer_id)
        engine.execute(record_failure, SYSTEM, timer_id, f"{type(exc).__name__}: {exc}")
    return False


# Timers leased, and then fired, per transaction. A commit is a WAL flush (synchronous_commit=on),
# so one per timer was most of a firing's cost; the lot's case rows stay locked until its commit,
# so a clerk acting on one of those cases waits at most one batch (a few tenths of a second).
BATCH = 32


def fire_due(engine, owner: str | None = None, batch: int = BATCH, lease=None) -> int:
    """Lease and fire the timers due now; returns how many fired."""
    owner = owner or worker_name()
    lease = lease or timer_lease()
    fired = 0
    while True:
        ids = engine.execute(lease_due_timers, SYSTEM, owner, batch, lease)
        if not ids:
            return fired
        fired += _fire_leased(engine, ids)
        if len(ids) < batch:
            return fired


def _fire_leased(engine, ids: list[int]) -> int:
    """The leased lot in one transaction; if anything in it fails (a case's error, two workers
    meeting on one case's rows) the lot rolls back whole, and each is fired on its own, so the
    failing one is recorded against its timer and the others still fire."""
    if len(ids) > 1:
        try:
            return engine.execute(fire_timers, SYSTEM, ids)
        except DatabaseUnavailable:
            raise  # one by one would only meet it again
        except Exception as exc:  # noqa: BLE001 - handled one by one just below
            log.info("a batch of %d timers rolled back (%s); firing them one by one", len(ids), exc)
    return sum(1 for timer_id in ids if _fire_safely(engine, timer_id))


def work_round(engine, owner: str | None = None, lease=None, smtp: SmtpSettings | None = None,
               remind: bool = True) -> dict:
    """One round of the background worker: fire what is due, send the task reminders due (when
    `remind`), then hand pending e-mail notices to the SMTP transport when one is configured (off by
    default and in the demo)."""
    resume_due(engine, engine.now())  # a suspension that ends by itself: its deadlines move first
    fired = fire_due(engine, owner, lease=lease)
    reminded = reminders.run(engine) if remind else {}  # before the outbox, so this round sends them
    sent = engine.execute(deliver_outbox, SYSTEM, smtp) if smtp is not None else {"transport": "off"}
    return {"fired": fired, "reminders": reminded, **sent}


REMINDERS_EVERY_SECONDS = 60
# The report's finished days are rolled up (engine/reporting/rollup.py) this often; the days
# since are read raw, so a late round costs the report time; a rolled day whose facts changed
# since (a case moved office, a past deadline settled late) is rebuilt at the next round.
ROLLUP_EVERY_SECONDS = 300


def roll_up_reports(engine) -> dict:
    return engine.execute(report_rollup.roll_up, SYSTEM)


class TimerWorker(threading.Thread):
    """Polls for due timers until stopped; several may run against one PostgreSQL."""

    def __init__(self, engine, interval: float = 1.0):
        super().__init__(name="tramite-timer-worker", daemon=True)
        self.engine = engine
        self.interval = interval
        self.lease = timer_lease()  # read at start, so a bad setting stops the worker at once
        self.smtp = SmtpSettings.from_env()
        self._stop_event = threading.Event()
        self.holes = HoleFinder()

    def run(self) -> None:
        owner = worker_name()
        last_reminders = last_rollup = None
        while not self._stop_event.is_set():
            # Reminders are about days, so once a minute is enough, and spares the database the
            # look-up of every task due within the notice period at each one-second round.
            remind = last_reminders is None or time.monotonic() - last_reminders >= REMINDERS_EVERY_SECONDS
            last_reminders = time.monotonic() if remind else last_reminders
            try:
                work_round(self.engine, owner, self.lease, self.smtp, remind=remind)
                list_totals.fold_round(self.engine)  # the lists' kept totals folded (0031)
                self.holes.round(self.engine)  # case numbers drawn and never used (0035)
            except DatabaseUnavailable:
                log.warning("timer worker round: the database is unavailable; trying again in %.1f s", self.interval)
            except Exception:
                log.exception("timer worker round failed")
            if last_rollup is None or time.monotonic() - last_rollup >= ROLLUP_EVERY_SECONDS:
                last_rollup = time.monotonic()
                try:
                    roll_up_reports(self.engine)
                except Exception:
                    log.exception("report roll-up failed")
            self._stop_event.wait(self.interval)

    def stop(self) -> None:
        self._stop_event.set()
