"""Who may enter the Registro de Agricultores Bona Fide: type scope, income share, certification.

Each check is its own rule function so a diagram (or a supervisor reading the history) can see
which requirement failed; `assess_eligibility` runs them all on one application and keeps every
partial finding in the decision it records.
"""
from __future__ import annotations

from decimal import ROUND_DOWN, Decimal

from engine.rules.decision import Decision
from engine.rules.money import cents, money

TYPE_NOT_ELIGIBLE = "TYPE_NOT_ELIGIBLE"
INCOME_SHARE_BELOW_THRESHOLD = "INCOME_SHARE_BELOW_THRESHOLD"
CERTIFICATION_MISSING = "CERTIFICATION_MISSING"
CERTIFICATION_INVALID_FOR_TYPE = "CERTIFICATION_INVALID_FOR_TYPE"
ASSOCIATION_NOT_REGISTERED = "ASSOCIATION_NOT_REGISTERED"
DOCUMENTS_NOT_SUPPLIED = "DOCUMENTS_NOT_SUPPLIED"

# The rule ids a refusal cites, per reason code (RULES.md §2.3, §5, §6).
REASON_RULES = {
    TYPE_NOT_ELIGIBLE: ("FAR-02", "AMB-02"),
    INCOME_SHARE_BELOW_THRESHOLD: ("FAR-04", "FAR-05", "AMB-01", "AMB-21"),
    CERTIFICATION_MISSING: ("FAR-06", "FAR-07"),
    CERTIFICATION_INVALID_FOR_TYPE: ("FAR-06", "FAR-07", "AMB-18"),
    ASSOCIATION_NOT_REGISTERED: ("FAR-06", "FAR-07", "AMB-18"),
    DOCUMENTS_NOT_SUPPLIED: ("FAR-08",),
}

def share_text(share: Decimal) -> str:
    # Truncated, never rounded up: a shown "50.00" must never hide a share the exact test refuses.
    return str(cents(share, rounding=ROUND_DOWN))


def producer_type_in_scope(producer_type, eligible_types) -> Decision:
    """FAR-02 / AMB-02: the statute's five producer types unless the parameter narrows them."""
    allowed = [str(t).lower() for t in (eligible_types or [])]
    return Decision(outcome=str(producer_type).lower() in allowed, rule_ids=("FAR-02", "AMB-02"),
                    inputs={"producer_type": producer_type, "eligible_producer_types": allowed})


def income_share_qualifies(gross_annual_income, activity_income, min_share_pct) -> Decision:
    """FAR-04 / FAR-05 / AMB-01 / AMB-21: the activity's share of gross income, exactly, with `>=`."""
    gross, activity, threshold = money(gross_annual_income), money(activity_income), money(min_share_pct)
    # Cross-multiplied so no division ever rounds: 49.99 % stays below 50 %.
    qualifies = gross > 0 and activity * 100 >= threshold * gross
    share = (activity * 100 / gross) if gross > 0 else Decimal(0)
    return Decision(
        outcome=bool(qualifies), rule_ids=("FAR-04", "FAR-05", "AMB-01", "AMB-21"),
        inputs={"gross_annual_income": gross, "activity_income": activity, "min_share_pct": threshold},
        details={"income_share_pct": share_text(share)})


def _registration_ok(document: dict) -> bool:
    registered = document.get("registered_dept_estado")
    if document.get("type") == "asociacion_registrada":
        # «cualquier otra asociación … y esté debidamente registrada en el Departamento de Estado»
        return registered is True
    if document.get("type") == "asociacion_agricultores_pr":
        # Named by 000 itself; refused only when the file says it is not registered.
        return registered is not False
    return True


def certification_valid_for_type(producer_type, documents, accepted_certifications) -> Decision:
    """FAR-06 / FAR-07 / AMB-18: at least one accompanying document fit for the producer type."""
    accepted = list((accepted_certifications or {}).get(str(producer_type).lower(), []))
    findings = []
    for document in documents or []:
        fits = document.get("type") in accepted
        registered = _registration_ok(document)
        findings.append({"type": document.get("type"), "issuer": document.get("issuer"),
                         "accepted_for_type": fits, "registration_ok": registered,
                         "valid": fits and registered})
    reasons: list[str] = []
    if not any(f["valid"] for f in findings):
        if not findings:
            reasons.append(CERTIFICATION_MISSING)
        if any(not f["accepted_for_type"] for f in findings):
            reasons.append(CERTIFICATION_INVALID_FOR_TYPE)
        if any(f["accepted_for_type"] and not f["registration_ok"] for f in findings):
            reasons.append(ASSOCIATION_NOT_REGISTERED)
    return Decision(outcome=not reasons, rule_ids=("FAR-06", "FAR-07", "AMB-18"),
                    inputs={"producer_type": producer_type, "documents": list(documents or []),
                            "accepted_for_type": accepted},
                    details={"reasons": reasons, "documents": findings})


def assess_eligibility(applicant, gross_annual_income, activity_income, documents, min_share_pct,
                       eligible_types, accepted_certifications) -> Decision:
    """FAR-01…07, FAR-10: every requirement of the application checked, every failure kept in order."""
    producer_type = (applicant or {}).get("producer_type")
    scope = producer_type_in_scope(producer_type, eligible_types)
    share = income_share_qualifies(gross_annual_income, activity_income, min_share_pct)
    certification = certification_valid_for_type(producer_type, documents, accepted_certifications)
    reasons = ([] if scope.outcome else [TYPE_NOT_ELIGIBLE]) \
        + ([] if share.outcome else [INCOME_SHARE_BELOW_THRESHOLD]) + certification.details["reasons"]
    rule_ids = ("FAR-01", *dict.fromkeys(scope.rule_ids + share.rule_ids + certification.rule_ids), "FAR-10")
    return Decision(because=_because(scope, share, certification),
        outcome=not reasons, rule_ids=rule_ids,
        inputs={"applicant": dict(applicant or {}), "gross_annual_income": share.inputs["gross_annual_income"],
                "activity_income": share.inputs["activity_income"], "documents": list(documents or []),
                "min_share_pct": share.inputs["min_share_pct"],
                "eligible_producer_types": scope.inputs["eligible_producer_types"],
                "accepted_certifications": dict(accepted_certifications or {})},
        details={"eligible": not reasons, "income_share_pct": share.details["income_share_pct"],
                 "reasons": reasons,
                 "checks": {"producer_type": scope.outcome, "income_share": share.outcome,
                            "certification": certification.outcome,
                            "documents": certification.details["documents"]}})


def _because(scope: Decision, share: Decision, certification: Decision) -> tuple:
    """Each requirement, met or failed, with the values its sentence shows (messages.py)."""
    documents = certification.details["documents"]
    values = {**scope.inputs, **share.inputs, "income_share_pct": share.details["income_share_pct"],
              "producer_type": certification.inputs["producer_type"],
              "accepted_for_type": certification.inputs["accepted_for_type"],
              "valid_documents": [d["issuer"] or d["type"] for d in documents if d["valid"]],
              "filed_documents": [d["issuer"] or d["type"] for d in documents]}
    share_code = "INCOME_SHARE_MET" if share.outcome else INCOME_SHARE_BELOW_THRESHOLD
    certificates = certification.details["reasons"] or ["CERTIFICATION_VALID"]
    return tuple((code, values) for code in
                 ["TYPE_ELIGIBLE" if scope.outcome else TYPE_NOT_ELIGIBLE, share_code, *certificates])


def eligibility_summary(assessment: dict) -> dict:
    """The contract's `eligibility` variable cut from a recorded assessment (not itself a decision)."""
    return {"eligible": bool(assessment["eligible"]), "income_share_pct": assessment["income_share_pct"],
            "reasons": list(assessment["reasons"])}


def documents_not_supplied(eligibility: dict, required_documents) -> Decision:
    """FAR-08: the documents required under FAR-08 did not arrive in time, so the file is incomplete."""
    reasons = [r for r in eligibility.get("reasons", []) if r != DOCUMENTS_NOT_SUPPLIED]
    updated = {**eligibility, "eligible": False, "reasons": [DOCUMENTS_NOT_SUPPLIED, *reasons]}
    return Decision(outcome=False, rule_ids=("FAR-08", "FAR-10"),
                    because=((DOCUMENTS_NOT_SUPPLIED, {"required_documents": list(required_documents or [])}),),
                    inputs={"eligibility": dict(eligibility), "required_documents": list(required_documents or [])},
                    details={"eligibility": updated})
