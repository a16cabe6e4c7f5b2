"""Denial, the 20-day review window (FAR-12, FAR-13, AMB-14) and documents required under FAR-08.

FAR-S07 and FAR-S10 of EXAMPLES.md, day 20 against day 21, a day 20 on a Sunday with and without
roll-forward, reviews that reverse or confirm, and the documents window — through the HTTP API.
"""
import pytest

from tests.procedures.farmer_registry.conftest import document


def elena(far):
    """FAR-S07: Elena Ruiz, agricultora, 85.00 %, files the sworn declaration with no other document."""
    return far.apply(name="Elena Ruiz", gross="40000.00", activity="34000.00", documents=[])


def denied_on(far, notified_on):
    case = far.evaluate(elena(far), "deny")
    far.day(notified_on)
    return far.notify(case)


def test_far_s07_no_certification_is_denied_and_the_review_window_opens_on_notification(far):
    case = elena(far)
    assert case["variables"]["eligibility"] == {"eligible": False, "income_share_pct": "85.00",
                                                "reasons": ["CERTIFICATION_MISSING"]}
    case = far.evaluate(case, "deny")
    far.day("2024-04-02")
    case = far.notify(case)
    assert case["stage"] == "DENIED" and case["status"] == "active" and case["outcome"] is None
    variables = case["variables"]
    assert variables["denial_notified_on"] == "2024-04-02" and variables["review_deadline"] == "2024-04-22"
    assert variables["review_accepted"] is False
    assert case["deadlines"] == [{"name": "Vence el plazo de revisión", "element_id": "review_deadline_passed",
                                  "due_at": "2024-04-23T04:00:00+00:00"}]
    window = [e for e in far.history(case["id"]) if e["type"] == "decision" and e["data"]["rule"] == "review_window"]
    assert window[0]["rule_ids"] == ["FAR-12", "FAR-13", "AMB-14", "TC-1", "TC-2"]
    assert window[0]["data"]["inputs"] == {"denial_notified_on": "2024-04-02", "days": 20}
    assert window[0]["data"]["rolled_forward"] is False


def test_far_s10_a_review_request_on_day_21_is_untimely_and_the_denial_final(far):
    case = denied_on(far, "2024-04-02")
    far.day("2024-04-23")
    refused = far.message(case["id"], "review_requested", {"documents": []}, expect=409)
    assert refused["errors"]["rule"] == ["UNTIMELY_REVIEW_REQUEST"]

    final = far.case(case["id"])
    assert final["status"] == "completed" and final["outcome"] == "DENIAL_FINAL"
    assert final["variables"]["judicial_review_available"] is False
    assert final["variables"]["review_accepted"] is False
    history = far.history(case["id"])
    fired = [e for e in history if e["type"] == "timer_fired"]
    assert [e["at"] for e in fired] == ["2024-04-23T04:00:00+00:00"]  # the end of 2024-04-22
    refusal = history[-1]
    assert refusal["type"] == "message_refused" and refusal["actor"] == "far_clerk"
    assert refusal["data"]["code"] == "UNTIMELY_REVIEW_REQUEST" and "FAR-13" in refusal["rule_ids"]


def test_the_deadline_fires_with_the_clock_even_if_nobody_asks(far):
    case = denied_on(far, "2024-04-02")
    far.day("2024-04-22", hour=23)
    assert far.case(case["id"])["status"] == "active"
    far.api.move_clock("2024-04-23T00:00:00-04:00")
    assert far.case(case["id"])["outcome"] == "DENIAL_FINAL"


def test_a_review_request_on_day_20_is_accepted_and_goes_to_the_board(far):
    case = denied_on(far, "2024-04-02")
    far.api.move_clock("2024-04-22T23:30:00-04:00")
    case = far.message(case["id"], "review_requested", {"documents": []})
    assert case["variables"]["review_accepted"] is True and case["stage"] == "UNDER_REVIEW"
    assert [(t["element_id"], t["lane"]) for t in case["open_tasks"]] == [("review_hearing", "review_board")]
    assert case["deadlines"] == []
    timely = [e for e in far.history(case["id"]) if e["type"] == "decision"
              and e["data"]["rule"] == "review_request_timely"]
    assert timely[0]["data"]["inputs"] == {"filed_on": "2024-04-22", "review_deadline": "2024-04-22"}
    far.api.move_clock("2024-05-30T00:00:00-04:00")
    assert far.case(case["id"])["status"] == "active"  # the board has no legal deadline (AMB-22)


def test_day_20_on_a_sunday_rolls_to_monday(far):
    case = denied_on(far, "2024-04-01")  # + 20 days = Sunday 2024-04-21
    assert case["variables"]["review_deadline"] == "2024-04-22"
    far.day("2024-04-22")
    assert far.message(case["id"], "review_requested", {"documents": []})["variables"]["review_accepted"] is True


def test_without_roll_forward_the_sunday_is_the_last_day(far):
    far.param("calendar.rollForwardNonBusinessDay", False)
    case = denied_on(far, "2024-04-01")
    assert case["variables"]["review_deadline"] == "2024-04-21"
    far.day("2024-04-22")
    refused = far.message(case["id"], "review_requested", {"documents": []}, expect=409)
    assert refused["errors"]["rule"] == ["UNTIMELY_REVIEW_REQUEST"]


def test_a_holiday_on_the_rolled_monday_rolls_again(far):
    far.param("calendar.holidays", ["2024-04-22"])
    case = denied_on(far, "2024-04-01")
    assert case["variables"]["review_deadline"] == "2024-04-23"


def test_a_review_that_reverses_admits_on_the_day_of_the_decision(far):
    case = denied_on(far, "2024-04-02")
    far.day("2024-04-10")
    case = far.message(case["id"], "review_requested", {"documents": [document("secretario_agricultura")]})
    assert case["variables"]["eligibility"] == {"eligible": True, "income_share_pct": "85.00", "reasons": []}
    assert len(case["variables"]["documents"]) == 1
    far.day("2024-04-12")
    case = far.hearing(case, "admit")
    assert [(t["element_id"], t["lane"]) for t in case["open_tasks"]] == [("review_decision", "commissioner")]
    far.day("2024-04-15")
    case = far.review_decision(case, "admit")

    assert case["outcome"] == "ADMITTED" and case["status"] == "completed"
    assert case["variables"]["admission_date"] == "2024-04-15"
    assert case["variables"]["renewal_due"] == "2026-04-15"
    entry = far.entry(case["variables"]["registry_id"])
    assert (entry["status"], entry["name"], entry["registered_on"]) == ("ACTIVE", "Elena Ruiz", "2024-04-15")
    assert far.membership_of(case)["status"] == "active"
    steps = [e["element_id"] for e in far.history(case["id"]) if e["type"] == "task_completed"]
    assert "order_admission" not in steps


def test_a_review_that_confirms_opens_judicial_review(far):
    case = denied_on(far, "2024-04-02")
    case = far.message(case["id"], "review_requested", {})
    case = far.review_decision(far.hearing(case, "confirm_denial"), "confirm_denial")
    assert case["outcome"] == "DENIAL_CONFIRMED" and case["status"] == "completed"
    assert case["variables"]["judicial_review_available"] is True
    assert case["variables"]["review_accepted"] is True
    again = far.message(case["id"], "review_requested", {}, expect=409)
    assert again["errors"]["rule"] == ["MESSAGE_NOT_EXPECTED"]


def test_the_commissioner_may_reverse_the_board(far):
    case = far.message(denied_on(far, "2024-04-02")["id"], "review_requested", {})
    case = far.review_decision(far.hearing(case, "admit"), "confirm_denial")
    assert case["outcome"] == "DENIAL_CONFIRMED"


def test_a_review_request_before_the_notification_is_not_expected(far):
    case = far.evaluate(elena(far), "deny")
    refused = far.message(case["id"], "review_requested", {}, expect=409)
    assert refused["errors"]["rule"] == ["MESSAGE_NOT_EXPECTED"]


def test_messages_and_review_tasks_belong_to_their_roles(far):
    case = denied_on(far, "2024-04-02")
    far.message(case["id"], "review_requested", {}, user="far_evaluator", expect=403)
    case = far.message(case["id"], "review_requested", {}, user="boss")  # a supervisor may send any
    hearing = far.api.open_task(case, "review_hearing")
    for user in ("far_clerk", "far_commissioner"):
        far.api.post(f"/api/v1/tasks/{hearing['id']}/complete", user,
                     {"data": {"recommendation": "admit"}}, expect=403)
    case = far.hearing(case, "admit")
    decision = far.api.open_task(case, "review_decision")
    far.api.post(f"/api/v1/tasks/{decision['id']}/complete", "far_board", {"data": {"decision": "admit"}},
                 expect=403)


def test_requiring_documents_opens_a_30_day_window(far):
    case = far.evaluate(elena(far), "require_documents", required_documents=["secretario_agricultura"])
    assert case["stage"] == "PENDING_ADDITIONAL_DOCUMENTS" and case["open_tasks"] == []
    assert case["variables"]["extra_docs_deadline"] == "2024-05-01"
    assert case["deadlines"] == [{"name": "Vence el plazo de documentos", "element_id": "documents_deadline",
                                  "due_at": "2024-05-02T04:00:00+00:00"}]
    window = [e for e in far.history(case["id"]) if e["type"] == "decision"
              and e["data"]["rule"] == "extra_documents_window"]
    assert window[0]["rule_ids"] == ["FAR-08", "TC-1", "TC-2"]


def test_require_documents_needs_the_list_of_documents(far):
    refused = far.evaluate(elena(far), "require_documents", expect=422)
    assert "required_documents" in refused["errors"]


def test_documents_received_rerun_the_rules_and_return_to_the_evaluator(far):
    case = far.evaluate(elena(far), "require_documents", required_documents=["secretario_agricultura"])
    far.day("2024-04-20")
    far.message(case["id"], "documents_received", {"documents": [document("fomento_economico")]},
                user="far_evaluator", expect=403)
    bad = far.message(case["id"], "documents_received", {"documents": []}, expect=422)
    assert "documents" in bad["errors"]
    case = far.message(case["id"], "documents_received", {"documents": [document("secretario_agricultura")]})
    assert case["stage"] == "EVALUATION" and case["deadlines"] == []
    assert case["variables"]["eligibility"]["eligible"] is True
    assert [t["element_id"] for t in case["open_tasks"]] == ["evaluate_application"]
    assessed = [e for e in far.history(case["id"]) if e["type"] == "decision"
                and e["data"]["rule"] == "assess_eligibility"]
    assert [e["element_id"] for e in assessed] == ["assess_eligibility", "add_documents"]
    assert far.order(far.evaluate(case, "admit"))["outcome"] == "ADMITTED"


def test_documents_not_supplied_in_time_go_to_the_denial(far):
    case = far.evaluate(elena(far), "require_documents", required_documents=["secretario_agricultura"])
    far.day("2024-05-01", hour=23)
    assert far.case(case["id"])["stage"] == "PENDING_ADDITIONAL_DOCUMENTS"
    far.day("2024-05-02")
    case = far.case(case["id"])
    assert case["variables"]["eligibility"]["reasons"][0] == "DOCUMENTS_NOT_SUPPLIED"
    assert case["variables"]["eligibility"]["eligible"] is False
    assert [t["element_id"] for t in case["open_tasks"]] == ["notify_denial"]
    late = far.message(case["id"], "documents_received", {"documents": [document("secretario_agricultura")]},
                       expect=409)
    assert late["errors"]["rule"] == ["MESSAGE_NOT_EXPECTED"]
    case = far.notify(case)
    assert case["stage"] == "DENIED" and case["variables"]["review_deadline"] == "2024-05-22"


@pytest.mark.parametrize("days, deadline", [(30, "2024-05-01"), (10, "2024-04-11")])
def test_the_documents_window_follows_its_parameter(far, days, deadline):
    far.param("farmer.extraDocsDays", days)
    case = far.evaluate(elena(far), "require_documents", required_documents=["declaracion_notarial"])
    assert case["variables"]["extra_docs_deadline"] == deadline
