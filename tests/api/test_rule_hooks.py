"""Procedure rule hooks: a refusal answers with its code, changes nothing, and stays on record."""
import pytest

from engine.rules.decision import Refusal, RuleViolation
from engine.kernel.procedure import Procedure
from tests.support.procedures import run_with
from tests.support.diagrams import message_flow, rules_flow


def approve_needs_a_note(data, facts):
    if data.get("approved") and not data.get("note"):
        raise RuleViolation("NOTE_REQUIRED", "an approval needs a note", ["TEST-01"])


def late_documents_are_refused(payload, facts):
    if "tarde.pdf" in payload["documents"]:
        raise Refusal("UNTIMELY_DOCUMENTS", "the documents arrived after the deadline", ["TEST-02"])


@pytest.fixture(autouse=True)
def test_rules_procedure(monkeypatch, engine):
    run_with(monkeypatch, engine, Procedure(
        name="test_rules",
        completion_rules={("test_rules", "approve"): approve_needs_a_note},
        message_rules={("test_message", "documents_received"): late_documents_are_refused}))


def test_a_completion_rule_refuses_with_422_and_its_code_and_the_refusal_is_recorded(api):
    api.deploy("test_rules", rules_flow())
    case = api.post("/api/v1/processes/test_rules/instances", "clerk", {"variables": {}}, expect=201)
    intake = api.open_task(case, "intake")
    case = api.post(f"/api/v1/tasks/{intake['id']}/complete", "clerk",
                    {"data": {"gross_annual_income": "10.00", "activity_income": "10.00"}})["instance"]
    approve = api.open_task(case, "approve")
    refused = api.post(f"/api/v1/tasks/{approve['id']}/complete", "reviewer", {"data": {"approved": True}},
                       expect=422)
    assert refused["errors"]["rule"] == ["NOTE_REQUIRED"]
    same = api.get(f"/api/v1/instances/{case['id']}", "boss")
    assert same["status"] == "active" and api.open_task(same, "approve")["state"] == "open"
    history = api.get(f"/api/v1/instances/{case['id']}/history", "boss")
    assert history[-1]["type"] == "task_refused" and history[-1]["rule_ids"] == ["TEST-01"]
    done = api.post(f"/api/v1/tasks/{approve['id']}/complete", "reviewer",
                    {"data": {"approved": True, "note": "Cumple"}})
    assert done["instance"]["outcome"] == "APPROVED"


def test_a_message_refusal_answers_409_and_is_recorded_while_the_case_keeps_waiting(api):
    api.deploy("test_message", message_flow())
    case = api.post("/api/v1/processes/test_message/instances", "clerk", {"variables": {}}, expect=201)
    assert api.get(f"/api/v1/instances/{case['id']}/activity", "boss")["wait_docs"]["state"] == "waiting"
    url = f"/api/v1/instances/{case['id']}/messages/documents_received"
    refused = api.post(url, "clerk", {"payload": {"documents": ["tarde.pdf"]}}, expect=409)
    assert refused["errors"]["rule"] == ["UNTIMELY_DOCUMENTS"]
    history = api.get(f"/api/v1/instances/{case['id']}/history", "boss")
    assert history[-1]["type"] == "message_refused"
    assert history[-1]["data"]["code"] == "UNTIMELY_DOCUMENTS" and history[-1]["actor"] == "clerk"
    accepted = api.post(url, "clerk", {"payload": {"documents": ["a tiempo.pdf"]}})
    assert accepted["variables"]["docs"] == 1
