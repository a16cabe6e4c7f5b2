"""`tramite serve`: gunicorn embedded, with one timer worker thread in each HTTP worker process."""
from __future__ import annotations

import os

from gunicorn.app.base import BaseApplication

ACCESS_LOG_FORMAT = '%(h)s "%(r)s" %(s)s %(b)s %(M)sms'
# Short enough that Ctrl-C or a service stop feels immediate; long enough for a slow request.
GRACEFUL_TIMEOUT = 8
TIMER_JOIN_TIMEOUT = 5.0


def worker_tmp_dir() -> str | None:
    """Where a worker touches its heartbeat file (once per event loop turn, so several times per
    request): in memory when the machine has /dev/shm, not on the disk's journal."""
    return "/dev/shm" if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK) else None


def _start_timer_worker(worker) -> None:
    from engine.worker import TimerWorker
    timer = TimerWorker(worker.wsgi.extensions["tramite"])
    timer.start()
    worker.tramite_timer = timer


def _stop_timer_worker(_server, worker) -> None:
    timer = getattr(worker, "tramite_timer", None)
    if timer is not None:
        timer.stop()
        timer.join(TIMER_JOIN_TIMEOUT)


class TramiteServer(BaseApplication):
    """Gunicorn configured in code: no config file or GUNICORN_CMD_ARGS changes what `serve` does."""

    def __init__(self, *, host: str, port: int, workers: int, threads: int, timer_worker: bool):
        self.options = {
            "bind": f"{host}:{port}", "workers": workers, "threads": threads, "worker_class": "gthread",
            "accesslog": "-", "access_log_format": ACCESS_LOG_FORMAT, "errorlog": "-", "loglevel": "info",
            "graceful_timeout": GRACEFUL_TIMEOUT, "proc_name": "tramite",
            # The default socket path is per user, so two servers on one machine would fight over it.
            "control_socket_disable": True, "worker_tmp_dir": worker_tmp_dir(),
        }
        timers = "a timer worker in each" if timer_worker else "no timer worker"
        # Printed once the socket listens, so the line is never a promise a busy port breaks.
        banner = (f"serving http://{host}:{port}/ ({workers} worker(s) x {threads} threads, {timers}); "
                  "Ctrl-C stops")
        self.options["when_ready"] = lambda _server: print(banner, flush=True)
        if timer_worker:
            self.options.update(post_worker_init=_start_timer_worker, worker_exit=_stop_timer_worker)
        super().__init__()

    def load_config(self):
        for key, value in self.options.items():
            self.cfg.set(key, value)

    def load(self):
        # Each worker builds its own app and database pool after the fork.
        from api.wsgi import application
        return application()
