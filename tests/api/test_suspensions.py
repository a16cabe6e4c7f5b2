"""Legal time (API.md §Legal time, issue 19): a supervisor suspends a case's deadlines; on resume
each running deadline moves later by the calendar days suspended, then past a weekend or holiday
(TC-2); suspensions add up; `until` resumes by itself; other cases' timers are untouched; and no
worker fires a suspended case's timer, even two at once."""
from __future__ import annotations

import threading

from engine.config.clock import parse_instant
from engine.identity.actor import SYSTEM
from engine.worker import fire_due
from tests.support import bpmn as b

KEY = "test_suspend"
LANE = "test_clerk"
T = "T12:00:00-04:00"


def _deploy(api):
    # Ten calendar days from the start (TC-1), rolled forward (TC-2); the boundary timer is the deadline.
    xml = b.diagram(KEY, lanes={LANE: ["start", "arm", "work", "late", "closing", "end_late", "end"]},
                    nodes=[b.start(), b.script("arm", "due = deadline_timer(last_timely_day(10))"),
                           b.user("work", "Atender"), b.timer_boundary("late", "work", "due"),
                           b.script("closing", "outcome = 'LATE'"), b.end("end_late"), b.end()],
                    flows=[*b.chain("start", "arm", "work", "end"), *b.chain("late", "closing", "end_late")])
    api.deploy(KEY, {"s.bpmn": xml, "work.schema.json": b.form({})})


def _start(api):
    return api.post(f"/api/v1/processes/{KEY}/instances", "clerk", {"variables": {}}, expect=201)


def _case(api, case):
    return api.get(f"/api/v1/instances/{case['id']}", "boss")


def _suspend(api, case, expect=200, **extra):
    body = {"reason": "Orden del tribunal", "legal_basis": "Sentencia KLRA-2024-0012", **extra}
    return api.post(f"/api/v1/instances/{case['id']}/suspend", "boss", body, expect=expect)


def _resume(api, case, expect=200):
    return api.post(f"/api/v1/instances/{case['id']}/resume", "boss", expect=expect)


def _due(api, case):
    return [d["due_at"] for d in _case(api, case)["deadlines"]]


def test_a_suspension_moves_the_deadline_by_its_days_then_past_a_weekend_and_a_holiday(api):
    api.put("/api/v1/parameters/calendar.holidays", "admin", {"value": ["2024-04-15"]})
    _deploy(api)
    case = _start(api)  # Monday 1 April: the last day is Thursday 11 April
    assert _due(api, case) == ["2024-04-12T04:00:00+00:00"]
    task = api.open_task(case, "work")
    api.move_clock(f"2024-04-03{T}")
    suspended = _suspend(api, case)
    assert suspended["suspension"]["legal_basis"] == "Sentencia KLRA-2024-0012"
    assert _suspend(api, case, expect=409)["errors"]["rule"] == ["ALREADY_SUSPENDED"]
    api.move_clock(f"2024-04-05{T}")
    resumed = _resume(api, case)
    # Two days later: Saturday 13 April → Monday 15 is a holiday → Tuesday 16 April.
    assert resumed["suspension"] is None
    assert [d["due_at"] for d in resumed["deadlines"]] == ["2024-04-17T04:00:00+00:00"]
    assert api.get(f"/api/v1/tasks/{task['id']}", "boss")["due_at"] == "2024-04-17T04:00:00+00:00"
    for day in ("2024-04-12", "2024-04-13", "2024-04-14", "2024-04-15", "2024-04-16"):
        api.move_clock(f"{day}T23:59:00-04:00")
        assert _case(api, case)["status"] == "active", day
    api.move_clock("2024-04-17T00:00:01-04:00")
    assert _case(api, case)["outcome"] == "LATE"
    events = api.get(f"/api/v1/instances/{case['id']}/history", "boss")
    back = [e for e in events if e["type"] == "case_resumed"][0]["data"]
    assert back["days"] == 2 and back["deadlines"][0]["before"].startswith("2024-04-12T04:00")
    assert back["deadlines"][0]["after"].startswith("2024-04-17T04:00")


def test_while_suspended_no_timer_fires_and_other_cases_run_on(api):
    _deploy(api)
    held, other = _start(api), _start(api)
    _suspend(api, held)
    api.move_clock(f"2024-04-20{T}")  # past both deadlines
    assert _case(api, held)["status"] == "active" and _case(api, held)["suspension"] is not None
    assert _case(api, other)["outcome"] == "LATE"
    # A command on the suspended case does not fire its overdue deadline either.
    task = api.open_task(_case(api, held), "work")
    api.post(f"/api/v1/tasks/{task['id']}/claim", "clerk")
    assert _case(api, held)["status"] == "active"
    resumed = _resume(api, held)  # 19 days: 11 April + 19 = 30 April (a Tuesday)
    assert [d["due_at"] for d in resumed["deadlines"]] == ["2024-05-01T04:00:00+00:00"]


def test_two_suspensions_add_up_and_until_resumes_by_itself(api):
    _deploy(api)
    case = _start(api)  # last day 11 April
    api.move_clock(f"2024-04-02{T}")
    _suspend(api, case)
    api.move_clock(f"2024-04-05{T}")
    _resume(api, case)  # +3 → Sunday 14 April → Monday 15 April
    assert _due(api, case) == ["2024-04-16T04:00:00+00:00"]
    api.move_clock(f"2024-04-08{T}")
    _suspend(api, case, until="2024-04-09")  # suspended 8 and 9 April; resumes at 00:00 on the 10th
    api.move_clock(f"2024-04-12{T}")
    after = _case(api, case)
    assert after["suspension"] is None
    # +2 from the 8th to the 10th: 15 → 17 April (a Wednesday).
    assert [d["due_at"] for d in after["deadlines"]] == ["2024-04-18T04:00:00+00:00"]
    kinds = [e["type"] for e in api.get(f"/api/v1/instances/{case['id']}/history", "boss")]
    assert kinds.count("case_suspended") == 2 and kinds.count("case_resumed") == 2


def test_refusals_change_nothing(api):
    _deploy(api)
    case = _start(api)
    api.post(f"/api/v1/instances/{case['id']}/suspend", "clerk",
             {"reason": "x", "legal_basis": "y"}, expect=403)
    refused = api.post(f"/api/v1/instances/{case['id']}/suspend", "boss", {"reason": "x", "legal_basis": ""},
                       expect=422)
    assert "legal_basis" in refused["errors"]
    assert _suspend(api, case, expect=422, until="2024-03-01")["errors"]["until"]
    assert _resume(api, case, expect=409)["errors"]["rule"] == ["NOT_SUSPENDED"]
    assert _case(api, case)["suspension"] is None


def test_two_workers_at_once_fire_no_timer_of_a_suspended_case(api, engine):
    _deploy(api)
    cases = [_start(api) for _ in range(4)]
    _suspend(api, cases[0])
    _suspend(api, cases[1])
    engine.execute(lambda ctx: engine.clock.move_to(ctx.session, parse_instant("2024-05-01T00:00:00-04:00")),
                   SYSTEM)
    barrier, fired = threading.Barrier(2), []

    def work(name):
        barrier.wait()
        fired.append(fire_due(engine, owner=name, batch=1))

    threads = [threading.Thread(target=work, args=(f"w{i}",)) for i in range(2)]
    [t.start() for t in threads]
    [t.join(timeout=120) for t in threads]
    assert sum(fired) == 2
    assert [_case(api, c)["status"] for c in cases] == ["active", "active", "completed", "completed"]
