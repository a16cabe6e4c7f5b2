"""The deployment past one machine (README §Several hosts), on servers of this test's own: a
PostgreSQL primary with a streaming replica on another port (tests/support/pg_servers.py), and
PgBouncer in transaction mode in front of the primary.

- With TRAMITE_DATABASE_REPLICA_URL, `tramite serve` reads the case and task lists from the replica
  and everything else from the primary: with the replica's replay paused, a case just started is
  missing from the lists and present in its own page, and a task completes; once replay resumes the
  lists show it.
- Through PgBouncer (TRAMITE_DATABASE_PREPARE=off) the server starts, lists, completes, and a
  `tramite worker` fires due timers, past psycopg's prepare threshold, with no server error.
"""
from __future__ import annotations

import pytest

from engine.config.clock import parse_instant
from engine.identity.actor import SYSTEM
from tests.support import pg_servers
from tests.support.diagrams import deadline_flow

from .live import REQUIRES_POSTGRES, Http, Installation, LiveServer, TimerWorkerProcess, wait_until

pytestmark = REQUIRES_POSTGRES

START = "/api/v1/processes/test_deadline/instances"
AFTER_EVERY_DEADLINE = "2024-06-01T00:00:00-04:00"
PAST_PREPARE_THRESHOLD = 8  # psycopg prepares a statement on the server from its 5th run


@pytest.fixture(scope="module")
def pair():
    reason = pg_servers.unavailable()
    if reason:
        pytest.skip(reason)
    servers = pg_servers.ReplicatedPair().start()
    yield servers
    servers.stop()


def _installation(url: str, tmp_path) -> Installation:
    inst = Installation(url, tmp_path)
    inst.deploy("test_deadline", deadline_flow())
    inst.users({"ana": ["test_clerk", "test_reviewer"], "boss": ["supervisor"]})
    return inst


def _ids(http: Http, path: str) -> set[int]:
    status, rows = http.request("GET", path)
    assert status == 200, (status, rows)
    return {row["id"] for row in rows}


def test_lists_read_the_replica_while_pages_and_writes_go_to_the_primary(pair, tmp_path):
    primary_url, replica_url = pair.database("tramite_replica")
    inst = _installation(primary_url, tmp_path)
    server = LiveServer(inst, workers=1, threads=4, env={"TRAMITE_DATABASE_REPLICA_URL": replica_url})
    try:
        server.start()
        tokens = inst.tokens("ana", "boss")
        ana, boss = Http(server.port, tokens["ana"]), Http(server.port, tokens["boss"])
        status, first = ana.request("POST", START, {"variables": {}})
        assert status == 201, first
        pair.wait_replayed()
        assert first["id"] in _ids(boss, "/api/v1/instances?per_page=100")

        pair.replica.psql("SELECT pg_wal_replay_pause()")
        try:
            status, second = ana.request("POST", START, {"variables": {}})  # a write: the primary
            assert status == 201, second
            status, page = boss.request("GET", f"/api/v1/instances/{second['id']}")  # a page: the primary
            assert status == 200 and page["status"] == "active", page
            # The lists come from the replica, which has not replayed the second case yet.
            assert _ids(boss, "/api/v1/instances?per_page=100") == {first["id"]}
            task_ids = _ids(boss, "/api/v1/tasks?scope=all&per_page=100")
            assert first["open_tasks"][0]["id"] in task_ids and second["open_tasks"][0]["id"] not in task_ids
            # Read-then-write stays on the primary: completing the second case's task (which the
            # replica does not know) works.
            status, done = ana.request("POST", f"/api/v1/tasks/{second['open_tasks'][0]['id']}/complete",
                                       {"data": {"note": "ok"}})
            assert status == 200, done
        finally:
            pair.replica.psql("SELECT pg_wal_replay_resume()")
        pair.wait_replayed()
        assert _ids(boss, "/api/v1/instances?per_page=100") == {first["id"], second["id"]}
        assert _ids(boss, "/api/v1/instances?status=completed&per_page=100") == {second["id"]}
        assert not server.server_errors(), server.server_errors()
    finally:
        server.stop()
        inst.close()


def test_the_app_and_a_timer_worker_work_through_pgbouncer_in_transaction_mode(pair, tmp_path):
    reason = pg_servers.unavailable(pgbouncer=True)
    if reason:
        pytest.skip(reason)
    primary_url, _ = pair.database("tramite_bouncer")
    inst = _installation(primary_url, tmp_path)
    bouncer = pg_servers.Bouncer(pair.primary, pool_size=3).start()
    through = {"TRAMITE_DATABASE_URL": bouncer.url("tramite_bouncer"), "TRAMITE_DATABASE_PREPARE": "off"}
    server = LiveServer(inst, workers=2, threads=4, env=through)
    worker = None
    try:
        server.start()  # its start-up (migrations, catalogues) goes through PgBouncer too
        tokens = inst.tokens("ana", "boss")
        ana, boss = Http(server.port, tokens["ana"]), Http(server.port, tokens["boss"])
        cases = []
        for _ in range(PAST_PREPARE_THRESHOLD):
            status, case = ana.request("POST", START, {"variables": {}})
            assert status == 201, case
            cases.append(case)
            assert case["id"] in _ids(boss, "/api/v1/instances?per_page=100")
            assert case["open_tasks"][0]["id"] in _ids(boss, "/api/v1/tasks?scope=all&per_page=100")
        reviewed, waiting = cases[:3], cases[3:]
        for case in reviewed:
            status, done = ana.request("POST", f"/api/v1/tasks/{case['open_tasks'][0]['id']}/complete",
                                       {"data": {"note": "ok"}})
            assert status == 200, done

        worker = TimerWorkerProcess(inst, "worker", interval=0.1, **through)
        wait_until(lambda: "timer worker started" in worker.log() or worker.proc.poll() is not None, 60,
                   "the worker to start")
        inst.engine.execute(lambda ctx: inst.engine.clock.move_to(ctx.conn, parse_instant(AFTER_EVERY_DEADLINE)),
                            SYSTEM)
        wait_until(lambda: inst.scalar("SELECT count(*) FROM timer WHERE fired_at IS NULL AND NOT cancelled") == 0,
                   120, "the worker to fire the due timers through PgBouncer", interval=0.1)
        boss = Http(server.port, tokens["boss"])  # a new connection: the server closed the idle one
        outcomes = {c["id"]: boss.request("GET", f"/api/v1/instances/{c['id']}")[1]["outcome"] for c in cases}
        assert outcomes == {**{c["id"]: "REVIEWED" for c in reviewed}, **{c["id"]: "TIMED_OUT" for c in waiting}}
        assert inst.scalar("SELECT count(*) FROM audit_event WHERE type = 'timer_fired'") == len(waiting)
        assert not server.server_errors(), server.server_errors()
        assert "Traceback" not in worker.log(), worker.log()[-3000:]
    finally:
        if worker is not None:
            worker.stop()
        server.stop()
        bouncer.stop()
        inst.close()
