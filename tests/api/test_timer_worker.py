"""The timer worker fires each due timer exactly once, even with several workers at the same moment."""
import threading

from engine.identity.actor import SYSTEM
from engine.worker import TimerWorker, fire_due
from engine.config.clock import parse_instant
from tests.support.diagrams import deadline_flow


def test_two_workers_polling_at_once_fire_each_due_timer_once(api, engine):
    api.deploy("test_deadline", deadline_flow())
    cases = [api.post("/api/v1/processes/test_deadline/instances", "clerk", {"variables": {}}, expect=201)
             for _ in range(6)]
    # Move the shared clock without firing: only the workers may fire now.
    engine.execute(lambda ctx: engine.clock.move_to(ctx.session, parse_instant("2024-05-01T00:00:00-04:00")),
                   SYSTEM)
    barrier = threading.Barrier(3)
    fired = []

    def work(name):
        barrier.wait()
        fired.append(fire_due(engine, owner=name, batch=2))

    threads = [threading.Thread(target=work, args=(f"w{i}",)) for i in range(3)]
    [t.start() for t in threads]
    [t.join(timeout=120) for t in threads]
    assert sum(fired) == 6
    for case in cases:
        after = api.get(f"/api/v1/instances/{case['id']}", "boss")
        assert after["outcome"] == "TIMED_OUT"
        history = api.get(f"/api/v1/instances/{case['id']}/history", "boss")
        assert [e["type"] for e in history].count("timer_fired") == 1
    assert fire_due(engine) == 0


def test_the_worker_thread_fires_and_stops(api, engine):
    api.deploy("test_deadline", deadline_flow())
    case = api.post("/api/v1/processes/test_deadline/instances", "clerk", {"variables": {}}, expect=201)
    engine.execute(lambda ctx: engine.clock.move_to(ctx.session, parse_instant("2024-05-01T00:00:00-04:00")),
                   SYSTEM)
    worker = TimerWorker(engine, interval=0.05)
    worker.start()
    try:
        for _ in range(400):  # bounded poll, not a sleep standing in for business time
            if api.get(f"/api/v1/instances/{case['id']}", "boss")["status"] == "completed":
                break
            threading.Event().wait(0.05)
    finally:
        worker.stop()
        worker.join(timeout=10)
    assert not worker.is_alive()
    assert api.get(f"/api/v1/instances/{case['id']}", "boss")["outcome"] == "TIMED_OUT"


def test_two_workers_with_their_own_connections_fire_many_timers_once_in_batches_skipping_a_suspended_case(
        api, engine, database_url):
    """Each worker is its own engine (its own connections, as two `tramite worker` processes are);
    more timers than a batch, so each worker leases and fires several lots in one transaction each."""
    from engine.bootstrap import make_engine
    from engine.worker import BATCH

    api.deploy("test_deadline", deadline_flow())
    total = 2 * BATCH + 7
    cases = [api.post("/api/v1/processes/test_deadline/instances", "clerk", {"variables": {}}, expect=201)
             for _ in range(total)]
    held = cases[5]
    api.post(f"/api/v1/instances/{held['id']}/suspend", "boss",
             {"reason": "Orden del tribunal", "legal_basis": "Sentencia KLRA-2024-0012"}, expect=200)
    engine.execute(lambda ctx: engine.clock.move_to(ctx.session, parse_instant("2024-06-01T00:00:00-04:00")),
                   SYSTEM)
    workers = [make_engine(database_url, engine.clock) for _ in range(2)]
    barrier = threading.Barrier(2)
    fired: dict[str, int] = {}

    def work(name, own):
        barrier.wait()
        fired[name] = fire_due(own, owner=name)

    threads = [threading.Thread(target=work, args=(f"w{i}", own)) for i, own in enumerate(workers)]
    [t.start() for t in threads]
    [t.join(timeout=300) for t in threads]  # a generous does-not-hang bound, not a speed assertion
    assert not [t for t in threads if t.is_alive()], "a worker never finished"
    for own in workers:
        own.db.dispose()
    assert sum(fired.values()) == total - 1, fired
    for case in cases:
        after = api.get(f"/api/v1/instances/{case['id']}", "boss")
        history = [e["type"] for e in api.get(f"/api/v1/instances/{case['id']}/history", "boss")]
        if case is held:  # suspended: its deadline waits for the resumption, whoever polls
            assert after["status"] == "active" and "timer_fired" not in history
        else:
            assert after["outcome"] == "TIMED_OUT" and history.count("timer_fired") == 1, (case["id"], history)
    assert fire_due(engine) == 0
