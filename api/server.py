"""`tramite serve`: gunicorn embedded, with one timer worker thread in each HTTP worker process."""
from __future__ import annotations

import gc
import logging
import os

from gunicorn.app.base import BaseApplication
from gunicorn.glogging import Logger

from api.balanced_worker import BalancedThreadWorker, Loads

ACCESS_LOG_FORMAT = '%(h)s "%(r)s" %(s)s %(b)s %(M)sms'
# Short enough that Ctrl-C or a service stop feels immediate; long enough for a slow request.
GRACEFUL_TIMEOUT = 8
TIMER_JOIN_TIMEOUT = 5.0


def worker_tmp_dir() -> str | None:
    """Where a worker touches its heartbeat file (once per event loop turn, so several times per
    request): in memory when the machine has /dev/shm, not on the disk's journal."""
    return "/dev/shm" if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK) else None


def freeze_loaded_objects(_worker=None) -> None:
    """Move everything the worker holds once its app is built (modules, the URL map, schemas, the
    SQLAlchemy metadata: some 200,000 objects) out of the cyclic collector's reach. A full
    collection walked all of them again and again: 180 ms with the GIL held each time, about 1 ms
    of CPU per case, and the slowest answers of a run (issue 21). None of them is garbage; objects
    made later are collected as before. `tramite worker` does the same once its engine is built."""
    gc.collect()
    gc.freeze()


def _start_timer_worker(worker) -> None:
    from engine.worker import TimerWorker
    freeze_loaded_objects()
    timer = TimerWorker(worker.wsgi.extensions["tramite"])
    timer.start()
    worker.tramite_timer = timer


def _stop_timer_worker(_server, worker) -> None:
    timer = getattr(worker, "tramite_timer", None)
    if timer is not None:
        timer.stop()
        timer.join(TIMER_JOIN_TIMEOUT)


class AccessLogger(Logger):
    """gunicorn's logger with an access line built straight from the five fields ACCESS_LOG_FORMAT
    names. The stock one builds some twenty fields plus one per request header, and wraps them in a
    dict that escapes every string, on every request (issue 21: a tenth of the server's Python time
    outside the views). Same line, same escaping of quotes."""

    def access(self, resp, req, environ, request_time):
        if not self.access_log_enabled:
            return
        status = resp.status
        if isinstance(status, str):
            status = status.split(None, 1)[0]
        sent = getattr(resp, "sent", None)
        line = "%s %s %s" % (environ["REQUEST_METHOD"], environ["RAW_URI"], environ["SERVER_PROTOCOL"])
        atoms = {"h": environ.get("REMOTE_ADDR", "-").replace('"', '\\"'), "r": line.replace('"', '\\"'),
                 "s": status, "b": str(sent) if sent is not None else "-",
                 "M": request_time.seconds * 1000 + request_time.microseconds // 1000}
        try:
            if not _write_plain(self.access_log, ACCESS_LOG_FORMAT % atoms):
                self.access_log.info(ACCESS_LOG_FORMAT, atoms)
        except Exception:  # noqa: BLE001 - as gunicorn's own: a log line never fails a request
            self.exception("access log")


_PLAIN_HANDLERS = (logging.StreamHandler, logging.FileHandler)


def _write_plain(log: logging.Logger, line: str) -> bool:
    """Write `line` as gunicorn's own access handlers would (a stream or file handler formatting
    "%(message)s": the line and a newline, flushed), without the LogRecord, the formatter and the
    handler chain around it: logging's machinery was most of the access line's cost (issue 21).
    False (nothing written) for any other arrangement of the logger, which then logs as usual."""
    if log.propagate or log.filters or not log.handlers or not log.isEnabledFor(logging.INFO):
        return False
    handlers = log.handlers
    for h in handlers:
        fmt = h.formatter
        if (type(h) not in _PLAIN_HANDLERS or h.filters or h.level > logging.INFO or h.stream is None
                or type(fmt) is not logging.Formatter or fmt._fmt != Logger.access_fmt
                or type(fmt._style) is not logging.PercentStyle):
            return False
    for h in handlers:
        with h.lock:
            h.stream.write(line + h.terminator)
            h.flush()
    return True


class TramiteServer(BaseApplication):
    """Gunicorn configured in code: no config file or GUNICORN_CMD_ARGS changes what `serve` does."""

    def __init__(self, *, host: str, port: int, workers: int, threads: int, timer_worker: bool):
        self.options = {
            "bind": f"{host}:{port}", "workers": workers, "threads": threads,
            # gthread, new connections going to the worker holding fewest (api/balanced_worker.py).
            "worker_class": "api.balanced_worker.BalancedThreadWorker",
            "accesslog": "-", "access_log_format": ACCESS_LOG_FORMAT,
            "logger_class": AccessLogger, "errorlog": "-", "loglevel": "info",
            "graceful_timeout": GRACEFUL_TIMEOUT, "proc_name": "tramite",
            # The default socket path is per user, so two servers on one machine would fight over it.
            "control_socket_disable": True, "worker_tmp_dir": worker_tmp_dir(),
        }
        BalancedThreadWorker.loads = Loads(workers) if workers > 1 else None  # before the workers fork
        timers = "a timer worker in each" if timer_worker else "no timer worker"
        # Printed once the socket listens, so the line is never a promise a busy port breaks.
        banner = (f"serving http://{host}:{port}/ ({workers} worker(s) x {threads} threads, {timers}); "
                  "Ctrl-C stops")
        self.options["when_ready"] = lambda _server: print(banner, flush=True)
        self.options["post_worker_init"] = freeze_loaded_objects
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
