"""A cycle timer fires at each repetition, not once (its timer row is re-armed, not left fired)."""
from __future__ import annotations

from tests.support import bpmn as b


def reminders(cycle: str) -> dict[str, str]:
    """review (clerk) with a non-interrupting cycle timer: each repetition runs `remind`."""
    timer = (f'<bpmn:boundaryEvent id="every" name="Recordatorio" attachedToRef="review" cancelActivity="false">'
             f'<bpmn:timerEventDefinition><bpmn:timeCycle>"{cycle}"</bpmn:timeCycle></bpmn:timerEventDefinition>'
             f'</bpmn:boundaryEvent>')
    xml = b.diagram("test_cycle", lanes={"test_clerk": ["start", "review", "end", "every", "remind", "reminded"]},
                    nodes=[b.start(), b.user("review"), b.end(), timer, b.script("remind", "reminded = True"),
                           b.end("reminded")],
                    flows=[*b.chain("start", "review", "end"), *b.chain("every", "remind", "reminded")])
    return {"cycle.bpmn": xml, "review.schema.json": b.form({})}


def to_second(instant: str) -> str:
    # The library computes a cycle's first instant from "now", which the engine shows it one
    # microsecond late (engine/runtime/library_time.py): compare to the second.
    return instant.replace(".000001", "")


def fired(api, case) -> list[str]:
    return [to_second(e["at"]) for e in api.get(f"/api/v1/instances/{case['id']}/history", "boss")
            if e["type"] == "timer_fired"]


def next_due(case) -> str:
    return to_second(case["deadlines"][0]["due_at"])


def test_r3_pt1h_fires_three_times_over_five_hours(api):
    api.deploy("test_cycle", reminders("R3/PT1H"))
    case = api.post("/api/v1/processes/test_cycle/instances", "clerk", {"variables": {}}, expect=201)
    assert next_due(case) == "2024-04-01T17:00:00+00:00"  # START + 1 h
    api.move_clock("2024-04-01T13:30:00-04:00")
    after_one = api.get(f"/api/v1/instances/{case['id']}", "boss")
    assert fired(api, case) == ["2024-04-01T17:00:00+00:00"]
    assert next_due(after_one) == "2024-04-01T18:00:00+00:00"  # re-armed for the next
    api.move_clock("2024-04-01T17:00:00-04:00")  # five hours after the start
    assert fired(api, case) == ["2024-04-01T17:00:00+00:00", "2024-04-01T18:00:00+00:00",
                                "2024-04-01T19:00:00+00:00"]
    now = api.get(f"/api/v1/instances/{case['id']}", "boss")
    assert now["status"] == "active" and now["deadlines"] == []  # all three repetitions done
    assert [t["element_id"] for t in now["open_tasks"]] == ["review"]
    activity = api.get(f"/api/v1/instances/{case['id']}/activity", "boss")
    assert activity["remind"]["count"] == 3


def test_a_clock_moved_past_several_repetitions_at_once_fires_each_at_its_own_instant(api):
    api.deploy("test_cycle", reminders("R3/PT1H"))
    case = api.post("/api/v1/processes/test_cycle/instances", "clerk", {"variables": {}}, expect=201)
    api.move_clock("2024-04-02T12:00:00-04:00")
    assert fired(api, case) == ["2024-04-01T17:00:00+00:00", "2024-04-01T18:00:00+00:00",
                                "2024-04-01T19:00:00+00:00"]


def test_completing_the_task_stops_the_repetitions(api):
    api.deploy("test_cycle", reminders("R3/PT1H"))
    case = api.post("/api/v1/processes/test_cycle/instances", "clerk", {"variables": {}}, expect=201)
    api.move_clock("2024-04-01T13:30:00-04:00")
    api.post(f"/api/v1/tasks/{api.open_task(case, 'review')['id']}/complete", "clerk", {"data": {}})
    api.move_clock("2024-04-01T20:00:00-04:00")
    assert fired(api, case) == ["2024-04-01T17:00:00+00:00"]
    assert api.get(f"/api/v1/instances/{case['id']}", "boss")["status"] == "completed"
