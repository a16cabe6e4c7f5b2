"""A worker's lot of leased timers fired in one transaction with one statement per kind of read and
write for the lot (engine/commands/timer_lot.py): still each timer exactly once, a broken case
loses none of the others, a case with two timers in one lot, a case suspended or cancelled between
the lease and the firing."""
from psycopg import pq
from sqlalchemy import event, text

from engine.commands.timer_lot import fire_timers
from engine.commands.timers import lease_due_timers
from engine.config.clock import parse_instant
from engine.identity.actor import SYSTEM
from engine.runtime import records
from engine.worker import fire_due
from tests.persistence.test_command_statements import Sent
from tests.support import bpmn as b
from tests.support.diagrams import deadline_flow

AFTER_THE_DEADLINE = "2024-06-01T00:00:00-04:00"


def _start(api, n, process="test_deadline"):
    return [api.post(f"/api/v1/processes/{process}/instances", "clerk", {"variables": {}}, expect=201)
            for _ in range(n)]


def _move_past_deadlines(engine):
    engine.execute(lambda ctx: engine.clock.move_to(ctx.session, parse_instant(AFTER_THE_DEADLINE)), SYSTEM)


def _timers(engine, case_id):
    with engine.db.writing() as conn:
        return conn.execute(text("SELECT id, fired_at, cancelled, lock_owner, attempts, last_error FROM timer "
                                 "WHERE instance_id = :i ORDER BY id"), {"i": case_id}).all()


def _history(api, case):
    return [e["type"] for e in api.get(f"/api/v1/instances/{case['id']}/history", "boss")]


def test_a_broken_case_in_a_lot_costs_the_others_nothing_and_none_fires_twice(api, engine):
    api.deploy("test_deadline", deadline_flow())
    cases = _start(api, 6)
    broken = cases[2]
    with engine.db.writing() as conn:  # its workflow cannot be loaded: the firing raises
        conn.execute(text("DELETE FROM workflow_task_state WHERE instance_id = :i"), {"i": broken["id"]})
    _move_past_deadlines(engine)
    assert fire_due(engine, owner="w", batch=10) == 5
    for case in cases:
        if case is broken:
            continue
        assert api.get(f"/api/v1/instances/{case['id']}", "boss")["outcome"] == "TIMED_OUT"
        assert _history(api, case).count("timer_fired") == 1
        (timer,) = _timers(engine, case["id"])
        assert timer.fired_at is not None and timer.lock_owner is None and timer.attempts == 0
    (timer,) = _timers(engine, broken["id"])
    assert timer.fired_at is None and timer.attempts == 1 and timer.last_error and timer.lock_owner is None
    assert "timer_fired" not in _history(api, broken)
    assert fire_due(engine, owner="w") == 0  # the broken one backs off; nothing fires again


def test_a_lot_reads_its_timers_cases_workflows_and_tasks_once_and_writes_each_kind_once(api, engine):
    api.deploy("test_deadline", deadline_flow())
    cases = _start(api, 8)
    _move_past_deadlines(engine)
    ids = engine.execute(lease_due_timers, SYSTEM, "w", 50)
    assert len(ids) == 8
    with Sent(engine.db) as sent:
        assert engine.execute(fire_timers, SYSTEM, ids) == 8
    assert sum(s.startswith("SELECT") and "FROM timer" in s for s in sent.statements) == 1
    assert sum(s.startswith("SELECT") and "FROM workflow_task_state" in s for s in sent.statements) == 1
    assert sum(s.startswith("SELECT") and "FROM task" in s for s in sent.statements) == 1
    assert sent.count("UPDATE timer") == 1 and sent.count("UPDATE task") == 1
    # The lot's history in one insert (or inside the cases' saves, where the engine puts it there).
    assert sum(s.startswith("INSERT INTO audit_event") for s in sent.statements) <= 1
    if not engine.db.is_sqlite:  # per firing only its case's save (one statement there): 8, and the
        # lot's clock read, its three reads, two writes and history
        assert len(sent.statements) <= 8 + 7, [s[:60] for s in sent.statements]
    for case in cases:
        assert api.get(f"/api/v1/instances/{case['id']}", "boss")["outcome"] == "TIMED_OUT"
        (timer,) = _timers(engine, case["id"])
        assert timer.fired_at is not None and timer.lock_owner is None
    with engine.db.writing() as conn:  # the lot's cancelled review tasks are all closed
        open_left = conn.execute(text("SELECT count(*) FROM task WHERE state = 'open' AND instance_id IN ("
                                      + ", ".join(str(c["id"]) for c in cases) + ")")).scalar()
    assert open_left == 0


def _two_timers_flow() -> dict[str, str]:
    """Two timers due at one instant on parallel branches of one case."""
    xml = b.diagram(
        "test_two_timers",
        lanes={"test_clerk": ["start", "compute", "split", "first", "second", "join", "set_done", "end"]},
        nodes=[b.start(), b.script("compute", "t = deadline_timer(last_timely_day(10))"), b.parallel("split"),
               b.timer_catch("first", "t"), b.timer_catch("second", "t"), b.parallel("join"),
               b.script("set_done", "outcome = 'BOTH'"), b.end()],
        flows=[*b.chain("start", "compute", "split"), b.flow("f_s1", "split", "first"),
               b.flow("f_s2", "split", "second"), b.flow("f_1j", "first", "join"), b.flow("f_2j", "second", "join"),
               *b.chain("join", "set_done", "end", prefix="g")])
    return {"two_timers.bpmn": xml}


def test_a_case_with_two_timers_in_one_lot_runs_once_and_both_timers_end_settled(api, engine):
    api.deploy("test_two_timers", _two_timers_flow())
    api.deploy("test_deadline", deadline_flow())
    (two,) = _start(api, 1, "test_two_timers")
    others = _start(api, 3)
    assert len(_timers(engine, two["id"])) == 2
    _move_past_deadlines(engine)
    ids = engine.execute(lease_due_timers, SYSTEM, "w", 50)
    assert len(ids) == 5
    assert engine.execute(fire_timers, SYSTEM, ids) == 4  # the second timer was settled by the first firing
    after = api.get(f"/api/v1/instances/{two['id']}", "boss")
    assert after["status"] == "completed" and after["outcome"] == "BOTH"
    assert all(t.fired_at is not None and not t.cancelled and t.lock_owner is None for t in _timers(engine, two["id"]))
    assert _history(api, two).count("timer_fired") == 1
    assert all(api.get(f"/api/v1/instances/{c['id']}", "boss")["outcome"] == "TIMED_OUT" for c in others)
    assert fire_due(engine, owner="w") == 0


def test_a_case_suspended_or_cancelled_after_the_lease_is_released_or_cancelled_in_the_lot(api, engine):
    api.deploy("test_deadline", deadline_flow())
    held, dropped, *rest = _start(api, 5)
    _move_past_deadlines(engine)
    ids = engine.execute(lease_due_timers, SYSTEM, "w", 50)
    assert len(ids) == 5
    with engine.db.writing() as conn:
        # Suspended between the lease and the firing (a suspension through the API would first run the
        # case's overdue steps itself): the firing finds the mark on the case row it locks.
        conn.execute(text("UPDATE process_instance SET suspended_since = started_at WHERE id = :i"),
                     {"i": held["id"]})
    api.post(f"/api/v1/instances/{dropped['id']}/cancel", "boss", {"reason": "Desistimiento"}, expect=200)
    assert engine.execute(fire_timers, SYSTEM, ids) == 3
    (timer,) = _timers(engine, held["id"])
    assert timer.fired_at is None and not timer.cancelled and timer.lock_owner is None
    assert api.get(f"/api/v1/instances/{held['id']}", "boss")["status"] == "active"
    for timer in _timers(engine, dropped["id"]):
        assert timer.fired_at is None and timer.cancelled and timer.lock_owner is None
    assert all(api.get(f"/api/v1/instances/{c['id']}", "boss")["outcome"] == "TIMED_OUT" for c in rest)
    assert "timer_fired" not in _history(api, held) + _history(api, dropped)


def test_cycle_timers_fired_in_one_lot_are_re_armed_for_their_next_repetition(api, engine):
    from tests.api.test_cycle_timers import reminders

    api.deploy("test_cycle", reminders("R3/PT1H"))
    cases = _start(api, 3, "test_cycle")
    for hour, local in ((1, "2024-04-01T13:30:00-04:00"), (2, "2024-04-01T14:30:00-04:00")):
        engine.execute(lambda ctx, at=local: engine.clock.move_to(ctx.session, parse_instant(at)), SYSTEM)
        assert fire_due(engine, owner="w", batch=10) == 3
        for case in cases:
            assert _history(api, case).count("timer_fired") == hour
            (timer,) = _timers(engine, case["id"])
            assert timer.fired_at is None and not timer.cancelled and timer.lock_owner is None
            due = api.get(f"/api/v1/instances/{case['id']}", "boss")["deadlines"][0]["due_at"]
            assert due.replace(".000001", "") == f"2024-04-01T{17 + hour}:00:00+00:00"
        assert fire_due(engine, owner="w") == 0


def test_a_lot_keeps_the_numbers_of_its_cases_data_exactly(api, engine):
    # The lot decodes workflow rows with orjson, which reads an integer past 64 bits as a float:
    # such a body goes through the stdlib decoder instead.
    api.deploy("test_deadline", deadline_flow())
    numbers = {"big": 12345678901234567890123, "negative": -9223372036854775809, "u64": 18446744073709551615,
               "price": 1234.5, "small": 7, "text": "n.º 1234567890123456789012"}
    cases = [api.post("/api/v1/processes/test_deadline/instances", "clerk", {"variables": numbers}, expect=201)
             for _ in range(3)]
    _move_past_deadlines(engine)
    assert fire_due(engine, owner="w", batch=10) == 3
    for case in cases:
        variables = api.get(f"/api/v1/instances/{case['id']}", "boss")["variables"]
        assert variables["outcome"] == "TIMED_OUT"
        assert {name: variables[name] for name in numbers} == numbers


def test_a_lots_saves_travel_together_and_each_is_still_counted(api, engine):
    """PostgreSQL: the lot's saves are sent in one pipeline (one round trip, engine/persistence/
    pipelined.py), each still seen by the engine's statement listeners."""
    if engine.db.is_sqlite:
        return
    api.deploy("test_deadline", deadline_flow())
    _start(api, 5)
    _move_past_deadlines(engine)
    ids = engine.execute(lease_due_timers, SYSTEM, "w", 50)
    modes = []

    def record(_conn, cursor, statement, *_args):
        if statement.lstrip().startswith("WITH gone AS"):
            modes.append(cursor.connection.pgconn.pipeline_status)

    event.listen(engine.db.write_engine, "before_cursor_execute", record)
    try:
        assert engine.execute(fire_timers, SYSTEM, ids) == 5
    finally:
        event.remove(engine.db.write_engine, "before_cursor_execute", record)
    assert len(modes) == 5 and all(mode != pq.PipelineStatus.OFF for mode in modes)


def test_a_case_whose_save_finds_its_version_moved_costs_the_others_nothing(api, engine, monkeypatch):
    """The lot checks each save's answer when it sends them all: a stale one (its case written
    meanwhile) rolls the lot back, the others fire one by one, each exactly once."""
    api.deploy("test_deadline", deadline_flow())
    cases = _start(api, 5)
    stale = cases[1]["id"]
    _move_past_deadlines(engine)
    save_params = records.save_params

    def stale_for_one(record):  # as if another command had written that case since the lot read it
        params = save_params(record)
        return {**params, "p_version": params["p_version"] - 1} if record.id == stale else params

    monkeypatch.setattr(records, "save_params", stale_for_one)
    assert fire_due(engine, owner="w", batch=10) == 4
    for case in cases:
        (timer,) = _timers(engine, case["id"])
        if case["id"] == stale:
            assert timer.fired_at is None and timer.attempts == 1 and "changed meanwhile" in timer.last_error
            assert "timer_fired" not in _history(api, case)
        else:
            assert timer.fired_at is not None and timer.attempts == 0 and _history(api, case).count("timer_fired") == 1
