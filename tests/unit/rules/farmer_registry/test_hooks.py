"""Direct tests of engine/rules/farmer_registry/hooks.py: what the engine refuses before a farmer
registry case moves (farmer_registry.md; RULES.md FAR-03, 04, 10, 12, 13, 15; §5; FAR-S01/S07/S10/S13).

- start: without the sworn declaration (FAR-03) → 422 SWORN_DECLARATION_REQUIRED; eligibility itself is
  computed after the start, so a low income share does not refuse the filing.
- evaluate_application / order_admission: `admit` while `eligibility.eligible` is false → 422 with the
  first reason (FAR-10 plus the reason's rule, §5).
- review_requested: after the 20-day window (the timer fired, the case no longer waits) → 409
  UNTIMELY_REVIEW_REQUEST (FAR-12/13, AMB-14); day 20 is timely, day 21 late.
- renewal_filed: without the signed certification → 422 SIGNED_CERTIFICATION_REQUIRED (FAR-15); a late
  renewal or a share below the threshold is not refused (AMB-17; the case goes to decide_withdrawal).
"""
from __future__ import annotations

from datetime import date

import pytest

from engine.rules.facts import Facts
from engine.rules.farmer_registry import hooks
from tests.unit.rules.hook_checks import ACCEPT, check, conflict, table_entries, unprocessable

ADMISSION, MEMBERSHIP = "farmer_registry_admission", "farmer_registry_membership"

# FAR-S01: Ana Torres, agricultora, 32,000 of 40,000 (80 %), certified by the Secretario de Agricultura.
ANA = {"applicant": {"name": "Ana Torres", "producer_type": "agricultor", "address": "Carr. 172 km 3, Cidra",
                     "municipality": "Cidra"},
       "gross_annual_income": "40000.00", "activity_income": "32000.00", "sworn_declaration": True,
       "documents": [{"type": "secretario_agricultura", "issuer": "Depto. de Agricultura",
                      "registered_dept_estado": None}]}


DROP = object()  # the variable is not sent at all


def start_facts() -> Facts:
    return Facts(case={}, today=date(2024, 1, 22), actor="clerk", office=None)


# --- start: application_filed ------------------------------------------------------------------

@pytest.mark.parametrize(("changes", "verdict"), [
    pytest.param({}, ACCEPT, id="FAR-03-sworn-declaration-80pct-accepted"),
    pytest.param({"sworn_declaration": DROP}, unprocessable("SWORN_DECLARATION_REQUIRED", ("FAR-03",)),
                 id="FAR-03-no-sworn-declaration-refused"),
    pytest.param({"sworn_declaration": False}, unprocessable("SWORN_DECLARATION_REQUIRED", ("FAR-03",)),
                 id="FAR-03-sworn-declaration-false-refused"),
    pytest.param({"activity_income": "10000.00"}, ACCEPT, id="FAR-04-share-below-threshold-still-filed"),
    pytest.param({"activity_income": "40000.00"}, ACCEPT, id="FAR-04-activity-equal-to-gross-accepted"),
    pytest.param({"activity_income": "40000.01"}, unprocessable("ACTIVITY_INCOME_EXCEEDS_GROSS", ("FAR-04",)),
                 id="FAR-04-activity-above-gross-refused"),
    pytest.param({"gross_annual_income": None, "activity_income": None}, ACCEPT,
                 id="FAR-04-no-figures-nothing-to-compare"),
    pytest.param({"sworn_declaration": False, "activity_income": "50000.00"},
                 unprocessable("SWORN_DECLARATION_REQUIRED", ("FAR-03",)),
                 id="FAR-03-checked-before-FAR-04"),
])
def test_application_filed(changes, verdict):
    variables = {k: v for k, v in {**ANA, **changes}.items() if v is not DROP}
    check(hooks.application_filed, variables, start_facts(), verdict)


# --- evaluate_application / order_admission: admission_needs_eligibility ----------------------

ELIGIBLE = {"eligible": True, "income_share_pct": "80.00", "reasons": []}


def not_eligible(*reasons) -> dict:
    return {"eligible": False, "income_share_pct": "85.00", "reasons": list(reasons)}


@pytest.mark.parametrize(("data", "eligibility", "verdict"), [
    pytest.param({"recommendation": "admit", "findings": "cumple"}, ELIGIBLE, ACCEPT,
                 id="FAR-10-evaluator-admits-eligible-accepted"),
    pytest.param({"recommendation": "admit", "findings": "x"}, not_eligible("CERTIFICATION_MISSING"),
                 unprocessable("CERTIFICATION_MISSING", ("FAR-10", "FAR-06", "FAR-07")),
                 id="FAR-10-FAR-06-S07-admit-without-certification-refused"),
    pytest.param({"recommendation": "admit", "findings": "x"},
                 not_eligible("TYPE_NOT_ELIGIBLE", "INCOME_SHARE_BELOW_THRESHOLD"),
                 unprocessable("TYPE_NOT_ELIGIBLE", ("FAR-10", "FAR-02", "AMB-02")),
                 id="FAR-10-FAR-02-first-reason-is-the-code"),
    pytest.param({"recommendation": "admit", "findings": "x"}, not_eligible("INCOME_SHARE_BELOW_THRESHOLD"),
                 unprocessable("INCOME_SHARE_BELOW_THRESHOLD", cites=("FAR-10", "FAR-04")),
                 id="FAR-10-FAR-04-share-below-threshold-refused"),
    pytest.param({"recommendation": "admit", "findings": "x"}, not_eligible("CERTIFICATION_INVALID_FOR_TYPE"),
                 unprocessable("CERTIFICATION_INVALID_FOR_TYPE", cites=("FAR-10", "FAR-06", "FAR-07")),
                 id="FAR-10-FAR-07-certification-invalid-for-type-refused"),
    pytest.param({"recommendation": "admit", "findings": "x"}, not_eligible("ASSOCIATION_NOT_REGISTERED"),
                 unprocessable("ASSOCIATION_NOT_REGISTERED", cites=("FAR-10", "FAR-06", "FAR-07")),
                 id="FAR-10-FAR-06-association-not-registered-refused"),
    pytest.param({"recommendation": "admit", "findings": "x"}, not_eligible("DOCUMENTS_NOT_SUPPLIED"),
                 unprocessable("DOCUMENTS_NOT_SUPPLIED", ("FAR-10", "FAR-08")),
                 id="FAR-10-FAR-08-documents-not-supplied-refused"),
    pytest.param({"recommendation": "admit", "findings": "x"}, None,
                 unprocessable("NOT_ELIGIBLE", ("FAR-10",)), id="FAR-10-admit-unassessed-refused"),
    pytest.param({"recommendation": "deny", "findings": "sin certificación"}, not_eligible("CERTIFICATION_MISSING"),
                 ACCEPT, id="FAR-10-deny-ineligible-accepted"),
    pytest.param({"recommendation": "require_documents", "findings": "x",
                  "required_documents": ["secretario_agricultura"]}, not_eligible("CERTIFICATION_MISSING"),
                 ACCEPT, id="FAR-08-require-documents-accepted"),
    pytest.param({"decision": "admit"}, ELIGIBLE, ACCEPT, id="FAR-10-commissioner-orders-eligible-accepted"),
    pytest.param({"decision": "admit"}, not_eligible("INCOME_SHARE_BELOW_THRESHOLD"),
                 unprocessable("INCOME_SHARE_BELOW_THRESHOLD", cites=("FAR-10", "FAR-04")),
                 id="FAR-10-commissioner-orders-ineligible-refused"),
    pytest.param({"decision": "deny", "reason": "no cumple"}, not_eligible("TYPE_NOT_ELIGIBLE"), ACCEPT,
                 id="FAR-10-commissioner-denies-accepted"),
])
def test_admission_needs_eligibility(data, eligibility, verdict):
    case = {**ANA, **({"eligibility": eligibility} if eligibility is not None else {})}
    facts = Facts(case=case, today=date(2024, 1, 29), actor="evaluator", waiting=True)
    check(hooks.admission_needs_eligibility, data, facts, verdict)


# --- message review_requested: review_request ---------------------------------------------------

# FAR-S07 / S10: denial notified 2024-04-02, so the last timely day is 2024-04-22 (TC-1); the timer
# fires at the start of 2024-04-23 and the case stops waiting for the request.
DENIED = {**ANA, "denial_notified_on": "2024-04-02", "review_deadline": "2024-04-22"}
UNTIMELY = conflict("UNTIMELY_REVIEW_REQUEST", ("FAR-12", "FAR-13", "AMB-14"))


@pytest.mark.parametrize(("case", "today", "waiting", "verdict"), [
    pytest.param(DENIED, date(2024, 4, 5), True, ACCEPT, id="FAR-12-review-within-window-accepted"),
    pytest.param(DENIED, date(2024, 4, 22), True, ACCEPT, id="FAR-12-review-on-day-20-accepted"),
    pytest.param(DENIED, date(2024, 4, 23), False, UNTIMELY, id="FAR-12-review-on-day-21-refused"),
    pytest.param(DENIED, date(2024, 6, 1), False, UNTIMELY, id="FAR-13-review-weeks-late-refused"),
    pytest.param({**DENIED, "review_accepted": True}, date(2024, 4, 25), False, ACCEPT,
                 id="FAR-12-review-already-accepted-not-untimely"),
    pytest.param(ANA, date(2024, 3, 1), False, ACCEPT, id="FAR-12-no-denial-notified-not-untimely"),
])
def test_review_request(case, today, waiting, verdict):
    facts = Facts(case=case, today=today, actor="clerk", waiting=waiting)
    check(hooks.review_request, {"documents": []}, facts, verdict)


# --- message renewal_filed: renewal_filed --------------------------------------------------------

MEMBER = {"registry_id": "F-17", "renewal_due": "2026-02-05"}


@pytest.mark.parametrize(("payload", "today", "verdict"), [
    pytest.param({"signed_certification": True, "gross_annual_income": "40000.00", "activity_income": "32000.00"},
                 date(2026, 2, 5), ACCEPT, id="FAR-15-S13a-signed-on-due-date-accepted"),
    pytest.param({"signed_certification": True, "gross_annual_income": "40000.00", "activity_income": "32000.00"},
                 date(2026, 3, 10), ACCEPT, id="FAR-15-AMB-17-S13b-late-renewal-accepted"),
    pytest.param({"signed_certification": True}, date(2026, 2, 1), ACCEPT, id="FAR-15-signed-without-figures-accepted"),
    pytest.param({"signed_certification": True, "gross_annual_income": "40000.00", "activity_income": "8000.00"},
                 date(2026, 2, 1), ACCEPT, id="FAR-15-share-below-threshold-goes-to-withdrawal-not-refused"),
    pytest.param({"gross_annual_income": "40000.00", "activity_income": "32000.00"}, date(2026, 2, 1),
                 unprocessable("SIGNED_CERTIFICATION_REQUIRED", ("FAR-15",)),
                 id="FAR-15-no-signed-certification-refused"),
    pytest.param({"signed_certification": False}, date(2026, 2, 1),
                 unprocessable("SIGNED_CERTIFICATION_REQUIRED", ("FAR-15",)), id="FAR-15-certification-false-refused"),
    pytest.param({"signed_certification": True, "gross_annual_income": "40000.00"}, date(2026, 2, 1),
                 unprocessable("INCOME_FIGURES_REQUIRED", ("FAR-15", "FAR-04")),
                 id="FAR-15-FAR-04-gross-without-activity-refused"),
    pytest.param({"signed_certification": True, "activity_income": "32000.00"}, date(2026, 2, 1),
                 unprocessable("INCOME_FIGURES_REQUIRED", ("FAR-15", "FAR-04")),
                 id="FAR-15-FAR-04-activity-without-gross-refused"),
    pytest.param({"signed_certification": True, "gross_annual_income": "30000.00", "activity_income": "32000.00"},
                 date(2026, 2, 1), unprocessable("ACTIVITY_INCOME_EXCEEDS_GROSS", ("FAR-04",)),
                 id="FAR-04-renewal-activity-above-gross-refused"),
])
def test_renewal_filed(payload, today, verdict):
    check(hooks.renewal_filed, payload, Facts(case=MEMBER, today=today, actor="clerk", waiting=True), verdict)


# --- the tables --------------------------------------------------------------------------------

EXPECTED_COMPLETION = {
    (ADMISSION, "start"): hooks.application_filed,
    (ADMISSION, "evaluate_application"): hooks.admission_needs_eligibility,
    (ADMISSION, "order_admission"): hooks.admission_needs_eligibility,
}
EXPECTED_MESSAGES = {
    (ADMISSION, "review_requested"): hooks.review_request,
    (MEMBERSHIP, "renewal_filed"): hooks.renewal_filed,
}


def test_process_keys_are_the_contracts():
    assert (hooks.ADMISSION, hooks.MEMBERSHIP) == (ADMISSION, MEMBERSHIP)


@pytest.mark.parametrize("table", ["COMPLETION_RULES", "MESSAGE_RULES"])
def test_every_key_belongs_to_the_farmer_registry(table):
    assert {process for process, _ in getattr(hooks, table)} <= {ADMISSION, MEMBERSHIP}


@pytest.mark.parametrize(("table", "key", "rule"), table_entries(COMPLETION_RULES=EXPECTED_COMPLETION,
                                                                 MESSAGE_RULES=EXPECTED_MESSAGES))
def test_each_table_points_to_the_tested_rule(table, key, rule):
    assert getattr(hooks, table).get(key) is rule


def test_tables_hold_nothing_else():
    assert hooks.COMPLETION_RULES == EXPECTED_COMPLETION
    assert hooks.MESSAGE_RULES == EXPECTED_MESSAGES
    assert getattr(hooks, "LANE_REFUSALS", {}) == {}
