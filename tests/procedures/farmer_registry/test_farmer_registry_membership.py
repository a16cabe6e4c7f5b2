"""The membership of a registered producer: two-year renewal (FAR-15, AMB-17), lapse and loss of
status (FAR-16) — FAR-S13 of EXAMPLES.md and its edges, through the HTTP API.
"""
from sqlalchemy import func, select

from engine.persistence.models import WorkflowTaskState
from engine.registries.farmers import active_producers


def ana_admitted(far):
    """FAR-S01: Ana Torres filed 2024-01-22 and was admitted 2024-02-05; renewal due 2026-02-05."""
    far.rewind_clock_to("2024-01-22")
    case = far.apply()
    far.day("2024-01-29")
    case = far.evaluate(case, "admit")
    far.day("2024-02-05")
    case = far.order(case)
    return case["variables"]["registry_id"], case["variables"]["membership_case_id"]


def active_ids(far):
    return [p["id"] for p in far.engine.read(active_producers, "agricultor")]


def test_far_s13a_a_renewal_on_the_due_date_keeps_the_producer_active_for_two_more_years(far):
    registry_id, membership = ana_admitted(far)
    far.day("2026-02-05")
    case = far.renew(membership)
    assert case["status"] == "active"
    assert case["variables"]["registry_status"] == "ACTIVE" and case["variables"]["renewal_due"] == "2028-02-05"
    assert case["variables"]["last_renewal_on"] == "2026-02-05"
    assert case["deadlines"][0]["due_at"] == "2028-02-06T04:00:00+00:00"
    entry = far.entry(registry_id)
    assert (entry["status"], entry["renewal_due"]) == ("ACTIVE", "2028-02-05")
    far.day("2026-02-06")
    assert far.entry(registry_id)["status"] == "ACTIVE"
    decided = [e for e in far.history(membership) if e["type"] == "decision"]
    assert {e["data"]["rule"] for e in decided} >= {"income_share_qualifies", "next_renewal_due"}


def test_far_s13b_no_renewal_makes_the_entry_overdue_and_a_late_renewal_keeps_the_cycle(far):
    registry_id, membership = ana_admitted(far)
    far.day("2026-02-05", hour=23)
    assert far.entry(registry_id)["status"] == "ACTIVE"
    far.day("2026-02-06")
    assert far.entry(registry_id)["status"] == "RENEWAL_OVERDUE"
    case = far.case(membership)
    assert case["status"] == "active" and case["stage"] == "RENEWAL_OVERDUE"
    assert case["variables"]["registry_status"] == "RENEWAL_OVERDUE" and case["deadlines"] == []

    far.day("2026-03-02")  # a surplus notice sent today does not reach her (FAR-14, AMB-17)
    assert registry_id not in active_ids(far)
    listed = far.api.get("/api/v1/registries/farmers?status=ACTIVE", "far_clerk")
    assert registry_id not in [e["id"] for e in listed]

    far.day("2026-03-10")
    case = far.renew(membership)
    assert case["variables"]["renewal_due"] == "2028-02-05" and case["variables"]["registry_status"] == "ACTIVE"
    entry = far.entry(registry_id)
    assert (entry["status"], entry["renewal_due"]) == ("ACTIVE", "2028-02-05")
    assert registry_id in active_ids(far)
    late = [e for e in far.history(membership) if e["type"] == "decision" and e["data"]["rule"] == "next_renewal_due"]
    assert late[-1]["data"]["filed_late"] is True
    changes = [e for e in far.history(membership) if e["type"] == "registry_entry_changed"]
    assert [e["data"]["changes"]["status"]["to"] for e in changes if "status" in e["data"]["changes"]] == \
        ["RENEWAL_OVERDUE", "ACTIVE"]


def test_a_producer_who_never_renews_stays_overdue_and_the_case_keeps_waiting(far):
    registry_id, membership = ana_admitted(far)
    far.day("2030-06-01")
    assert far.entry(registry_id)["status"] == "RENEWAL_OVERDUE"
    case = far.case(membership)
    assert case["status"] == "active" and case["deadlines"] == []
    fired = [e for e in far.history(membership) if e["type"] == "timer_fired"]
    assert len(fired) == 1
    activity = far.api.get(f"/api/v1/instances/{membership}/activity", "boss")
    assert activity["wait_for_late_renewal"]["state"] == "waiting"
    case = far.renew(membership)  # four years late, the cycle still counts from admission
    assert case["variables"]["renewal_due"] == "2028-02-05"
    assert far.case(membership)["variables"]["registry_status"] == "RENEWAL_OVERDUE"  # lapsed again at once


def test_a_renewal_needs_the_signed_certification(far):
    registry_id, membership = ana_admitted(far)
    for payload in ({"gross_annual_income": "40000.00", "activity_income": "32000.00"},
                    {"signed_certification": False, "gross_annual_income": "40000.00", "activity_income": "1.00"}):
        refused = far.message(membership, "renewal_filed", payload, expect=422)
        assert refused["errors"]["rule"] == ["SIGNED_CERTIFICATION_REQUIRED"]
    refused = far.message(membership, "renewal_filed", {"signed_certification": True,
                                                        "gross_annual_income": "40000.00"}, expect=422)
    assert refused["errors"]["rule"] == ["INCOME_FIGURES_REQUIRED"]
    case = far.case(membership)
    assert case["variables"]["renewal_due"] == "2026-02-05"
    assert [e["type"] for e in far.history(membership)][-3:] == ["message_refused"] * 3
    # The signed certification alone renews (FAR-15); without figures no share is re-checked.
    case = far.message(membership, "renewal_filed", {"signed_certification": True})
    assert case["variables"]["renewal_due"] == "2028-02-05" and case["variables"]["renewal_share_pct"] is None
    assert case["open_tasks"] == []


def test_a_renewal_below_the_threshold_renews_and_asks_the_commissioner(far):
    registry_id, membership = ana_admitted(far)
    far.day("2026-01-15")
    case = far.renew(membership, gross="40000.00", activity="12000.00")
    assert case["variables"]["renewal_due"] == "2028-02-05" and case["variables"]["registry_status"] == "ACTIVE"
    assert case["variables"]["renewal_share_pct"] == "30.00"
    assert case["variables"]["withdrawal_ground"] == "INCOME_SHARE_BELOW_THRESHOLD"
    assert [(t["element_id"], t["lane"]) for t in case["open_tasks"]] == [("decide_withdrawal", "commissioner")]
    assert case["stage"] == "WITHDRAWAL_DECISION"
    case = far.complete(case, "decide_withdrawal", {"decision": "keep", "reason": "Año de huracán"},
                        "far_commissioner")
    assert case["variables"]["status_lost_flag"] is True and case["stage"] == "ACTIVE"
    assert case["deadlines"][0]["due_at"] == "2028-02-06T04:00:00+00:00"


def test_loss_of_status_withdrawn_removes_the_producer(far):
    registry_id, membership = ana_admitted(far)
    far.day("2025-03-01")
    far.message(membership, "status_lost", {"reason": "Vendió la finca"}, user="far_commissioner", expect=403)
    case = far.message(membership, "status_lost", {"reason": "Vendió la finca"})
    assert case["variables"]["status_lost_reason"] == "Vendió la finca"
    assert case["variables"]["withdrawal_ground"] == "STATUS_LOST" and case["deadlines"] == []
    task = far.api.open_task(case, "decide_withdrawal")
    far.api.post(f"/api/v1/tasks/{task['id']}/complete", "far_clerk", {"data": {"decision": "withdraw"}},
                 expect=403)
    case = far.complete(case, "decide_withdrawal", {"decision": "withdraw", "reason": "FAR-16"}, "far_commissioner")
    assert case["status"] == "completed" and case["outcome"] == "REMOVED"
    assert case["variables"]["registry_status"] == "REMOVED"
    assert far.entry(registry_id)["status"] == "REMOVED" and registry_id not in active_ids(far)
    late = far.renew(membership, expect=409)
    assert late["errors"]["rule"] == ["MESSAGE_NOT_EXPECTED"]


def test_loss_of_status_kept_flags_the_case_and_renewals_go_on(far):
    registry_id, membership = ana_admitted(far)
    case = far.message(membership, "status_lost", {"reason": "Denuncia anónima"})
    case = far.complete(case, "decide_withdrawal", {"decision": "keep"}, "far_commissioner")
    assert case["status"] == "active" and case["variables"]["status_lost_flag"] is True
    assert case["variables"]["registry_status"] == "ACTIVE" and far.entry(registry_id)["status"] == "ACTIVE"
    assert case["deadlines"][0]["due_at"] == "2026-02-06T04:00:00+00:00"
    far.day("2026-02-05")
    assert far.renew(membership)["variables"]["renewal_due"] == "2028-02-05"


def test_loss_of_status_while_overdue_kept_stays_overdue(far):
    registry_id, membership = ana_admitted(far)
    far.day("2026-02-10")
    case = far.message(membership, "status_lost", {"reason": "No contesta"})
    case = far.complete(case, "decide_withdrawal", {"decision": "keep"}, "far_commissioner")
    assert case["stage"] == "RENEWAL_OVERDUE" and far.entry(registry_id)["status"] == "RENEWAL_OVERDUE"
    assert far.renew(membership)["variables"]["registry_status"] == "ACTIVE"


def test_with_on_renewal_lapse_remove_a_lapse_removes_the_producer(far):
    far.param("farmer.onRenewalLapse", "REMOVE")
    registry_id, membership = ana_admitted(far)
    far.day("2026-02-06")
    case = far.case(membership)
    assert case["outcome"] == "REMOVED" and case["status"] == "completed"
    assert far.entry(registry_id)["status"] == "REMOVED"


def test_an_admission_on_29_february_falls_due_on_28_february_then_on_29_in_leap_years(far):
    far.day("2028-02-29")
    case = far.admitted()
    assert case["variables"]["renewal_due"] == "2030-02-28"
    membership = case["variables"]["membership_case_id"]
    far.day("2030-02-28")
    assert far.renew(membership)["variables"]["renewal_due"] == "2032-02-29"


def stored_rows(far, case_id):
    return far.engine.read(lambda s: s.scalar(select(func.count()).select_from(WorkflowTaskState)
                                              .where(WorkflowTaskState.instance_id == case_id)))


def test_twenty_renewals_keep_the_stored_workflow_flat(far):
    registry_id, membership = ana_admitted(far)
    rows, due = {}, "2026-02-05"
    for renewal in range(1, 21):
        far.day(due)
        case = far.renew(membership)
        due = case["variables"]["renewal_due"]
        rows[renewal] = stored_rows(far, membership)
    assert due == "2066-02-05" and far.entry(registry_id)["renewal_due"] == "2066-02-05"
    # The live workflow holds the same rows after the 20th renewal as after the 2nd: no history
    # accumulates in it (the history is the audit log).
    assert rows[20] == rows[2], rows
    assert max(rows.values()) <= rows[2], rows
    activity = far.api.get(f"/api/v1/instances/{membership}/activity", "boss")
    assert activity["record_renewal"]["count"] == 20
    assert far.case(membership)["deadlines"][0]["due_at"] == "2066-02-06T04:00:00+00:00"
