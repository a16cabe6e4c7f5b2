"""A case from start to outcome through the HTTP API: forms, roles, rules, gateway, history."""
from tests.support.diagrams import rules_flow


def start_rules_case(api, variables=None):
    api.deploy("test_rules", rules_flow())
    return api.post("/api/v1/processes/test_rules/instances", "clerk", {"variables": variables or {}}, expect=201)


def test_deploying_identical_content_twice_returns_the_same_version(api):
    first = api.deploy("test_rules", rules_flow())
    again = api.deploy("test_rules", rules_flow(), expect=200)
    assert first["version"] == again["version"] == 1
    assert first["hash"] == again["hash"]
    listed = api.get("/api/v1/processes", "clerk")
    assert listed[0]["key"] == "test_rules" and listed[0]["versions"] == [1]


def test_eligible_application_is_approved_and_the_decision_is_in_the_history(api):
    case = start_rules_case(api)
    assert case["status"] == "active" and case["case_number"] == "TES-2024-000001"
    intake = api.open_task(case, "intake")
    assert intake["lane"] == "test_clerk"

    done = api.post(f"/api/v1/tasks/{intake['id']}/complete", "clerk",
                    {"data": {"gross_annual_income": "40000.00", "activity_income": 20000}})
    case = done["instance"]
    assert case["stage"] == "EVALUATED"
    assert case["variables"]["eligibility"]["outcome"] is True
    assert case["variables"]["eligibility"]["income_share_pct"] == "50.00"
    approve = api.open_task(case, "approve")

    done = api.post(f"/api/v1/tasks/{approve['id']}/complete", "reviewer", {"data": {"approved": True}})
    assert done["instance"]["status"] == "completed"
    assert done["instance"]["outcome"] == "APPROVED"

    history = api.get(f"/api/v1/instances/{case['id']}/history", "boss")
    decision = next(e for e in history if e["type"] == "decision")
    assert "FAR-04" in decision["rule_ids"] and "AMB-01" in decision["rule_ids"]
    assert decision["element_id"] == "decide"
    assert decision["data"]["inputs"] == {"gross_annual_income": "40000.00", "activity_income": "20000.00",
                                          "min_share_pct": "50.00"}
    kinds = [e["type"] for e in history]
    assert kinds[0] == "case_started" and kinds[-1] == "case_completed"
    assert kinds.count("task_completed") == 2


def test_one_cent_under_the_threshold_is_denied(api):
    case = start_rules_case(api)
    intake = api.open_task(case, "intake")
    done = api.post(f"/api/v1/tasks/{intake['id']}/complete", "clerk",
                    {"data": {"gross_annual_income": "40000.00", "activity_income": "19999.99"}})
    assert done["instance"]["outcome"] == "DENIED"
    assert done["instance"]["status"] == "completed"


def test_form_errors_are_per_field_and_change_nothing(api):
    case = start_rules_case(api)
    intake = api.open_task(case, "intake")
    bad = api.post(f"/api/v1/tasks/{intake['id']}/complete", "clerk",
                   {"data": {"gross_annual_income": "cuarenta mil", "extra": 1}}, expect=422)
    assert set(bad["errors"]) >= {"gross_annual_income", "activity_income"}
    assert bad["code"] == 422 and bad["status"] == "Unprocessable Entity"
    again = api.get(f"/api/v1/instances/{case['id']}", "clerk")
    assert again["open_tasks"][0]["id"] == intake["id"]
    assert not [e for e in api.get(f"/api/v1/instances/{case['id']}/history", "boss")
                if e["type"] == "task_completed"]


def test_a_role_that_does_not_hold_the_lane_gets_403(api):
    case = start_rules_case(api)
    intake = api.open_task(case, "intake")
    denied = api.post(f"/api/v1/tasks/{intake['id']}/complete", "reviewer",
                      {"data": {"gross_annual_income": "1.00", "activity_income": "1.00"}}, expect=403)
    assert denied["code"] == 403
    api.post("/api/v1/processes/test_rules/instances", "reviewer", {"variables": {}}, expect=403)
    api.post(f"/api/v1/tasks/{intake['id']}/claim", "reviewer", expect=403)


def test_completing_a_finished_task_again_is_a_409(api):
    case = start_rules_case(api)
    intake = api.open_task(case, "intake")
    data = {"data": {"gross_annual_income": "100.00", "activity_income": "0.00"}}
    api.post(f"/api/v1/tasks/{intake['id']}/complete", "clerk", data)
    again = api.post(f"/api/v1/tasks/{intake['id']}/complete", "clerk", data, expect=409)
    assert again["errors"]["rule"] == ["TASK_NOT_OPEN"]


def test_claim_release_and_assign(api):
    case = start_rules_case(api)
    intake = api.open_task(case, "intake")
    claimed = api.post(f"/api/v1/tasks/{intake['id']}/claim", "clerk")
    assert claimed["assignee"] == "clerk"
    other = api.post(f"/api/v1/tasks/{intake['id']}/claim", "clerk2", expect=409)
    assert other["errors"]["rule"] == ["TASK_CLAIMED_BY_OTHER"]
    mine = api.call("GET", "/api/v1/tasks?scope=mine", "clerk", 200)
    assert [t["id"] for t in mine.get_json()] == [intake["id"]] and mine.headers["X-Total-Count"] == "1"
    assert api.get("/api/v1/tasks?scope=available", "clerk2") == []
    api.post(f"/api/v1/tasks/{intake['id']}/unclaim", "clerk")
    assert [t["id"] for t in api.get("/api/v1/tasks?scope=available", "clerk2")] == [intake["id"]]
    assigned = api.post(f"/api/v1/tasks/{intake['id']}/assign", "boss", {"username": "clerk2"})
    assert assigned["assignee"] == "clerk2"
    api.post(f"/api/v1/tasks/{intake['id']}/assign", "boss", {"username": "reviewer"}, expect=422)
    api.post(f"/api/v1/tasks/{intake['id']}/assign", "clerk", {"username": "clerk"}, expect=403)
    api.get("/api/v1/tasks?scope=all", "clerk", expect=403)
    assert len(api.get("/api/v1/tasks?scope=all", "boss")) == 1


def test_task_detail_carries_the_form_and_case_context(api):
    case = start_rules_case(api, {"applicant": {"name": "Ana Torres"}})
    intake = api.open_task(case, "intake")
    detail = api.get(f"/api/v1/tasks/{intake['id']}", "clerk")
    assert detail["form"]["schema"]["required"] == ["activity_income", "gross_annual_income"]
    assert detail["data"]["case"]["applicant"]["name"] == "Ana Torres"
    api.get(f"/api/v1/tasks/{intake['id']}", "reviewer", expect=403)


def test_activity_overlay_counts_visits_and_marks_the_active_task(api):
    case = start_rules_case(api)
    activity = api.get(f"/api/v1/instances/{case['id']}/activity", "boss")
    assert activity["start"] == {"state": "completed", "count": 1}
    assert activity["intake"]["state"] == "active"
