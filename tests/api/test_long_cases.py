"""A case that loops 1,000 times stays small and still finds its next task (SpiffWorkflow's depth trap)."""
from sqlalchemy import func, select

from engine.commands.tasks import complete
from engine.identity.actor import Actor
from engine.persistence.models import WorkflowTaskState
from tests.support.diagrams import loop_flow


def test_a_case_looping_1000_times_finds_its_next_task_and_completes(api, engine):
    api.deploy("test_loop", loop_flow())
    case = api.post("/api/v1/processes/test_loop/instances", "clerk", {"variables": {"rounds": 0}}, expect=201)
    clerk = Actor("clerk", frozenset({"test_clerk"}))
    live_rows = []
    for round_no in range(1, 1001):
        assert len(case["open_tasks"]) == 1, f"round {round_no}: the next task was lost"
        result = engine.execute(complete, clerk, case["open_tasks"][0]["id"], {"done": round_no == 1000})
        case = result["instance"]
        if round_no in (10, 100, 1000):
            live_rows.append(engine.read(lambda s: s.scalar(
                select(func.count()).select_from(WorkflowTaskState)
                .where(WorkflowTaskState.instance_id == case["id"]))))
    assert case["status"] == "completed"
    assert case["variables"]["rounds"] == 1000
    # The stored workflow does not grow with the case's history.
    assert live_rows[2] <= live_rows[0] + 2, live_rows
    activity = api.get(f"/api/v1/instances/{case['id']}/activity", "boss")
    assert activity["work"]["count"] == 1000
    completed = api.call("GET", f"/api/v1/tasks?scope=all&state=completed&instance={case['id']}&per_page=1",
                         "boss", 200)
    assert completed.headers["X-Total-Count"] == "1000"
