"""Messages with payload, parallel split/join and call activities, through the HTTP API."""
from tests.support.diagrams import child_flow, event_gateway_flow, message_flow, parallel_flow, parent_flow


def test_message_with_payload_reaches_the_waiting_case(api):
    api.deploy("test_message", message_flow())
    case = api.post("/api/v1/processes/test_message/instances", "clerk", {"variables": {}}, expect=201)
    assert case["open_tasks"] == [] and case["status"] == "active"
    url = f"/api/v1/instances/{case['id']}/messages/documents_received"

    api.post(url, "reviewer", {"payload": {"documents": ["cert.pdf"]}}, expect=403)
    bad = api.post(url, "clerk", {"payload": {"documents": []}}, expect=422)
    assert "documents" in bad["errors"]
    done = api.post(url, "clerk", {"payload": {"documents": ["cert.pdf", "id.pdf"]}})
    assert done["variables"]["docs"] == 2
    assert done["variables"]["received"] == {"documents": ["cert.pdf", "id.pdf"]}
    assert [t["element_id"] for t in done["open_tasks"]] == ["review"]

    again = api.post(url, "clerk", {"payload": {"documents": ["x"]}}, expect=409)
    assert again["errors"]["rule"] == ["MESSAGE_NOT_EXPECTED"]
    unknown = api.post(f"/api/v1/instances/{case['id']}/messages/no_such_message", "boss", {}, expect=409)
    assert unknown["errors"]["rule"] == ["MESSAGE_NOT_EXPECTED"]
    received = [e for e in api.get(f"/api/v1/instances/{case['id']}/history", "boss")
                if e["type"] == "message_received"]
    assert len(received) == 1 and received[0]["data"]["payload"]["documents"] == ["cert.pdf", "id.pdf"]


def test_a_supervisor_may_send_any_message(api):
    api.deploy("test_message", message_flow())
    case = api.post("/api/v1/processes/test_message/instances", "clerk", {"variables": {}}, expect=201)
    done = api.post(f"/api/v1/instances/{case['id']}/messages/documents_received", "boss",
                    {"payload": {"documents": ["a"]}})
    assert done["variables"]["docs"] == 1


def test_parallel_branches_join_only_when_both_are_done(api):
    api.deploy("test_parallel", parallel_flow())
    case = api.post("/api/v1/processes/test_parallel/instances", "clerk", {"variables": {}}, expect=201)

    def stored_open(case):
        # What a later read finds must match what the command answered (the engine keeps a count of
        # open tasks to skip reading them when none is left).
        read = api.get(f"/api/v1/instances/{case['id']}", "boss")["open_tasks"]
        listed = api.get(f"/api/v1/tasks?scope=all&instance={case['id']}", "boss")
        assert sorted(t["id"] for t in read) == sorted(t["id"] for t in listed) == \
            sorted(t["id"] for t in case["open_tasks"])
        return sorted(t["element_id"] for t in read)

    assert stored_open(case) == ["check_a", "check_b"]
    case = api.post(f"/api/v1/tasks/{api.open_task(case, 'check_a')['id']}/complete", "clerk",
                    {"data": {}})["instance"]
    assert stored_open(case) == ["check_b"]
    case = api.post(f"/api/v1/tasks/{api.open_task(case, 'check_b')['id']}/complete", "reviewer",
                    {"data": {}})["instance"]
    assert stored_open(case) == ["after"]
    case = api.post(f"/api/v1/tasks/{api.open_task(case, 'after')['id']}/complete", "clerk",
                    {"data": {}})["instance"]
    assert case["status"] == "completed"
    assert stored_open(case) == []


def test_cancelling_a_case_closes_every_open_task(api):
    api.deploy("test_parallel", parallel_flow())
    case = api.post("/api/v1/processes/test_parallel/instances", "clerk", {"variables": {}}, expect=201)
    case = api.post(f"/api/v1/tasks/{api.open_task(case, 'check_a')['id']}/complete", "clerk",
                    {"data": {}})["instance"]
    cancelled = api.post(f"/api/v1/instances/{case['id']}/cancel", "boss", {"reason": "duplicado"})
    assert cancelled["status"] == "cancelled" and cancelled["open_tasks"] == []
    assert api.get(f"/api/v1/instances/{case['id']}", "boss")["open_tasks"] == []
    states = {t["element_id"]: t["state"] for t in
              api.get(f"/api/v1/tasks?scope=all&state=any&instance={case['id']}", "boss")}
    assert states == {"check_a": "completed", "check_b": "cancelled"}


def test_call_activity_runs_the_deployed_child_and_returns_its_data(api):
    refused = api.deploy("test_parent", parent_flow(), expect=400)
    assert "CALLED_PROCESS_NOT_FOUND" in refused["errors"]["call_child"][0]
    api.deploy("test_child", child_flow())
    api.deploy("test_parent", parent_flow())
    case = api.post("/api/v1/processes/test_parent/instances", "clerk",
                    {"variables": {"requester": "Ana"}}, expect=201)
    child_task = api.open_task(case, "child_task")
    case = api.post(f"/api/v1/tasks/{child_task['id']}/complete", "clerk", {"data": {"ok": True}})["instance"]
    assert case["variables"]["child_result"] == "hecho por Ana"
    case = api.post(f"/api/v1/tasks/{api.open_task(case, 'check')['id']}/complete", "clerk",
                    {"data": {}})["instance"]
    assert case["status"] == "completed"


def test_a_new_child_version_does_not_change_the_version_a_parent_pinned(api):
    api.deploy("test_child", child_flow())
    api.deploy("test_parent", parent_flow())
    changed = child_flow()
    changed["child.bpmn"] = changed["child.bpmn"].replace("'hecho por '", "'v2 por '")
    assert api.deploy("test_child", changed)["version"] == 2
    case = api.post("/api/v1/processes/test_parent/instances", "clerk",
                    {"variables": {"requester": "Ana"}}, expect=201)
    child_task = api.open_task(case, "child_task")
    case = api.post(f"/api/v1/tasks/{child_task['id']}/complete", "clerk", {"data": {"ok": True}})["instance"]
    assert case["variables"]["child_result"] == "hecho por Ana"


def test_cancel_closes_every_open_task_and_deadline(api):
    api.deploy("test_parallel", parallel_flow())
    case = api.post("/api/v1/processes/test_parallel/instances", "clerk", {"variables": {}}, expect=201)
    api.post(f"/api/v1/instances/{case['id']}/cancel", "clerk", {"reason": "x"}, expect=403)
    api.post(f"/api/v1/instances/{case['id']}/cancel", "boss", {"reason": ""}, expect=422)
    cancelled = api.post(f"/api/v1/instances/{case['id']}/cancel", "boss", {"reason": "Duplicado"})
    assert cancelled["status"] == "cancelled" and cancelled["open_tasks"] == []
    api.post(f"/api/v1/instances/{case['id']}/cancel", "boss", {"reason": "otra vez"}, expect=409)
    history = api.get(f"/api/v1/instances/{case['id']}/history", "boss")
    assert history[-1]["type"] == "case_cancelled" and history[-1]["message"] == "Duplicado"


def test_event_gateway_takes_the_message_that_arrives_before_its_deadline(api):
    api.deploy("test_race", event_gateway_flow())
    case = api.post("/api/v1/processes/test_race/instances", "clerk", {"variables": {}}, expect=201)
    assert case["deadlines"] == [{"name": "wait", "element_id": "wait", "due_at": "2024-04-12T04:00:00+00:00"}]
    assert api.get(f"/api/v1/instances/{case['id']}/activity", "clerk")["wait"]["state"] == "waiting"
    api.move_clock("2024-04-11T16:00:00-04:00")
    done = api.post(f"/api/v1/instances/{case['id']}/messages/documents_received", "clerk",
                    {"payload": {"documents": ["a.pdf"]}})
    assert done["outcome"] == "RECEIVED" and done["deadlines"] == []


def test_event_gateway_deadline_fires_and_a_late_message_is_refused(api):
    api.deploy("test_race", event_gateway_flow())
    case = api.post("/api/v1/processes/test_race/instances", "clerk", {"variables": {}}, expect=201)
    api.move_clock("2024-04-12T00:00:00-04:00")
    late = api.get(f"/api/v1/instances/{case['id']}", "boss")
    assert late["outcome"] == "EXPIRED"
    refused = api.post(f"/api/v1/instances/{case['id']}/messages/documents_received", "clerk",
                       {"payload": {"documents": ["a.pdf"]}}, expect=409)
    assert refused["errors"]["rule"] == ["MESSAGE_NOT_EXPECTED"]
