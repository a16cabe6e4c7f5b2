"""POST /api/v1/signals/{name}: a supervisor's signal reaches every active case waiting for it
(API.md); deploy accepts a signal catch because this can send it."""
from __future__ import annotations

from tests.support import bpmn as b
from tests.support.small_diagrams import around, signal_catch, signal_definition


def deploy_waiting(api, key="test_signal", variable="news"):
    body = signal_catch("wait") + b.script("after", "outcome = 'GOT ' + str(news.get('n'))")
    xml = around(key, body, ids=["wait", "after"], definitions_extra=signal_definition(variable=variable))
    api.deploy(key, {"signal.bpmn": xml})


def start(api, key="test_signal"):
    return api.post(f"/api/v1/processes/{key}/instances", "clerk", {"variables": {}}, expect=201)


def test_a_signal_reaches_every_waiting_case_with_its_payload(api):
    deploy_waiting(api)
    first, second = start(api), start(api)
    assert first["status"] == "active" and first["open_tasks"] == []
    answer = api.post("/api/v1/signals/go", "boss", {"payload": {"n": 7}})
    assert answer == {"delivered_to": [first["id"], second["id"]]}
    for case in (first, second):
        after = api.get(f"/api/v1/instances/{case['id']}", "boss")
        assert after["status"] == "completed" and after["outcome"] == "GOT 7"
    history = api.get(f"/api/v1/instances/{first['id']}/history", "boss")
    assert [e["element_id"] for e in history if e["type"] == "signal_received"] == ["wait"]
    # Nobody waits any more: the signal is lost, as BPMN says.
    assert api.post("/api/v1/signals/go", "boss", {"payload": {}}) == {"delivered_to": []}


def test_a_signal_of_another_name_or_from_a_non_supervisor_is_not_delivered(api):
    deploy_waiting(api)
    case = start(api)
    assert api.post("/api/v1/signals/otro", "boss", {"payload": {}}) == {"delivered_to": []}
    api.post("/api/v1/signals/go", "clerk", {"payload": {}}, expect=403)
    api.post("/api/v1/signals/go", "owner", {"payload": {}}, expect=403)
    api.post("/api/v1/signals/go", "boss", {"payload": [1, 2]}, expect=422)
    assert api.get(f"/api/v1/instances/{case['id']}", "boss")["status"] == "active"


def test_a_signal_boundary_event_interrupts_the_task_it_sits_on(api):
    xml = b.diagram(
        "test_signal_boundary", lanes={"test_clerk": ["start", "work", "stop", "stopped", "end", "end_stopped"]},
        nodes=[b.start(), b.user("work"),
               '<bpmn:boundaryEvent id="stop" attachedToRef="work"><bpmn:signalEventDefinition signalRef="sig_go"/>'
               '</bpmn:boundaryEvent>',
               b.script("stopped", "outcome = 'STOPPED'"), b.end(), b.end("end_stopped")],
        flows=[*b.chain("start", "work", "end"), *b.chain("stop", "stopped", "end_stopped")])
    xml = xml.replace('<bpmn:process ', signal_definition() + '<bpmn:process ', 1)
    api.deploy("test_signal_boundary", {"s.bpmn": xml, "work.schema.json": b.form({})})
    case = start(api, "test_signal_boundary")
    assert api.post("/api/v1/signals/go", "boss", {}) == {"delivered_to": [case["id"]]}
    after = api.get(f"/api/v1/instances/{case['id']}", "boss")
    assert after["status"] == "completed" and after["outcome"] == "STOPPED" and after["open_tasks"] == []
