"""Who may receive materials aid and which papers prove it (MAT-02…07, 09, 10, 23, 24, 26, 27, 31, 32).

`assess_eligibility` applies the formula of AMB-23 — (A or B or F or VI.D-approved) and (C or VI.E)
and D and E — plus the applicant's own duties (labour, dispensa, disability papers). A requirement
that only a special path can settle (the lot memorandum, the retaining wall, urgent equipment) is
left pending, and the same function is run again once those decisions are in `approvals`.
"""
from __future__ import annotations

from decimal import Decimal

from engine.rules.calendar import as_local_date
from engine.rules.decision import Decision
from engine.rules.money import money

NOT_OWNER = "NOT_OWNER"
LOT_AUTH_FORM_INVALID = "LOT_AUTH_FORM_INVALID"
HEIR_AUTHORIZATION_INCOMPLETE = "HEIR_AUTHORIZATION_INCOMPLETE"
NOT_RESIDING = "NOT_RESIDING"
OTHER_PROPERTY = "OTHER_PROPERTY"
INCOME_ABOVE_LIMIT = "INCOME_ABOVE_LIMIT"
LABOR_CERTIFICATION_REQUIRED = "LABOR_CERTIFICATION_REQUIRED"
EMPLOYEE_DISPENSA_REQUIRED = "EMPLOYEE_DISPENSA_REQUIRED"
DISABILITY_ID_EXPIRED = "DISABILITY_ID_EXPIRED"
LOT_MEMORANDUM_DECLINED = "LOT_MEMORANDUM_DECLINED"
RETAINING_WALL_NEED_NOT_EVIDENCED = "RETAINING_WALL_NEED_NOT_EVIDENCED"
EQUIPMENT_DECLINED_DISCRETION = "EQUIPMENT_DECLINED_DISCRETION"

# The rule ids each reason cites (RULES.md §3.3, §5, §6).
REASON_RULES = {
    NOT_OWNER: ("MAT-02", "MAT-03", "AMB-23"),
    LOT_AUTH_FORM_INVALID: ("MAT-03", "MAT-10"),
    HEIR_AUTHORIZATION_INCOMPLETE: ("MAT-07", "MAT-09"),
    NOT_RESIDING: ("MAT-04", "MAT-26", "AMB-23"),
    OTHER_PROPERTY: ("MAT-05",),
    INCOME_ABOVE_LIMIT: ("MAT-06", "MAT-40", "AMB-31"),
    LABOR_CERTIFICATION_REQUIRED: ("MAT-31",),
    EMPLOYEE_DISPENSA_REQUIRED: ("MAT-32",),
    DISABILITY_ID_EXPIRED: ("MAT-27", "AMB-35"),
    LOT_MEMORANDUM_DECLINED: ("MAT-25",),
    RETAINING_WALL_NEED_NOT_EVIDENCED: ("MAT-24",),
    EQUIPMENT_DECLINED_DISCRETION: ("MAT-23", "AMB-34"),
}

# Special paths: requirements that a person decides, not a document.
LOT_MEMORANDUM, RETAINING_WALL, MEDICAL_EQUIPMENT = "lot_memorandum", "retaining_wall", "medical_equipment"

# MAT-09 (1)…(7): asked of every applicant.
BASIC_DOCUMENTS = ("photos", "ownership_evidence", "income_evidence", "photo_id", "social_security_card",
                   "utility_bill", "materials_estimate")
# A sworn declaration is also a written authorisation, so it satisfies the public-land rule too.
_STRONGER_FORMS = {"written": ("written", "sworn"), "sworn": ("sworn",)}


def income_limit(household_size, thresholds) -> Decimal:
    """The Orden Administrativa's ceiling for a household; the largest size listed covers bigger ones."""
    if not thresholds:
        raise ValueError("materials.lowIncomeThresholds is not set: the Secretario's Orden Administrativa "
                         "must be entered as a parameter before cases are opened")
    table = {int(size): money(limit) for size, limit in dict(thresholds).items()}
    size = int(household_size)
    if size < 1:
        raise ValueError("a household has at least one member")
    listed = [s for s in table if s <= size]
    return table[max(listed)] if listed else table[min(table)]


def income_within_limit(household_size, annual_income, thresholds) -> Decision:
    """MAT-06 / MAT-40 / AMB-31: low income means at or below the limit for the household's size."""
    limit, income = income_limit(household_size, thresholds), money(annual_income)
    return Decision(outcome=income <= limit, rule_ids=("MAT-06", "MAT-40", "AMB-31", "TC-4"),
                    inputs={"household_size": int(household_size), "annual_income": income,
                            "thresholds": dict(thresholds)},
                    details={"income_limit": limit})


def lot_authorization_presented(property_, documents) -> str:
    """The form of the lot owner's authorisation on file: `none`, `written` or `sworn`.

    Staff record `true` for the document declared at the application, or name the form of the one
    presented now (a sworn declaration that replaces an unsworn letter, MAT-S04).
    """
    presented = (documents or {}).get("lot_owner_authorization_document")
    if isinstance(presented, str):
        return presented
    if presented is True:
        return str(property_.get("lot_owner_authorization") or "none")
    return "none" if documents else str(property_.get("lot_owner_authorization") or "none")


def lot_authorization_valid(land, form, ownership_docs_rule) -> bool:
    """MAT-10: written for public land, sworn declaration for private land."""
    needed = dict(ownership_docs_rule or {"public": "written", "private": "sworn"}).get(land, "sworn")
    return form in _STRONGER_FORMS.get(needed, (needed,))


def needs_lot_authorization(property_) -> bool:
    """MAT-03: the owner of the dwelling who does not own the lot (heirs are covered by MAT-07)."""
    return (bool(property_.get("owns_house")) and not property_.get("owns_lot")
            and not property_.get("is_heir"))


def required_documents(applicant, property_, request) -> Decision:
    """MAT-09: the checklist for this applicant's situation (heir, lot authorisation, health, wall)."""
    needed = list(BASIC_DOCUMENTS)
    rule_ids = ["MAT-09"]
    if property_.get("is_heir"):
        needed.append("heirs_sworn_authorization")
        rule_ids.append("MAT-07")
    if needs_lot_authorization(property_) and property_.get("lot_owner_authorization", "none") != "none":
        needed.append("lot_owner_authorization_document")
        rule_ids.append("MAT-10")
    kind = request.get("type")
    if kind in ("medical_equipment", "disability_adaptation"):
        needed.append("medical_certificate")
        rule_ids.append("MAT-23" if kind == "medical_equipment" else "MAT-27")
    if kind == "disability_adaptation":
        needed.append("disability_id_valid_until")
    if kind == "retaining_wall":
        needed.append("engineer_design")
        rule_ids.append("MAT-24")
    return Decision(outcome=needed, rule_ids=tuple(rule_ids),
                    inputs={"applicant_id": applicant.get("id"), "property": dict(property_),
                            "request_type": kind})


def _ownership(property_, documents, approvals, ownership_docs_rule, reasons, pending) -> dict:
    owns_lot, owns_house = bool(property_.get("owns_lot")), bool(property_.get("owns_house"))
    heirs_authorized = bool((documents or {}).get("heirs_sworn_authorization",
                                                  property_.get("heirs_sworn_authorization")))
    lot_form = lot_authorization_presented(property_, documents)
    checks = {"A_owns_lot_and_house": owns_lot and owns_house,
              "B_lot_owner_authorization": needs_lot_authorization(property_) and lot_form != "none"
              and lot_authorization_valid(property_.get("land"), lot_form, ownership_docs_rule),
              # Definition III.F: an heir occupies the dwelling (AMB-23).
              "F_heir": bool(property_.get("is_heir")) and heirs_authorized and bool(property_.get("resides")),
              "lot_authorization_form": lot_form}
    memorandum = approvals.get(LOT_MEMORANDUM)
    checks["VI_D_memorandum_approved"] = memorandum is True
    if checks["A_owns_lot_and_house"] or checks["B_lot_owner_authorization"] or checks["F_heir"] \
            or memorandum is True:
        return checks
    if property_.get("is_heir"):
        reasons.append(HEIR_AUTHORIZATION_INCOMPLETE if not heirs_authorized else NOT_RESIDING)
    elif not owns_house:
        reasons.append(NOT_OWNER)
    elif lot_form != "none":
        reasons.append(LOT_AUTH_FORM_INVALID)
    elif memorandum is False:
        reasons.append(LOT_MEMORANDUM_DECLINED)
    else:
        pending.append(LOT_MEMORANDUM)
    return checks


def assess_eligibility(applicant, household, property_, request, labor_certified, documents, thresholds,
                       assessed_on, approvals=None, ownership_docs_rule=None) -> Decision:
    """AMB-23 with reason codes; `outcome` is True, False, or None while a special path is pending."""
    approvals = dict(approvals or {})
    # The card's expiry and the assessment are days the papers name, never instants.
    assessed = None if assessed_on is None else as_local_date(assessed_on, instants=False)
    reasons: list[str] = []
    pending: list[str] = []
    checks = _ownership(property_, documents, approvals, ownership_docs_rule, reasons, pending)
    resides, completes = bool(property_.get("resides")), bool(property_.get("aid_enables_completion"))
    checks["C_resides_or_VI_E_completion"] = resides or completes
    if not checks["C_resides_or_VI_E_completion"] and NOT_RESIDING not in reasons:
        reasons.append(NOT_RESIDING)
    checks["D_no_other_property"] = not property_.get("other_properties")
    if not checks["D_no_other_property"]:
        reasons.append(OTHER_PROPERTY)
    income = income_within_limit(household.get("size"), household.get("annual_income"), thresholds)
    checks["E_low_income"] = income.outcome
    if not income.outcome:
        reasons.append(INCOME_ABOVE_LIMIT)
    if not labor_certified:
        reasons.append(LABOR_CERTIFICATION_REQUIRED)
    if applicant.get("is_department_employee") and not applicant.get("has_dispensa"):
        reasons.append(EMPLOYEE_DISPENSA_REQUIRED)
    kind = request.get("type")
    if kind == "disability_adaptation":
        valid_until = (documents or {}).get("disability_id_valid_until")
        checks["disability_id_valid"] = valid_until is not None and \
            as_local_date(valid_until, instants=False) >= assessed
        if not checks["disability_id_valid"]:
            reasons.append(DISABILITY_ID_EXPIRED)
    for path, refusal in ((RETAINING_WALL, RETAINING_WALL_NEED_NOT_EVIDENCED),
                          (MEDICAL_EQUIPMENT, EQUIPMENT_DECLINED_DISCRETION)):
        if kind == path:
            if approvals.get(path) is False:
                reasons.append(refusal)
            elif approvals.get(path) is None:
                pending.append(path)
    eligible = False if reasons else (None if pending else True)
    rule_ids = ["MAT-02", "MAT-03", "MAT-04", "MAT-05", "MAT-06", "MAT-07", "MAT-26", "MAT-31", "MAT-32",
                "AMB-23"]
    for reason in reasons:
        rule_ids.extend(r for r in REASON_RULES[reason] if r not in rule_ids)
    return Decision(
        outcome=eligible, rule_ids=tuple(rule_ids),
        inputs={"applicant": dict(applicant), "household": dict(household), "property": dict(property_),
                "request_type": kind, "labor_certified": bool(labor_certified), "documents": dict(documents or {}),
                "income_limit": income.details["income_limit"], "assessed_on": assessed,
                "approvals": approvals},
        details={"reasons": reasons, "special_paths": [] if reasons else pending, "checks": checks})


def eligibility_summary(assessment: dict) -> dict:
    """The contract's `eligibility` variable from a recorded assessment."""
    return {"eligible": assessment["outcome"], "reasons": list(assessment["reasons"]),
            "special_paths": list(assessment["special_paths"])}
