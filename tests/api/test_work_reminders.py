"""Reminders and escalation (API.md "Work management"): a task due within work.reminderDaysBefore
days notifies its holder (or its lane's people), an overdue one the supervisors; once each, at the
clock moves that cross those instants, in the notifications outbox."""
from datetime import datetime, timedelta

from engine.worker import work_round
from tests.support.diagrams import reminder_flow


def start(api):
    api.deploy("test_reminder", reminder_flow())
    case = api.post("/api/v1/processes/test_reminder/instances", "clerk", {"variables": {}}, expect=201)
    return case, api.open_task(case, "review")


def notices(api, case):
    return [(n["recipient"], n["subject"].split(":")[0]) for n in
            api.get(f"/api/v1/instances/{case['id']}/notifications", "boss")]


def at(due: datetime, **delta) -> str:
    return (due + timedelta(**delta)).isoformat()


def test_due_soon_reminds_the_lane_once_then_overdue_tells_the_supervisors_once(api):
    case, task = start(api)
    due = datetime.fromisoformat(task["due_at"])
    api.move_clock(at(due, days=-3, hours=-1))
    assert notices(api, case) == []
    api.move_clock(at(due, days=-3, hours=1))  # inside the 3 days: nobody holds it, the lane is told
    assert notices(api, case) == [("both", "Recordatorio"), ("reviewer", "Recordatorio")]
    api.move_clock(at(due, days=-1))
    assert len(notices(api, case)) == 2  # never twice
    api.move_clock(at(due, minutes=1))
    assert notices(api, case)[2:] == [("boss", "Tarea vencida"), ("boss_clerk", "Tarea vencida")]
    api.move_clock(at(due, days=5))
    assert len(notices(api, case)) == 4
    history = api.get(f"/api/v1/instances/{case['id']}/history", "boss")
    assert len([e for e in history if e["type"] == "notification"]) == 4


def test_the_assignee_is_reminded_and_the_parameter_sets_the_days(api, engine):
    case, task = start(api)
    api.post(f"/api/v1/tasks/{task['id']}/claim", "reviewer")
    api.put("/api/v1/parameters/work.reminderDaysBefore", "admin", {"value": 1})
    due = datetime.fromisoformat(task["due_at"])
    api.move_clock(at(due, days=-2))
    assert notices(api, case) == []
    api.move_clock(at(due, hours=-12))
    assert notices(api, case) == [("reviewer", "Recordatorio")]
    work_round(engine)  # the timer worker's round finds nothing more to send
    assert len(notices(api, case)) == 1


def test_a_clock_jump_past_the_due_date_escalates_without_a_late_reminder(api, engine):
    case, task = start(api)
    due = datetime.fromisoformat(task["due_at"])
    api.move_clock(at(due, days=1))
    assert {kind for _, kind in notices(api, case)} == {"Tarea vencida"}
    work_round(engine)
    api.move_clock(at(due, days=2))
    assert len(notices(api, case)) == 2


def test_a_completed_task_is_not_reminded(api):
    case, task = start(api)
    api.post(f"/api/v1/tasks/{task['id']}/complete", "reviewer", {"data": {}})
    api.move_clock(at(datetime.fromisoformat(task["due_at"]), days=1))
    assert notices(api, case) == []
