"""Substitutes (API.md "Work management"): while a user is absent (engine clock), the substitute
lists the user's open tasks as `scope=mine`, marked, and may complete them; the history names both."""
from tests.support.diagrams import rules_flow

INTAKE = {"gross_annual_income": "40000.00", "activity_income": 20000}


def clerks_task(api):
    api.deploy("test_rules", rules_flow())
    case = api.post("/api/v1/processes/test_rules/instances", "clerk", {"variables": {}}, expect=201)
    task = api.open_task(case, "intake")
    api.post(f"/api/v1/tasks/{task['id']}/claim", "clerk")
    return task


def test_a_substitute_completes_an_absent_users_task_and_the_history_names_both(api):
    task = clerks_task(api)
    api.post(f"/api/v1/tasks/{task['id']}/complete", "clerk2", {"data": INTAKE}, expect=409)
    absence = api.put("/api/v1/users/clerk/absence", "clerk",
                      {"from": "2024-04-01", "until": "2024-04-05", "substitute": "clerk2"})
    assert absence["substitute"] == "clerk2" and absence["until"].startswith("2024-04-06")
    mine = api.get("/api/v1/tasks?scope=mine", "clerk2")
    assert [(t["id"], t["on_behalf_of"]) for t in mine] == [(task["id"], "clerk")]
    assert api.get("/api/v1/tasks?scope=available", "clerk2") == []
    done = api.post(f"/api/v1/tasks/{task['id']}/complete", "clerk2", {"data": INTAKE})
    assert done["task"]["completed_by"] == "clerk2" and done["task"]["assignee"] == "clerk"
    history = api.get(f"/api/v1/instances/{task['instance_id']}/history", "boss")
    completed = next(e for e in history if e["type"] == "task_completed")
    assert completed["actor"] == "clerk2" and completed["message"] == "on behalf of clerk"
    behalf = next(e for e in history if e["type"] == "task_completed_on_behalf")
    assert behalf["actor"] == "clerk2" and behalf["data"] == {"on_behalf_of": "clerk", "substitute": "clerk2"}


def test_after_until_the_absent_users_tasks_are_theirs_again(api):
    task = clerks_task(api)
    api.put("/api/v1/users/clerk/absence", "boss", {"from": "2024-04-01", "until": "2024-04-02", "substitute": "clerk2"})
    assert [t["id"] for t in api.get("/api/v1/tasks?scope=mine", "clerk2")] == [task["id"]]
    api.move_clock("2024-04-03T04:00:00Z")  # 00:00 in Puerto Rico on the 3rd: the absence is over
    assert api.get("/api/v1/tasks?scope=mine", "clerk2") == []
    api.post(f"/api/v1/tasks/{task['id']}/complete", "clerk2", {"data": INTAKE}, expect=409)


def test_an_absence_not_started_yet_or_ended_gives_nothing(api):
    task = clerks_task(api)
    api.put("/api/v1/users/clerk/absence", "clerk", {"from": "2024-05-01", "until": "2024-05-02", "substitute": "clerk2"})
    assert api.get("/api/v1/tasks?scope=mine", "clerk2") == []
    api.put("/api/v1/users/clerk/absence", "clerk", {"from": "2024-04-01", "until": "2024-05-02", "substitute": "clerk2"})
    assert len(api.get("/api/v1/tasks?scope=mine", "clerk2")) == 1
    api.call("DELETE", "/api/v1/users/clerk/absence", "clerk", 204)
    assert api.get("/api/v1/tasks?scope=mine", "clerk2") == []
    assert [t["id"] for t in api.get("/api/v1/tasks?scope=mine", "clerk")] == [task["id"]]


def test_a_substitute_without_the_lane_is_refused_and_who_may_set_it(api):
    clerks_task(api)
    refused = api.put("/api/v1/users/clerk/absence", "boss",
                      {"from": "2024-04-01", "until": "2024-04-05", "substitute": "reviewer"}, expect=422)
    assert refused["errors"]["substitute"] == ["does not hold the role test_clerk"]
    api.put("/api/v1/users/clerk/absence", "clerk2",
            {"from": "2024-04-01", "until": "2024-04-05", "substitute": "clerk2"}, expect=403)
    bad = api.put("/api/v1/users/clerk/absence", "clerk",
                  {"from": "2024-04-05", "until": "2024-04-01", "substitute": "clerk2"}, expect=422)
    assert "until" in bad["errors"]
    api.put("/api/v1/users/clerk/absence", "clerk", {"from": "mañana", "until": "2024-04-01", "substitute": "clerk2"},
            expect=422)
    api.put("/api/v1/users/clerk/absence", "clerk", {"from": "2024-04-01", "until": "2024-04-05", "substitute": "ghost"},
            expect=422)
    assert api.get("/api/v1/tasks?scope=mine", "reviewer") == []


def test_dates_at_the_edge_of_the_calendar_are_refused_not_crashed(api):
    for body in ({"from": "2024-04-01", "until": "9999-12-31"}, {"from": "2024-02-30", "until": "2024-04-01"},
                 {"from": "2024-04-01T00:00:00", "until": "2024-05-01"}):
        api.put("/api/v1/users/clerk/absence", "clerk", {**body, "substitute": "clerk2"}, expect=422)
    api.get("/api/v1/reports/cycle-times?to=9999-12-31", "boss", expect=422)


def test_the_task_csv_holds_the_substitutes_stand_in_tasks_marked(api):
    """The CSV of `scope=mine` is the same list as the page: a substitute's download has the absent
    user's task, with whom it is on behalf of (it used to leave them out)."""
    import csv
    import io
    task = clerks_task(api)
    api.put("/api/v1/users/clerk/absence", "clerk", {"from": "2024-04-01", "until": "2024-04-05", "substitute": "clerk2"})
    response = api.call("GET", "/api/v1/tasks?scope=mine&format=csv", "clerk2")
    rows = list(csv.DictReader(io.StringIO(response.get_data(as_text=True))))
    assert [(int(r["id"]), r["on_behalf_of"]) for r in rows] == [(task["id"], "clerk")]
    own = list(csv.DictReader(io.StringIO(api.call("GET", "/api/v1/tasks?format=csv", "clerk").get_data(as_text=True))))
    assert [(int(r["id"]), r["on_behalf_of"]) for r in own] == [(task["id"], "")]
