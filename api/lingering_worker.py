"""gunicorn's gthread worker, with a thread that has just answered on a keep-alive connection
waiting a moment for that connection's next request instead of handing it back at once.

In the stock worker every request of a keep-alive connection travels: the poller thread's epoll
wakes, the connection is unregistered and submitted to the thread pool (a queue, a condition, a
thread woken), the answer's completion is posted back through a pipe to the poller, which registers
the socket again. Measured under `tramite serve` (issue 21), a GET answered in-process in 0.5-0.8 ms
of CPU cost the worker 1.1-1.6 ms through gunicorn: the hand-offs were most of the difference. An
API client sends its next request within a millisecond or two of reading the answer; the thread
that waits for it (in poll, the GIL released, no CPU) serves it with none of that.

The wait is short (LINGER_SECONDS) and only taken when no other request is queued for a thread, so
a busy worker behaves as the stock one: a connection that stays quiet goes back to the poller and
its keep-alive timeout as before. Whatever else the stock worker does (read-ahead bytes, HTTP/2,
a stopping worker's "Connection: close") is left to it.
"""
from __future__ import annotations

import select

from gunicorn.workers.gthread import ThreadWorker

LINGER_SECONDS = 0.002


class LingeringThreadWorker(ThreadWorker):
    def handle(self, conn):
        while True:
            result = super().handle(conn)
            if result is not True or not self.alive or conn.is_http2 or not self._may_linger():
                return result
            if conn.parser.unreader.buf.getvalue():
                return result  # the stock path serves bytes already read past this request
            if not _readable_within(conn.sock, LINGER_SECONDS):
                return result
            # The next request is there: serve it on this thread, as the pool would have.

    def _may_linger(self) -> bool:
        waiting = getattr(self.tpool, "_work_queue", None)  # ThreadPoolExecutor's queue of submitted work
        return waiting is not None and waiting.qsize() == 0


def _readable_within(sock, seconds: float) -> bool:
    try:
        poller = select.poll()
        poller.register(sock, select.POLLIN | select.POLLPRI)
        return bool(poller.poll(seconds * 1000))
    except (OSError, ValueError):  # a socket closed meanwhile: the stock path decides
        return False
