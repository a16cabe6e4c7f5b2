"""Every command is bounded: long automatic loops end right, and a command past its budget of engine
steps or time puts its case in `error`, naming the step, and lets everyone else go on."""
from __future__ import annotations

import threading
import time

from tests.support import bpmn as b


def counting_loop(rounds: int, key: str = "test_rounds") -> dict[str, str]:
    """start → n = n + 1 → again while n < rounds → review (clerk) → end, all in one command."""
    xml = b.diagram(
        key, lanes={"test_clerk": ["start", "count", "again", "review", "end"]},
        nodes=[b.start(), b.script("count", "n = n + 1"), b.xor("again", default="f_done"),
               b.user("review"), b.end()],
        flows=[*b.chain("start", "count", "again"), b.flow("f_more", "again", "count", f"n < {rounds}"),
               b.flow("f_done", "again", "review"), *b.chain("review", "end")])
    return {"rounds.bpmn": xml, "review.schema.json": b.form({})}


def start(api, key: str = "test_rounds") -> dict:
    return api.post(f"/api/v1/processes/{key}/instances", "clerk", {"variables": {"n": 0}}, expect=201)


def test_an_automatic_loop_of_2000_rounds_in_one_command_ends_with_the_right_value(api, monkeypatch):
    # The default step budget holds it; the time limit is lifted so a slow test machine cannot decide.
    monkeypatch.setenv("TRAMITE_COMMAND_MAX_SECONDS", "600")
    api.deploy("test_rounds", counting_loop(2000))
    case = start(api)
    assert case["status"] == "active", case.get("error")
    assert case["variables"]["n"] == 2000
    assert [t["element_id"] for t in case["open_tasks"]] == ["review"]
    done = api.post(f"/api/v1/tasks/{case['open_tasks'][0]['id']}/complete", "clerk", {"data": {}})
    assert done["instance"]["status"] == "completed" and done["instance"]["variables"]["n"] == 2000
    activity = api.get(f"/api/v1/instances/{case['id']}/activity", "boss")
    assert activity["count"]["count"] == 2000


def test_a_command_past_its_step_budget_ends_in_error_naming_the_step_and_a_retry_goes_on(api, monkeypatch):
    monkeypatch.setenv("TRAMITE_COMMAND_MAX_STEPS", "500")
    monkeypatch.setenv("TRAMITE_COMMAND_MAX_SECONDS", "600")  # the step limit decides, not a slow machine
    api.deploy("test_rounds", counting_loop(600))
    case = start(api)
    assert case["status"] == "error"
    assert case["error"]["element_id"] in ("count", "again")
    assert case["error"]["message"].startswith("COMMAND_BUDGET: ")
    assert "500 engine steps" in case["error"]["message"]
    assert case["open_tasks"] == []
    history = [e for e in api.get(f"/api/v1/instances/{case['id']}/history", "boss") if e["type"] == "error"]
    assert history and history[0]["message"].startswith("COMMAND_BUDGET")
    # The state was saved where the budget ran out: each retry is a command with a budget of its own.
    retried = api.post(f"/api/v1/instances/{case['id']}/retry", "boss")
    assert retried["status"] == "error"
    retried = api.post(f"/api/v1/instances/{case['id']}/retry", "boss")
    assert retried["status"] == "active" and retried["variables"]["n"] == 600
    assert [t["element_id"] for t in retried["open_tasks"]] == ["review"]


def test_an_endless_automatic_loop_ends_in_error_and_other_users_are_served_meanwhile(app, api, monkeypatch):
    monkeypatch.setenv("TRAMITE_COMMAND_MAX_SECONDS", "1")
    api.deploy("test_rounds", counting_loop(10 ** 9))
    api.deploy("test_other", counting_loop(1, key="test_other"))
    clerk = api.token("clerk")
    api.token("boss")  # signed in before: signing in is a write, and writes queue behind the runaway
    answered: dict = {}

    def runaway():
        client = app.test_client()
        response = client.post("/api/v1/processes/test_rounds/instances", json={"variables": {"n": 0}},
                               headers={"Authorization": f"Bearer {clerk}"})
        answered["runaway"] = (response.status_code, response.get_json())

    thread = threading.Thread(target=runaway)
    thread.start()
    reads = []
    while thread.is_alive() and len(reads) < 50:
        began = time.monotonic()
        api.get("/api/v1/processes", "boss")
        reads.append(time.monotonic() - began)
    thread.join(timeout=60)
    assert not thread.is_alive(), "the runaway command never ended"
    status, body = answered["runaway"]
    assert status == 201 and body["status"] == "error"
    assert body["error"]["message"].startswith("COMMAND_BUDGET: ") and body["error"]["element_id"] in ("count", "again")
    # Served while it ran (several reads), each in well under a second (a generous "does not hang" bound).
    assert len(reads) >= 2 and max(reads) < 1.0, reads
    # No lock outlived it: another user's write right after is served at once.
    began = time.monotonic()
    other = start(api, "test_other")
    assert time.monotonic() - began < 1.0 and other["status"] == "active"
