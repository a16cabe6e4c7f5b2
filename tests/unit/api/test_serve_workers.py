"""What `tramite serve` sets in each worker process once its app is built (issue 21)."""
from __future__ import annotations

import gc
import sys

from api.server import SWITCH_INTERVAL, TramiteServer


def test_each_worker_hands_the_gil_over_within_a_millisecond():
    server = TramiteServer(host="127.0.0.1", port=0, workers=1, threads=2, timer_worker=False)
    before = sys.getswitchinterval()
    try:
        sys.setswitchinterval(0.005)  # Python's default
        server.cfg.post_worker_init(None)
        assert sys.getswitchinterval() == SWITCH_INTERVAL <= 0.001
    finally:
        gc.unfreeze()
        sys.setswitchinterval(before)
