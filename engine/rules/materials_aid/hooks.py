"""What the engine refuses before it lets a materials-aid case move: starts, completions, messages.

Each hook raises a `RuleViolation` (422) or a `Refusal` (409) with the code of the contract or
RULES.md §5, so the case's state and variables stay exactly as they were.
"""
from __future__ import annotations

from engine.rules.facts import Facts
from engine.rules.decision import Refusal, RuleViolation
from engine.rules.money import money
from engine.rules.materials_aid.eligibility import (
    HEIR_AUTHORIZATION_INCOMPLETE, LOT_AUTH_FORM_INVALID, lot_authorization_presented,
    lot_authorization_valid, needs_lot_authorization, required_documents,
)
from engine.rules.materials_aid.offices import check_filing_office
from engine.rules.materials_aid.quotes import (
    ITEM_NOT_INDISPENSABLE, MAX_AID_EXCEEDED, items_not_indispensable, quote_problems, registered_store,
)

MATERIALS = "materials_aid"

DOCUMENTS_INCOMPLETE = "DOCUMENTS_INCOMPLETE"
RETAINING_WALL_DESIGN_REQUIRED = "RETAINING_WALL_DESIGN_REQUIRED"
RETAINING_WALL_NEED_NOT_EVIDENCED = "RETAINING_WALL_NEED_NOT_EVIDENCED"
MEDICAL_EVIDENCE_REQUIRED = "MEDICAL_EVIDENCE_REQUIRED"
EFFORTS_EVIDENCE_REQUIRED = "EFFORTS_EVIDENCE_REQUIRED"
DUTIES_SIGNATURE_REQUIRED = "DUTIES_SIGNATURE_REQUIRED"
EXTENSION_NOT_WRITTEN = "EXTENSION_NOT_WRITTEN"
EXTENSION_REQUEST_LATE = "EXTENSION_REQUEST_LATE"
EXTENSION_AUTHORITY_INVALID = "EXTENSION_AUTHORITY_INVALID"
COMPLETION_ALREADY_NOTIFIED = "COMPLETION_ALREADY_NOTIFIED"
MAX_AID_NOT_SET = "MAX_AID_NOT_SET"

# The code a missing paper is refused with, where RULES.md §5 names one (MAT-07, MAT-23/27, MAT-24).
_MISSING_CODE = {"heirs_sworn_authorization": HEIR_AUTHORIZATION_INCOMPLETE,
                 "engineer_design": RETAINING_WALL_DESIGN_REQUIRED,
                 "medical_certificate": MEDICAL_EVIDENCE_REQUIRED}
_MISSING_RULES = {HEIR_AUTHORIZATION_INCOMPLETE: "MAT-07", RETAINING_WALL_DESIGN_REQUIRED: "MAT-24",
                  MEDICAL_EVIDENCE_REQUIRED: "MAT-23", LOT_AUTH_FORM_INVALID: "MAT-10"}


def _refuse(codes: list[str], message: str, rule_ids, fields: dict | None = None, values: dict | None = None) -> None:
    # Every code is a reason of its own (messages.py words each), with the figures `values` names.
    violation = RuleViolation(codes[0], message, rule_ids, values=values, reasons=list(dict.fromkeys(codes)))
    violation.errors = {"rule": list(dict.fromkeys(codes)), **(fields or {})}
    raise violation


def _blank(value) -> bool:
    return not str(value or "").strip()


def application_filed(variables: dict, facts: Facts) -> None:
    """MAT-08: filed at the Regional Office that serves the applicant's town (none for central staff).

    `facts.reference["directory"]` is the Regional Offices directory the procedure's lookup read."""
    check_filing_office(variables["applicant"]["municipality"], facts.office,
                        facts.reference.get("directory") or {})


def documents_recorded(data: dict, facts: Facts) -> None:
    """MAT-09 / MAT-10: the application is filled in only when every paper of the checklist is in."""
    case = facts.case
    needed = required_documents(case["applicant"], case["property"], case["request"]).outcome
    missing = [name for name in needed if (data.get(name) is None if name == "disability_id_valid_until"
                                           else data.get(name) in (None, False))]
    codes = [_MISSING_CODE.get(name, DOCUMENTS_INCOMPLETE) for name in missing]
    fields = {name: ["MISSING_DOCUMENT"] for name in missing}
    form = lot_authorization_presented(case["property"], data)
    if needs_lot_authorization(case["property"]) and form != "none" and \
            not lot_authorization_valid(case["property"].get("land"), form, case.get("ownership_docs_rule")):
        codes.insert(0, LOT_AUTH_FORM_INVALID)
        fields["lot_owner_authorization_document"] = [LOT_AUTH_FORM_INVALID]
    if codes:
        codes.sort(key=lambda c: c == DOCUMENTS_INCOMPLETE)
        names = ", ".join(missing) or "the lot owner's authorisation"
        _refuse(codes, f"the application cannot be filed yet: {names} "
                       f"{'is' if len(missing) <= 1 else 'are'} missing or not in the required form",
                ("MAT-09", *sorted({_MISSING_RULES[c] for c in codes if c in _MISSING_RULES})), fields,
                values={"missing": missing})


def memorandum_submitted(data: dict, facts: Facts) -> None:
    """MAT-25: the memorandum must show the efforts made to obtain the lot owner's authorisation."""
    if _blank(data.get("efforts_evidence")):
        raise RuleViolation(EFFORTS_EVIDENCE_REQUIRED,
                            "describe the efforts made to obtain the lot owner's authorisation", ("MAT-25",))


def wall_need_evidenced(data: dict, facts: Facts) -> None:
    """MAT-24: a retaining wall needs the Director's evidence of need and a licensed engineer's design."""
    if data.get("declined") is True:
        return
    codes = []
    if data.get("need_evidenced") is not True:
        codes.append(RETAINING_WALL_NEED_NOT_EVIDENCED)
    if data.get("engineer_design_attached") is not True:
        codes.append(RETAINING_WALL_DESIGN_REQUIRED)
    if codes:
        _refuse(codes, "a retaining wall is funded only with the Director Regional's evidence of need and a "
                       "licensed engineer's design; otherwise decline it", ("MAT-24",))


def discretion_exercised(data: dict, facts: Facts) -> None:
    """MAT-23 / AMB-34: urgent equipment is approved only with medical evidence that justifies it."""
    case = facts.case
    if data.get("approved") and case["request"].get("type") == "medical_equipment" \
            and data.get("medical_evidence") is not True:
        raise RuleViolation(MEDICAL_EVIDENCE_REQUIRED,
                            "urgent equipment may be approved only with medical evidence", ("MAT-23", "AMB-34"))


def quotes_prepared(data: dict, facts: Facts) -> None:
    """MAT-15 / MAT-22: three distinct registered stores asked, only indispensable items."""
    case = facts.case
    problems = quote_problems(data.get("quotes"), case.get("registered_stores"), case.get("quote_count", 3))
    codes = [code for code, _ in problems]
    messages = [detail for _, detail in problems]
    extra = items_not_indispensable(data.get("items"))
    if extra:
        codes.append(ITEM_NOT_INDISPENSABLE)
        messages.append(f"not indispensable to occupancy, health and safety: {', '.join(extra)}")
    if codes:
        rule_ids = ("MAT-15", "AMB-26") + (("MAT-22",) if extra else ())
        _refuse(codes, "; ".join(messages), rule_ids,
                values={"quote_count": case.get("quote_count", 3), "items": extra,
                        "unregistered": [q.get("store_name") or q.get("store_id") for q in data.get("quotes") or []
                                         if registered_store(q, case.get("registered_stores")) is None]})


def central_review_decided(data: dict, facts: Facts) -> None:
    """MAT-21: the Oficina Central approves no more than the maximum aid."""
    case = facts.case
    if not data.get("approved"):
        return
    if case.get("max_aid_amount") is None:
        raise RuleViolation(MAX_AID_NOT_SET, "the maximum aid (materials.maxAidAmount) was not set when this "
                                             "case started", ("MAT-21", "AMB-31"))
    total, maximum = money(case["selected_total"]), money(case["max_aid_amount"])
    if total > maximum:
        raise RuleViolation(MAX_AID_EXCEEDED, f"the selected quote ({total:.2f}) exceeds the maximum aid "
                                              f"({maximum:.2f})", ("MAT-21", "AMB-31"),
                            values={"selected_total": total, "max_aid_amount": maximum})


def duties_signed(data: dict, facts: Facts) -> None:
    """MAT-29: the beneficiary signs the duties document before the materials are delivered."""
    if data.get("beneficiary_signed") is not True:
        raise RuleViolation(DUTIES_SIGNATURE_REQUIRED,
                            "the beneficiary must sign the duties and responsibilities document", ("MAT-29",))


def extension_requested(payload: dict, facts: Facts) -> None:
    """MAT-36 / AMB-27: a written request, filed on or before the current use deadline."""
    case, expected = facts.case, facts.waiting
    if payload.get("written") is not True:
        raise RuleViolation(EXTENSION_NOT_WRITTEN, "an extension must be requested in writing", ("MAT-36",))
    # A due deadline fires before any message is matched, so a case past its use period no longer
    # waits for requests: that one is late, not merely unexpected.
    if not expected and case.get("visit_not_before") is not None:
        raise Refusal(EXTENSION_REQUEST_LATE, f"the period to use the materials ended on {case.get('use_deadline')}; "
                                              "an extension must be requested on or before it", ("MAT-36", "AMB-27"),
                      values={"use_deadline": case.get("use_deadline"), "filed_on": facts.today})


def completion_notified(_payload: dict, facts: Facts) -> None:
    """MAT-34: the beneficiary notifies the end of the work once; the first notice stands."""
    case, expected = facts.case, facts.waiting
    if expected and case.get("completion_date") is not None:
        raise Refusal(COMPLETION_ALREADY_NOTIFIED,
                      f"the completion was already notified on {case['completion_date']}", ("MAT-34", "AMB-28"))


COMPLETION_RULES = {
    (MATERIALS, "start"): application_filed,
    (MATERIALS, "record_documents"): documents_recorded,
    (MATERIALS, "director_memorandum"): memorandum_submitted,
    (MATERIALS, "evidence_wall_need"): wall_need_evidenced,
    (MATERIALS, "discretionary_approval"): discretion_exercised,
    (MATERIALS, "prepare_quotes"): quotes_prepared,
    (MATERIALS, "central_review"): central_review_decided,
    (MATERIALS, "sign_duties"): duties_signed,
}

MESSAGE_RULES = {
    (MATERIALS, "extension_requested"): extension_requested,
    (MATERIALS, "completion_notified"): completion_notified,
}

# MAT-36: «Se delega en el Director Regional esta facultad» — nobody else decides an extension.
LANE_REFUSALS = {(MATERIALS, "decide_extension"): (EXTENSION_AUTHORITY_INVALID, ("MAT-36",))}

__all__ = ["COMPLETION_RULES", "LANE_REFUSALS", "MATERIALS", "MESSAGE_RULES", "application_filed"]
