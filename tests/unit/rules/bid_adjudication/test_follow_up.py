"""Direct tests of engine/rules/bid_adjudication/follow_up.py (BID-13, 15, 16, 18, 20, 28, 31…36;
AMB-42, AMB-46).

BID-31: construction/services may go by administration or to a private contractor after ≥ 3 quotes,
with a public-interest finding and a funds certification; BID-32: others negotiate or buy by quotes.
BID-33/34: written notice to all bidders, bonds returned. BID-36/AMB-46: no similar purchase until the
fiscal year (1 July – 30 June) ends, for every cause by default, unless an emergency is documented.
"""
from __future__ import annotations

from datetime import date, datetime, timezone

import pytest

from engine.rules.bid_adjudication.follow_up import (
    allowed_actions, cancellation_result, check_cancellation, check_follow_up, check_mayor_notice,
    check_notice_before_cancelling, fiscal_year_end, follow_up_result, legislature_outcome, mayor_notice_pending,
    similar_purchase_allowed, single_bidder_alert, single_source_contract,
)
from engine.rules.decision import Refusal, RuleViolation

D = date.fromisoformat
QUOTES = [{"supplier": "HH", "total": "88000.00"}, {"supplier": "II", "total": "91000.00"},
          {"supplier": "JJ", "total": "95500.00"}]
PRIVATE = {"action": "PRIVATE_CONTRACT_AFTER_QUOTES", "quotes": QUOTES, "public_interest_finding": "beneficio",
           "funds_certification": "CF-2024-1"}


@pytest.mark.parametrize(("kind", "collusion", "actions"), [
    pytest.param("construction", False, ("NEW_BID", "BY_ADMINISTRATION", "PRIVATE_CONTRACT_AFTER_QUOTES"),
                 id="BID-31-construction"),
    pytest.param("services", False, ("NEW_BID", "BY_ADMINISTRATION", "PRIVATE_CONTRACT_AFTER_QUOTES"),
                 id="BID-31-services"),
    pytest.param("acquisition", False, ("NEW_BID", "NEGOTIATE_WITH_REJECTED_BIDDERS", "QUOTES"), id="BID-32-other"),
    pytest.param("acquisition", True, ("NEW_BID", "QUOTES"), id="BID-28-no-negotiation-with-colluders"),
    pytest.param("construction", True, ("NEW_BID", "BY_ADMINISTRATION", "PRIVATE_CONTRACT_AFTER_QUOTES", "QUOTES"),
                 id="BID-28-quotes-open-after-collusion"),
])
def test_allowed_actions(kind, collusion, actions):
    assert allowed_actions(kind, collusion) == actions


@pytest.mark.parametrize(("data", "kind", "collusion"), [
    pytest.param(PRIVATE, "construction", False, id="BID-31-BID-S22-three-quotes-funds-interest"),
    pytest.param({**PRIVATE, "action": "BY_ADMINISTRATION", "quotes": []}, "services", False,
                 id="BID-31-by-administration"),
    pytest.param({"action": "NEW_BID"}, "construction", False, id="BID-31-new-bid"),
    pytest.param({"action": "QUOTES"}, "acquisition", False, id="BID-32-quotes"),
    pytest.param({"action": "NEGOTIATE_WITH_REJECTED_BIDDERS"}, "equipment", False, id="BID-32-negotiate"),
    pytest.param({"action": "QUOTES"}, "construction", True, id="BID-28-quotes-after-collusion"),
])
def test_check_follow_up_accepts(data, kind, collusion):
    assert check_follow_up(data, kind, collusion) is None


@pytest.mark.parametrize(("data", "kind", "collusion", "code", "rules"), [
    pytest.param({"action": "BY_ADMINISTRATION"}, "acquisition", False, "ACTION_NOT_ALLOWED_FOR_TYPE",
                 ["BID-31", "BID-32", "BID-28"], id="BID-32-acquisition-not-by-administration"),
    pytest.param({"action": "NEGOTIATE_WITH_REJECTED_BIDDERS"}, "construction", False, "ACTION_NOT_ALLOWED_FOR_TYPE",
                 ["BID-31", "BID-32", "BID-28"], id="BID-31-construction-no-negotiation"),
    pytest.param({"action": "NEGOTIATE_WITH_REJECTED_BIDDERS"}, "acquisition", True, "ACTION_NOT_ALLOWED_FOR_TYPE",
                 ["BID-31", "BID-32", "BID-28"], id="BID-28-no-negotiation-with-colluders"),
    pytest.param({**PRIVATE, "quotes": QUOTES[:2]}, "construction", False, "MIN_THREE_QUOTES_REQUIRED", ["BID-31"],
                 id="BID-31-BID-S22-two-quotes"),
    pytest.param({**PRIVATE, "quotes": [*QUOTES[:2], {"supplier": " hh ", "total": "87000.00"}]}, "construction",
                 False, "MIN_THREE_QUOTES_REQUIRED", ["BID-31"], id="BID-31-same-supplier-twice"),
    pytest.param({**PRIVATE, "quotes": []}, "construction", False, "MIN_THREE_QUOTES_REQUIRED", ["BID-31"],
                 id="BID-31-no-quotes"),
    pytest.param({**PRIVATE, "funds_certification": None}, "construction", False, "FUNDS_CERTIFICATION_REQUIRED",
                 ["BID-31"], id="BID-31-BID-S22-no-funds-certification"),
    pytest.param({"action": "BY_ADMINISTRATION", "public_interest_finding": "x"}, "construction", False,
                 "FUNDS_CERTIFICATION_REQUIRED", ["BID-31"], id="BID-31-by-administration-needs-funds"),
    pytest.param({**PRIVATE, "public_interest_finding": ""}, "construction", False,
                 "PUBLIC_INTEREST_FINDING_REQUIRED", ["BID-31"], id="BID-31-public-interest"),
])
def test_check_follow_up_refuses(data, kind, collusion, code, rules):
    with pytest.raises(RuleViolation) as caught:
        check_follow_up(data, kind, collusion)
    assert caught.value.code == code and caught.value.rule_ids == rules


@pytest.mark.parametrize(("action", "quotes", "kind", "collusion", "contractor", "total", "rules"), [
    pytest.param("PRIVATE_CONTRACT_AFTER_QUOTES", QUOTES, "construction", False, "HH", "88000.00", ("BID-31",),
                 id="BID-31-BID-S22-lowest-quote-HH"),
    pytest.param("PRIVATE_CONTRACT_AFTER_QUOTES", [{"supplier": "X", "total": "88000.01"}, *QUOTES], "construction",
                 False, "HH", "88000.00", ("BID-31",), id="BID-31-one-cent-decides"),
    pytest.param("NEW_BID", [], "acquisition", False, None, None, ("BID-32",), id="BID-32-new-bid"),
    pytest.param("QUOTES", QUOTES, "acquisition", True, None, None, ("BID-32", "BID-28"), id="BID-28-quotes-ordered"),
])
def test_follow_up_result(action, quotes, kind, collusion, contractor, total, rules):
    decision = follow_up_result(action, quotes, kind, collusion)
    assert decision.outcome == action
    assert decision.rule_ids == rules
    assert decision.details == {"follow_up": action, "contractor": contractor, "contractor_total": total}


@pytest.mark.parametrize(("day", "start", "end"), [
    pytest.param("2024-09-10", "07-01", "2025-06-30", id="AMB-46-BID-S25-september"),
    pytest.param("2025-03-03", "07-01", "2025-06-30", id="AMB-46-march"),
    pytest.param("2025-06-30", "07-01", "2025-06-30", id="AMB-46-last-day-of-fy"),
    pytest.param("2025-07-01", "07-01", "2026-06-30", id="AMB-46-first-day-of-new-fy"),
    pytest.param("2024-09-10", "01-01", "2024-12-31", id="AMB-46-calendar-fiscal-year"),
    pytest.param(date(2024, 2, 29), "07-01", "2024-06-30", id="AMB-46-date-object"),
    # 22:00 on 30 June in San Juan (02:00 UTC on 1 July) is still the old fiscal year.
    pytest.param(datetime(2025, 7, 1, 2, tzinfo=timezone.utc), "07-01", "2025-06-30", id="AMB-46-instant-pr-day"),
    pytest.param("2025-07-01T02:00:00+00:00", "07-01", "2025-06-30", id="AMB-46-instant-text-pr-day"),
])
def test_fiscal_year_end(day, start, end):
    assert fiscal_year_end(day, start) == D(end)


@pytest.mark.parametrize("payload", [
    pytest.param({"all_bidders_notified": False, "bonds_returned": True}, id="BID-33-notice"),
    pytest.param({"bonds_returned": True}, id="BID-33-notice-missing"),
])
def test_cancellation_needs_written_notice(payload):
    with pytest.raises(RuleViolation) as caught:
        check_cancellation(payload)
    assert caught.value.code == "CANCELLATION_NOTICE_REQUIRED" and caught.value.rule_ids == ["BID-33"]


def test_cancellation_needs_the_bonds_returned():
    with pytest.raises(RuleViolation) as caught:
        check_cancellation({"all_bidders_notified": True, "bonds_returned": False})
    assert caught.value.code == "BONDS_NOT_RETURNED" and caught.value.rule_ids == ["BID-34"]
    assert check_cancellation({"all_bidders_notified": True, "bonds_returned": True}) is None


BONDS = [{"offer_id": f"O{i}", "bond_amount": "2000.00"} for i in range(4)]


@pytest.mark.parametrize(("cause", "scope", "offers", "bonds", "lock", "cause_rule"), [
    pytest.param("funds_insufficient", "ALL_CANCELLATION_CAUSES", BONDS, "8000.00", "2025-06-30", "BID-35a",
                 id="BID-33-BID-34-BID-35a-BID-36-BID-S25"),
    pytest.param("funds_unavailable", "ALL_CANCELLATION_CAUSES", BONDS[:1], "2000.00", "2025-06-30", "BID-35b",
                 id="BID-35b-AMB-46-locks"),
    pytest.param("desisted", "DESIST_ONLY", BONDS, "8000.00", "2025-06-30", "BID-35c", id="BID-35c-AMB-46-desist-only"),
    pytest.param("funds_insufficient", "DESIST_ONLY", BONDS, "8000.00", None, "BID-35a",
                 id="AMB-46-BID-S25-desist-only-cause-a-no-lock"),
    pytest.param("desisted", "ALL_CANCELLATION_CAUSES", [{"offer_id": "O", "bond_amount": None}, {"offer_id": "P"}],
                 "0.00", "2025-06-30", "BID-35c", id="BID-34-no-bonds"),
    pytest.param("desisted", "ALL_CANCELLATION_CAUSES", [{"bond_amount": "0.10"}, {"bond_amount": "0.20"}],
                 "0.30", "2025-06-30", "BID-35c", id="BID-34-TC-4-exact-cents"),
])
def test_cancellation_result(cause, scope, offers, bonds, lock, cause_rule):
    decision = cancellation_result(cause, offers, "2024-09-10", "07-01", scope)
    assert decision.outcome == "CANCELLED"
    assert decision.rule_ids == ("BID-33", "BID-34", cause_rule, "BID-36", "AMB-46")
    assert decision.details == {"bonds_returned": bonds, "similar_purchase_lock_until": D(lock) if lock else None}


LOCK_A = [{"matter": "equipo de oficina", "locked_until": "2025-06-30", "cause": "funds_insufficient"}]


@pytest.mark.parametrize(("today", "emergency", "scope", "allowed"), [
    pytest.param("2025-03-03", None, "ALL_CANCELLATION_CAUSES", False, id="BID-36-BID-S25-blocked-in-fy"),
    pytest.param("2025-06-30", None, "ALL_CANCELLATION_CAUSES", False, id="BID-36-AMB-46-last-day-still-blocked"),
    pytest.param("2025-07-01", None, "ALL_CANCELLATION_CAUSES", True, id="BID-36-AMB-46-BID-S25-new-fy"),
    pytest.param("2025-02-03", "daños del huracán", "ALL_CANCELLATION_CAUSES", True, id="BID-36-BID-S25-emergency"),
    pytest.param("2025-02-03", "   ", "ALL_CANCELLATION_CAUSES", False, id="BID-36-blank-emergency"),
    pytest.param("2025-03-03", None, "DESIST_ONLY", True, id="AMB-46-BID-S25-desist-only"),
])
def test_similar_purchase_allowed(today, emergency, scope, allowed):
    decision = similar_purchase_allowed("equipo de oficina", today, LOCK_A, emergency, scope)
    assert decision.outcome is allowed
    assert decision.rule_ids == ("BID-36", "AMB-46")
    assert decision.inputs["emergency"] is bool((emergency or "").strip())


def test_desisted_lock_holds_under_desist_only_and_no_lock_allows():
    desisted = [{**LOCK_A[0], "cause": "desisted"}]
    assert similar_purchase_allowed("m", "2025-03-03", desisted, scope="DESIST_ONLY").outcome is False
    assert similar_purchase_allowed("m", "2025-03-03", []).outcome is True


@pytest.mark.parametrize(("count", "threshold", "alert"), [
    pytest.param(3, 3, True, id="BID-20-AMB-42-third-consecutive"),
    pytest.param(2, 3, False, id="BID-20-AMB-42-second"),
    pytest.param(4, 3, True, id="BID-20-above"),
    pytest.param(5, None, False, id="AMB-42-no-threshold"),
])
def test_single_bidder_alert(count, threshold, alert):
    decision = single_bidder_alert(count, threshold)
    assert decision.outcome is alert and decision.rule_ids == ("BID-20", "AMB-42")


@pytest.mark.parametrize(("case", "pending"), [
    pytest.param({"mayor_alert": True, "notice_text": None}, True, id="BID-20-notice-owed"),
    pytest.param({"mayor_alert": True, "notice_text": "  "}, True, id="BID-20-blank-notice"),
    pytest.param({"mayor_alert": True, "notice_text": "tres subastas"}, False, id="BID-20-informed"),
    pytest.param({"mayor_alert": False}, False, id="BID-20-no-alert"),
])
def test_mayor_notice(case, pending):
    assert mayor_notice_pending(case) is pending
    if pending:
        with pytest.raises(Refusal) as caught:
            check_notice_before_cancelling(case)
        assert caught.value.code == "ALCALDE_NOTICE_REQUIRED" and caught.value.status == 409
        assert caught.value.rule_ids == ["BID-20", "AMB-42", "BID-33"]
    else:
        assert check_notice_before_cancelling(case) is None


@pytest.mark.parametrize("text", [None, "", "  "], ids=lambda t: f"BID-20-{t!r}")
def test_check_mayor_notice_refuses_an_empty_notice(text):
    with pytest.raises(RuleViolation) as caught:
        check_mayor_notice(text)
    assert caught.value.code == "ALCALDE_NOTICE_REQUIRED" and caught.value.rule_ids == ["BID-20", "AMB-42"]


def test_single_source_contract():
    source = {"exclusive_certificate": True, "investigation_report_date": "2024-08-01"}
    decision = single_source_contract(source)
    assert decision.outcome == "DIRECT_CONTRACT_SINGLE_SOURCE"
    assert decision.rule_ids == ("BID-18",) and decision.inputs == {"single_source": source}


@pytest.mark.parametrize(("matter", "approved", "economic", "outcome", "rules"), [
    pytest.param("quotes", True, None, "LEGISLATURE_QUOTES_AUTHORIZED", ("BID-13",), id="BID-13-BID-S07-authorized"),
    pytest.param("quotes", False, None, "LEGISLATURE_QUOTES_DENIED", ("BID-13",), id="BID-13-denied"),
    pytest.param("by_administration", True, True, "BY_ADMINISTRATION_AUTHORIZED", ("BID-15", "BID-16"),
                 id="BID-16-BID-S10-economical-and-advantageous"),
    pytest.param("by_administration", True, False, "LEGISLATURE_QUOTES_REQUESTED", ("BID-15", "BID-16"),
                 id="BID-16-not-economical"),
    pytest.param("by_administration", False, True, "LEGISLATURE_QUOTES_REQUESTED", ("BID-15", "BID-16"),
                 id="BID-15-not-approved"),
])
def test_legislature_outcome(matter, approved, economic, outcome, rules):
    decision = legislature_outcome(matter, approved, economic)
    assert decision.outcome == outcome and decision.rule_ids == rules
    assert decision.inputs == {"matter": matter, "approved": approved, "economic_and_advantageous": economic}
