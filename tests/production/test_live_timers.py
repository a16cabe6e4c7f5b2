"""2,000 deadlines falling due at one clock move, three `tramite worker` processes on PostgreSQL:
the first, firing alone, killed with SIGKILL while it holds leases, then two that share the rest:
every timer fires exactly once, none is lost (the dead worker's leases expire and the others take
them over, each skipping what the other holds)."""
from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor

from engine.config.clock import parse_instant
from engine.commands.cases import start_case
from engine.identity.actor import SYSTEM
from tests.support.diagrams import deadline_flow

from .live import REQUIRES_POSTGRES, wait_until

pytestmark = REQUIRES_POSTGRES

CASES = 2000
LEASE_SECONDS = 3  # TRAMITE_TIMER_LEASE_SECONDS for the workers: a dead worker's timers wait this long
AFTER_EVERY_DEADLINE = "2024-06-01T00:00:00-04:00"
FIRE_ALL_SECONDS = 180

# Test instrumentation in this test's own database: one row per timer firing that commits (the
# trigger runs inside the firing transaction), with the lease holder at that moment.
FIRINGS_TABLE = """
CREATE TABLE test_firing (timer_id bigint NOT NULL, owner text, at timestamptz NOT NULL DEFAULT clock_timestamp());
CREATE FUNCTION test_record_firing() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO test_firing (timer_id, owner) VALUES (OLD.id, OLD.lock_owner);
  RETURN NEW;
END $$;
CREATE TRIGGER test_record_firing AFTER UPDATE OF fired_at ON timer
  FOR EACH ROW WHEN (OLD.fired_at IS NULL AND NEW.fired_at IS NOT NULL) EXECUTE FUNCTION test_record_firing();
"""


def test_two_thousand_timers_fire_exactly_once_though_a_worker_is_killed_holding_leases(
        installation, timer_worker):
    began = time.monotonic()
    installation.deploy("test_deadline", deadline_flow())
    engine = installation.engine
    engine.execute(start_case, SYSTEM, "test_deadline", {})  # creates the clock and case-number rows
    with ThreadPoolExecutor(4) as pool:
        list(pool.map(lambda _: engine.execute(start_case, SYSTEM, "test_deadline", {}), range(CASES - 1)))
    assert installation.scalar("SELECT count(*) FROM timer WHERE fired_at IS NULL AND NOT cancelled") == CASES
    with engine.db.write_engine.begin() as conn:
        conn.exec_driver_sql(FIRINGS_TABLE)
    started_cases = time.monotonic() - began

    def started(name: str):
        worker = timer_worker(name, interval=0.1, TRAMITE_TIMER_LEASE_SECONDS=str(LEASE_SECONDS))
        wait_until(lambda: "timer worker started" in worker.log() or worker.proc.poll() is not None, 60,
                   f"{name} to start")
        assert worker.proc.poll() is None, worker.log()
        return worker

    # The victim works alone until it is killed: with the other two firing beside it from the start,
    # they could take the last lots before a poll saw it holding leases (a CI run waited out its 120 s).
    victim = started("worker0")
    assert installation.scalar("SELECT count(*) FROM test_firing") == 0  # nothing is due yet

    # One clock move makes every deadline due at once; only the workers fire them.
    moved = time.monotonic()
    engine.execute(lambda ctx: engine.clock.move_to(ctx.conn, parse_instant(AFTER_EVERY_DEADLINE)), SYSTEM)
    mine = f"%:{victim.proc.pid}:%"

    def victim_busy() -> bool:
        fired = installation.scalar("SELECT count(*) FROM test_firing WHERE owner LIKE :o", o=mine)
        held = installation.scalar("SELECT count(*) FROM timer WHERE fired_at IS NULL AND lock_owner LIKE :o "
                                   "AND lock_expires_at > now()", o=mine)
        return fired >= 20 and held >= 5

    wait_until(victim_busy, 120, "the victim worker to have fired timers and to hold leases", interval=0.01)
    victim.kill()
    assert victim.proc.returncode == -9
    orphaned = [r.id for r in installation.rows(
        "SELECT id FROM timer WHERE fired_at IS NULL AND lock_owner LIKE :o", o=mine)]
    fired_by_victim = installation.scalar("SELECT count(*) FROM test_firing WHERE owner LIKE :o", o=mine)
    total_at_kill = installation.scalar("SELECT count(*) FROM test_firing")
    assert orphaned, "the victim died holding no lease: nothing to take over"
    assert total_at_kill < CASES, "the kill came after the work was done"
    workers = [victim, started("worker1"), started("worker2")]  # they share the rest and its leases

    wait_until(lambda: installation.scalar("SELECT count(*) FROM timer WHERE fired_at IS NULL") == 0,
               FIRE_ALL_SECONDS, "every timer to fire", interval=0.2)
    all_fired = time.monotonic() - moved
    for w in workers[1:]:
        assert w.proc.poll() is None, w.log()
        w.stop()
        assert "Traceback" not in w.log(), w.log()[-3000:]

    # Exactly once: one committed firing per timer, one timer_fired event per case.
    firings = installation.rows("SELECT timer_id, count(*) AS n FROM test_firing GROUP BY timer_id")
    assert len(firings) == CASES and {f.n for f in firings} == {1}
    per_case = installation.rows("SELECT instance_id, count(*) AS n FROM audit_event "
                                 "WHERE type = 'timer_fired' GROUP BY instance_id")
    assert len(per_case) == CASES and {c.n for c in per_case} == {1}
    assert installation.rows("SELECT status, outcome, count(*) FROM process_instance GROUP BY status, outcome") \
        == [("completed", "TIMED_OUT", CASES)]
    assert installation.rows("SELECT element_id, state, count(*) FROM task GROUP BY element_id, state") \
        == [("review", "cancelled", CASES)]
    assert installation.scalar("SELECT count(*) FROM timer WHERE cancelled OR attempts > 0 "
                               "OR lock_owner IS NOT NULL") == 0
    # None lost: the leases the victim died with were taken over and fired by the survivors.
    survivors = installation.rows("SELECT DISTINCT owner FROM test_firing WHERE timer_id = ANY(:ids)", ids=orphaned)
    assert survivors and not any(f":{victim.proc.pid}:" in (s.owner or "") for s in survivors)
    print(f"\n{CASES} cases started in {started_cases:.1f} s; all timers fired {all_fired:.1f} s after the "
          f"clock move; the victim fired {fired_by_victim} and died holding {len(orphaned)} leases "
          f"({total_at_kill} fired in all at the kill)")
