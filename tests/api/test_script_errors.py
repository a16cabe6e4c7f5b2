"""A failing or runaway script puts the case in `error`, visible and retryable after a fix."""
from tests.support.diagrams import script_flow


def run_to_script(api, code):
    api.deploy("test_script", script_flow(code))
    case = api.post("/api/v1/processes/test_script/instances", "clerk", {"variables": {}}, expect=201)
    intake = api.open_task(case, "intake")
    return api.post(f"/api/v1/tasks/{intake['id']}/complete", "clerk", {"data": {}})["instance"]


def test_an_endless_loop_is_stopped_by_the_time_budget_and_the_case_is_in_error(api):
    case = run_to_script(api, "n = 0\nwhile True:\n    n = n + 1")
    assert case["status"] == "error"
    assert case["error"]["element_id"] == "run"
    assert "budget" in case["error"]["message"]
    errors = api.get("/api/v1/instances?status=error", "boss")
    assert [c["id"] for c in errors] == [case["id"]]
    event = [e for e in api.get(f"/api/v1/instances/{case['id']}/history", "boss") if e["type"] == "error"]
    assert event and event[0]["element_id"] == "run"


def test_a_supervisor_retries_the_failed_script_after_the_data_is_fixed(api):
    # calendar.holidays is read live (not frozen), so an admin fix reaches a running case.
    case = run_to_script(api, "per_holiday = 10 / len(param('calendar.holidays'))")
    assert case["status"] == "error" and "division by zero" in case["error"]["message"]
    api.post(f"/api/v1/instances/{case['id']}/retry", "clerk", expect=403)
    still = api.post(f"/api/v1/instances/{case['id']}/retry", "boss")
    assert still["status"] == "error"
    api.put("/api/v1/parameters/calendar.holidays", "admin", {"value": ["2024-07-04", "2024-12-25"]})
    fixed = api.post(f"/api/v1/instances/{case['id']}/retry", "boss")
    assert fixed["status"] == "active" and fixed["error"] is None
    assert fixed["variables"]["per_holiday"] == 5
    assert [t["element_id"] for t in fixed["open_tasks"]] == ["after"]
    api.post(f"/api/v1/instances/{case['id']}/retry", "boss", expect=409)


def test_attribute_escapes_fail_at_run_time_too(api):
    # Deploy refuses dunder names; a string built at run time must not get through either.
    case = run_to_script(api, "name = '__cl' + 'ass__'\nx = {'a': 1}.get(name)\ny = str.format('{0.__class__}', 1)")
    assert case["status"] == "error"
