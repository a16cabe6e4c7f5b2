"""The applicant's actor is an explicit rule of engine/kernel/access.py: it sees exactly its case and
sends only the messages its procedure marks as the applicant's; it borrows no lane and no office."""
from __future__ import annotations

import pytest

from engine.commands.messages import send_message
from engine.errors import Forbidden
from engine.identity.actor import CaseApplicant
from engine.kernel import access
from engine.queries.cases import get_instance
from tests.api.applicant.conftest import Applicant, issue, session

REVIEW = frozenset({"documents_received", "review_requested"})


def test_the_applicant_sees_its_own_case_and_no_other(far, denied):
    other = far.evaluate(far.apply(name="Otro"), "deny")
    mine = CaseApplicant("applicant", case_id=denied["case"]["id"], messages=REVIEW)
    assert far.engine.read_rows(get_instance, mine, denied["case"]["id"]).id == denied["case"]["id"]
    with pytest.raises(Forbidden):
        far.engine.read_rows(get_instance, mine, other["id"])


def test_the_applicant_holds_no_lane_and_no_office(far, denied):
    mine = CaseApplicant("applicant", case_id=denied["case"]["id"], messages=REVIEW)
    assert mine.roles == frozenset() and mine.office is None and not access.works_cases(mine)
    assert not access.may_see_case(mine, lanes=frozenset({"registry_clerk"}), started_by="far_clerk", office=None)


def test_a_message_to_another_case_is_refused_and_changes_nothing(far, denied):
    other = far.evaluate(far.apply(name="Otro"), "deny")
    far.day("2024-04-02")
    other = far.notify(other)
    before = far.history(other["id"])
    mine = CaseApplicant("applicant", case_id=denied["case"]["id"], messages=REVIEW)
    with pytest.raises(Forbidden):
        far.engine.execute(send_message, mine, other["id"], "review_requested", {})
    assert far.history(other["id"]) == before and far.case(other["id"])["stage"] == "DENIED"


def test_a_message_that_is_not_the_applicants_is_403_and_recorded_nowhere(far, denied):
    case_id = denied["case"]["id"]
    before = far.history(case_id)
    refused = denied["applicant"].call("POST", "/api/v1/public/case/messages/status_lost", 403,
                                       json={"payload": {"reason": "x"}}).get_json()
    assert "applicant" in refused["message"]
    denied["applicant"].call("POST", "/api/v1/public/case/messages/nonexistent", 403, json={"payload": {}})
    assert far.history(case_id) == before
    with pytest.raises(Forbidden):
        access.check_applicant_message(CaseApplicant("applicant", case_id=case_id, messages=REVIEW), "renewal_filed")


def test_one_token_opens_one_case_however_the_routes_are_addressed(far, denied):
    other = far.evaluate(far.apply(name="Otro"), "deny")
    other_token = session(far, other["case_number"], issue(far, other["id"])["access_code"]).get_json()["token"]
    mine, theirs = denied["applicant"], Applicant(far.api.client, other_token)
    assert mine.case()["case_number"] == denied["case"]["case_number"]
    assert theirs.case()["case_number"] == other["case_number"]
    for path in (f"/api/v1/instances/{other['id']}", f"/api/v1/instances/{other['id']}/history",
                 f"/api/v1/instances/{other['id']}/messages/review_requested"):
        mine.call("GET" if "messages" not in path else "POST", path, expect=403, json={"payload": {}})


def test_the_history_names_the_applicant(far, denied):
    far.day("2024-04-10")
    denied["applicant"].call("POST", "/api/v1/public/case/messages/review_requested",
                             json={"payload": {"documents": [{"type": "secretario_agricultura"}]}})
    received = [e for e in far.history(denied["case"]["id"]) if e["type"] == "message_received"]
    assert [e["actor"] for e in received] == ["applicant"]
