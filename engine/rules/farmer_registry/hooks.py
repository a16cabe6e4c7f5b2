"""What the engine refuses before it lets a farmer-registry case move: starts, completions, messages.

Each hook raises a `RuleViolation` (422) or a `Refusal` (409) with the code of the contract, so
the case's state and variables stay exactly as they were.
"""
from __future__ import annotations

from engine.rules.facts import Facts
from engine.rules.decision import Refusal, RuleViolation
from engine.rules.money import money
from engine.rules.farmer_registry.eligibility import REASON_RULES

ADMISSION = "farmer_registry_admission"
MEMBERSHIP = "farmer_registry_membership"


def application_filed(variables: dict, facts: Facts) -> None:
    """FAR-03: interest is declared by a sworn declaration; without one there is no application."""
    if variables.get("sworn_declaration") is not True:
        raise RuleViolation("SWORN_DECLARATION_REQUIRED",
                            "an application needs the applicant's sworn declaration (declaración jurada)",
                            ("FAR-03",))
    _income_consistent(variables.get("gross_annual_income"), variables.get("activity_income"))


def _income_consistent(gross, activity) -> None:
    if gross is not None and activity is not None and money(activity) > money(gross):
        raise RuleViolation("ACTIVITY_INCOME_EXCEEDS_GROSS",
                            "the activity's income cannot exceed the gross annual income", ("FAR-04",),
                            values={"activity_income": money(activity), "gross_annual_income": money(gross)})


def admission_needs_eligibility(data: dict, facts: Facts) -> None:
    """FAR-10: entry is ordered only «si cumple con todos los requisitos de ley y forma»."""
    case = facts.case
    if data.get("recommendation", data.get("decision")) != "admit":
        return
    eligibility = case.get("eligibility") or {}
    if eligibility.get("eligible"):
        return
    reasons = eligibility.get("reasons") or ["NOT_ELIGIBLE"]
    first = reasons[0]
    # Every failed requirement, not only the first: errors.rule keeps the contract's one code.
    raise RuleViolation(first, f"the application cannot be admitted: {', '.join(reasons)}",
                        ("FAR-10", *REASON_RULES.get(first, ())), values=_case_figures(case),
                        reasons=reasons)


def _case_figures(case) -> dict:
    """What the case itself says about its requirements (the thresholds are in the assessment's history)."""
    applicant = case.get("applicant") or {}
    return {"producer_type": applicant.get("producer_type"),
            "income_share_pct": (case.get("eligibility") or {}).get("income_share_pct"),
            "gross_annual_income": case.get("gross_annual_income"), "activity_income": case.get("activity_income"),
            "filed_documents": [d.get("issuer") or d.get("type") for d in case.get("documents") or []]}


def review_request(payload: dict, facts: Facts) -> None:
    """FAR-12 / FAR-13: a review asked after the window closed is refused, and the refusal is kept.

    The engine fires a due deadline before it hands over a message, so once the 20th day is over
    the case no longer waits: a denial notified and never reviewed is late, not merely unexpected.
    """
    case, expected = facts.case, facts.waiting
    if expected or case.get("review_deadline") is None or case.get("review_accepted"):
        return
    raise Refusal("UNTIMELY_REVIEW_REQUEST",
                  f"the review window closed on {case['review_deadline']}; the denial is final "
                  "and judicial review is not available", ("FAR-12", "FAR-13", "AMB-14"),
                  values={"review_deadline": case["review_deadline"], "filed_on": facts.today})


def renewal_filed(payload: dict, facts: Facts) -> None:
    """FAR-15: the renewal is the producer's signed certification that bona fide status continues."""
    if payload.get("signed_certification") is not True:
        raise RuleViolation("SIGNED_CERTIFICATION_REQUIRED",
                            "a renewal needs the producer's signed certification", ("FAR-15",))
    figures = (payload.get("gross_annual_income"), payload.get("activity_income"))
    if (figures[0] is None) != (figures[1] is None):
        raise RuleViolation("INCOME_FIGURES_REQUIRED",
                            "a certified income share needs both the gross and the activity income",
                            ("FAR-15", "FAR-04"))
    _income_consistent(*figures)


COMPLETION_RULES = {
    (ADMISSION, "start"): application_filed,
    (ADMISSION, "evaluate_application"): admission_needs_eligibility,
    (ADMISSION, "order_admission"): admission_needs_eligibility,
}

MESSAGE_RULES = {
    (ADMISSION, "review_requested"): review_request,
    (MEMBERSHIP, "renewal_filed"): renewal_filed,
}
