"""A message whose correlation property cannot be read: a 422 for a payload sent to the API (nothing
changes), a case in `error` naming the throwing element for a message the diagram sends itself."""
from tests.support import bpmn as b

CORRELATION = ('<bpmn:correlationProperty id="order_id" name="order_id">'
               '<bpmn:correlationPropertyRetrievalExpression messageRef="msg_docs">'
               '<bpmn:formalExpression>order_id</bpmn:formalExpression>'
               '</bpmn:correlationPropertyRetrievalExpression></bpmn:correlationProperty>')


def test_a_payload_without_the_correlation_property_is_refused_and_changes_nothing(api):
    xml = b.diagram("corr_in", lanes={"test_clerk": ["start", "wait_docs", "review", "end"]},
                    nodes=[b.start(), b.message_catch("wait_docs", "msg_docs", "received"), b.user("review"), b.end()],
                    flows=b.chain("start", "wait_docs", "review", "end"), messages={"msg_docs": "documents_received"},
                    processes_extra=CORRELATION)
    api.deploy("corr_in", {"corr_in.bpmn": xml, "review.schema.json": b.form({})})
    case = api.post("/api/v1/processes/corr_in/instances", "clerk", {"variables": {}}, expect=201)
    path = f"/api/v1/instances/{case['id']}/messages/documents_received"
    refused = api.post(path, "clerk", {"payload": {"documents": ["a"]}}, expect=422)
    assert "order_id" in str(refused["errors"]["payload"])
    same = api.get(f"/api/v1/instances/{case['id']}", "boss")
    assert same["status"] == "active" and same["open_tasks"] == []
    assert not [e for e in api.get(f"/api/v1/instances/{case['id']}/history", "boss") if e["type"] == "message_received"]
    done = api.post(path, "clerk", {"payload": {"order_id": "A-1", "documents": ["a"]}})
    assert [t["element_id"] for t in done["open_tasks"]] == ["review"]
    assert done["variables"]["received"]["order_id"] == "A-1"


def test_a_message_thrown_without_its_correlation_property_is_an_error_naming_the_throw(api):
    throw = ('<bpmn:intermediateThrowEvent id="notify"><bpmn:messageEventDefinition messageRef="msg_docs">'
             '<bpmn:extensionElements><spiffworkflow:messagePayload>{"amount": 1}</spiffworkflow:messagePayload>'
             '</bpmn:extensionElements></bpmn:messageEventDefinition></bpmn:intermediateThrowEvent>')
    xml = b.diagram("corr_out", lanes={"test_clerk": ["start", "intake", "notify", "end"]},
                    nodes=[b.start(), b.user("intake"), throw, b.end()],
                    flows=b.chain("start", "intake", "notify", "end"), messages={"msg_docs": "documents_received"},
                    processes_extra=CORRELATION)
    api.deploy("corr_out", {"corr_out.bpmn": xml, "intake.schema.json": b.form({})})
    case = api.post("/api/v1/processes/corr_out/instances", "clerk", {"variables": {}}, expect=201)
    task = api.open_task(case, "intake")
    after = api.post(f"/api/v1/tasks/{task['id']}/complete", "clerk", {"data": {}})["instance"]
    assert after["status"] == "error" and after["error"]["element_id"] == "notify"
    assert after["error"]["message"].startswith("CORRELATION_PROPERTY_MISSING") and "order_id" in after["error"]["message"]
