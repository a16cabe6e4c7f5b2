"""Bulk assign and release (API.md "Work management"): each task checked and audited as a single
command would be, in its own transaction, so one refusal leaves the others done."""
from tests.support.diagrams import rules_flow


def start_cases(api, n):
    api.deploy("test_rules", rules_flow())
    cases = [api.post("/api/v1/processes/test_rules/instances", "clerk", {"variables": {}}, expect=201)
             for _ in range(n)]
    return [api.open_task(c, "intake") for c in cases]


def complete_intake(api, task):
    api.post(f"/api/v1/tasks/{task['id']}/complete", "clerk",
             {"data": {"gross_annual_income": "40000.00", "activity_income": 20000}})


def test_bulk_assign_keeps_the_good_ones_and_names_each_refusal(api):
    first, second, done = start_cases(api, 3)
    complete_intake(api, done)
    result = api.post("/api/v1/tasks/bulk-assign", "boss",
                      {"task_ids": [first["id"], second["id"], done["id"], 999999], "username": "clerk2"})
    assert result["assigned"] == [first["id"], second["id"]]
    assert [(r["id"], r["code"]) for r in result["refused"]] == [(done["id"], "TASK_NOT_OPEN"),
                                                                  (999999, "TASK_NOT_FOUND")]
    mine = api.get("/api/v1/tasks?scope=mine", "clerk2")
    assert sorted(t["id"] for t in mine) == sorted([first["id"], second["id"]])
    history = api.get(f"/api/v1/instances/{first['instance_id']}/history", "boss")
    assigned = [e for e in history if e["type"] == "task_assigned"]
    assert len(assigned) == 1 and assigned[0]["data"] == {"from": None, "to": "clerk2"}
    assert assigned[0]["actor"] == "boss"


def test_bulk_assign_to_someone_without_the_lane_is_refused_for_each_task(api):
    first, second = start_cases(api, 2)
    result = api.post("/api/v1/tasks/bulk-assign", "boss",
                      {"task_ids": [first["id"], second["id"]], "username": "reviewer"})
    assert result["assigned"] == []
    assert {r["code"] for r in result["refused"]} == {"LANE_NOT_HELD"}
    assert api.get("/api/v1/tasks?scope=mine", "reviewer") == []


def test_bulk_reassign_then_release(api):
    first, second = start_cases(api, 2)
    api.post(f"/api/v1/tasks/{first['id']}/claim", "clerk")
    result = api.post("/api/v1/tasks/bulk-assign", "boss",
                      {"task_ids": [first["id"], second["id"]], "username": "clerk2"})
    assert result == {"assigned": [first["id"], second["id"]], "refused": []}
    assert api.get("/api/v1/tasks?scope=mine", "clerk") == []
    released = api.post("/api/v1/tasks/bulk-release", "boss", {"task_ids": [first["id"], second["id"]]})
    assert released == {"released": [first["id"], second["id"]], "refused": []}
    assert len(api.get("/api/v1/tasks?scope=available", "clerk")) == 2
    history = api.get(f"/api/v1/instances/{first['instance_id']}/history", "boss")
    assert [e["data"]["was"] for e in history if e["type"] == "task_released"] == ["clerk2"]


def test_bulk_needs_a_supervisor_and_a_list(api):
    (task,) = start_cases(api, 1)
    api.post("/api/v1/tasks/bulk-assign", "clerk", {"task_ids": [task["id"]], "username": "clerk"}, expect=403)
    api.post("/api/v1/tasks/bulk-assign", "boss", {"task_ids": [], "username": "clerk"}, expect=422)
    api.post("/api/v1/tasks/bulk-release", "boss", {"task_ids": ["x"]}, expect=422)
    assert api.get("/api/v1/tasks?scope=mine", "clerk") == []
