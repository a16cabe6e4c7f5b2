"""Fixtures for the production tests: a fresh PostgreSQL database per test, and every server or
worker process a test starts stopped at its end, whatever happened."""
from __future__ import annotations

import re

import pytest

from .live import IS_POSTGRES, Installation, LiveServer, TimerWorkerProcess, create_database, drop_database


@pytest.fixture
def installation(request, tmp_path, worker_id):
    if not IS_POSTGRES:  # the modules skip already; this guards a fixture used elsewhere
        pytest.skip("needs PostgreSQL (TRAMITE_TEST_DATABASE_URL)")
    label = re.sub(r"[^a-z0-9]+", "_", request.node.name.lower()).strip("_")[-30:]
    url = create_database(label, worker_id)
    inst = Installation(url, tmp_path)
    inst.launched = []
    yield inst
    for process in reversed(inst.launched):
        process.stop()
    inst.close()
    drop_database(url)


@pytest.fixture
def serve(installation):
    """serve(workers=2, ...) → a started LiveServer, stopped at the end of the test."""
    def start(**kwargs) -> LiveServer:
        server = LiveServer(installation, **kwargs)
        installation.launched.append(server)
        return server.start()
    return start


@pytest.fixture
def timer_worker(installation):
    def start(name: str, **kwargs) -> TimerWorkerProcess:
        worker = TimerWorkerProcess(installation, name, **kwargs)
        installation.launched.append(worker)
        return worker
    return start
