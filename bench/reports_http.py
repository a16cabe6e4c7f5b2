"""The report of bench/reports.py once through `tramite serve` (gunicorn, one worker) on the same
PostgreSQL database: the time a supervisor's client waits for `GET /api/v1/reports/cycle-times`,
JSON and authentication included, per filter (p50 of a few requests after one warm-up)."""
from __future__ import annotations

import tempfile
import time
from pathlib import Path
from urllib.parse import urlencode

from .common import log, ms, pct

REQUESTS = 7


def report_over_http(engine, url: str) -> None:
    from tests.production.live import Http, Installation, LiveServer  # the production tests' real server
    from .reports import FILTERS, TARGET_P95
    with tempfile.TemporaryDirectory() as folder:
        inst = Installation(url, Path(folder))
        inst.users({"bench_boss": ["supervisor"]})
        token = inst.tokens("bench_boss")["bench_boss"]
        live = LiveServer(inst, workers=1, threads=4, name="reports").start()
        try:
            client = Http(live.port, token)
            log(f"through `tramite serve` ({REQUESTS} requests each, after one warm-up):")
            for label, args in FILTERS:
                query = urlencode({{"start": "from", "end": "to"}.get(k, k): v for k, v in args.items()})
                path = f"/api/v1/reports/cycle-times?{query}"
                client.get(path)
                costs = []
                for _ in range(REQUESTS):
                    began = time.perf_counter()
                    client.get(path)
                    costs.append(time.perf_counter() - began)
                p95 = pct(costs, 95)
                log(f"  {label:<28} p50 {ms(pct(costs, 50)):>10}  p95 {ms(p95):>10}  "
                    f"{'PASS' if p95 <= TARGET_P95 else 'FAIL'}")
            client.close()
        finally:
            live.stop()
            inst.close()
