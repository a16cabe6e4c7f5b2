"""Direct tests of the start and task-completion rules of engine/rules/materials_aid/hooks.py
(materials_aid.md; RULES.md MAT-08…10, 15, 21…25, 27, 29; §5; MAT-S01/S04/S10/S22/S25).

- start: filed at the Regional Office that serves the applicant's town (MAT-08), read from the
  directory the lookup hands in `facts.reference["directory"]` → 422 WRONG_REGIONAL_OFFICE.
- record_documents: every paper of the MAT-09 checklist → otherwise 422 naming the missing ones
  (field errors), with the §5 code where one exists (HEIR_AUTHORIZATION_INCOMPLETE MAT-07,
  RETAINING_WALL_DESIGN_REQUIRED MAT-24, MEDICAL_EVIDENCE_REQUIRED MAT-23); the lot owner's
  authorisation in the wrong form → LOT_AUTH_FORM_INVALID (MAT-10: written on public land, sworn on
  private land).
- director_memorandum EFFORTS_EVIDENCE_REQUIRED (MAT-25); evidence_wall_need
  RETAINING_WALL_NEED_NOT_EVIDENCED / RETAINING_WALL_DESIGN_REQUIRED (MAT-24); discretionary_approval
  MEDICAL_EVIDENCE_REQUIRED (MAT-23); prepare_quotes QUOTES_NOT_THREE_DISTINCT /
  QUOTE_STORE_NOT_REGISTERED (MAT-15) / ITEM_NOT_INDISPENSABLE (MAT-22); central_review
  MAX_AID_EXCEEDED (MAT-21); sign_duties DUTIES_SIGNATURE_REQUIRED (MAT-29).
"""
from __future__ import annotations

from datetime import date

import pytest

from engine.rules.decision import RuleViolation
from engine.rules.facts import Facts
from engine.rules.materials_aid import hooks
from tests.unit.rules.hook_checks import ACCEPT, check, unprocessable

# MAT-S01: María Rivera of Cidra, owner of lot and house, household of 4 with $18,000.00.
APPLICANT = {"id": "REC-0001", "name": "María Rivera", "municipality": "Cidra",
             "is_department_employee": False, "has_dispensa": False}
OWNER = {"owns_lot": True, "owns_house": True, "land": "private", "lot_owner_authorization": "none",
         "is_heir": False, "heirs_sworn_authorization": False, "resides": True,
         "aid_enables_completion": False, "other_properties": False}
REHABILITATION = {"type": "rehabilitation", "estimate": "4800.00", "description": "Techo y baño"}
CASE = {"applicant": APPLICANT, "household": {"size": 4, "annual_income": "18000.00"}, "property": OWNER,
        "request": REHABILITATION, "priority": {"kind": "none", "event_date": None}, "labor_certified": True}
BASIC = {"photos": True, "ownership_evidence": True, "income_evidence": True, "photo_id": True,
         "social_security_card": True, "utility_bill": True, "materials_estimate": True}

HEIR = {**OWNER, "owns_lot": False, "owns_house": False, "is_heir": True}
ON_PUBLIC_LOT = {**OWNER, "owns_lot": False, "land": "public", "lot_owner_authorization": "written"}
ON_PRIVATE_LOT_UNSWORN = {**OWNER, "owns_lot": False, "land": "private", "lot_owner_authorization": "written"}
ON_PRIVATE_LOT_SWORN = {**ON_PRIVATE_LOT_UNSWORN, "lot_owner_authorization": "sworn"}
ON_LOT_WITHOUT_AUTH = {**OWNER, "owns_lot": False, "lot_owner_authorization": "none"}


def facts(case=None, **more) -> Facts:
    return Facts(case=case if case is not None else CASE, today=date(2024, 1, 22), actor="regional", **more)


def variant(property_=None, request=None) -> dict:
    return {**CASE, "property": property_ or OWNER, "request": {**REHABILITATION, **(request or {})}}


def missing(*names) -> dict:
    return {name: ["MISSING_DOCUMENT"] for name in names}


# --- start: application_filed (MAT-08) ----------------------------------------------------------

DIRECTORY = {"offices": [
    {"id": "Caguas", "name": "Oficina Regional de Caguas", "municipalities": ["Caguas", "Cidra", "Cayey"]},
    {"id": "Ponce", "name": "Oficina Regional de Ponce", "municipalities": ["Ponce", "Juana Díaz"]},
    {"id": "Bayamón", "name": "Oficina Regional de Bayamón", "municipalities": ["Bayamón", "Toa Alta"]},
]}


@pytest.mark.parametrize(("town", "office", "reference", "verdict"), [
    pytest.param("Cidra", "Caguas", {"directory": DIRECTORY}, ACCEPT, id="MAT-08-S01-serving-office-accepted"),
    pytest.param("Ponce", "Caguas", {"directory": DIRECTORY}, unprocessable("WRONG_REGIONAL_OFFICE", ("MAT-08",)),
                 id="MAT-08-S25-ponce-resident-at-caguas-refused"),
    pytest.param("Juana Díaz", "Ponce", {"directory": DIRECTORY}, ACCEPT, id="MAT-08-other-region-own-office-accepted"),
    pytest.param("Toa Alta", "Bayamon", {"directory": DIRECTORY}, ACCEPT, id="MAT-08-office-id-without-accent-accepted"),
    pytest.param("Ponce", None, {"directory": DIRECTORY}, ACCEPT, id="MAT-08-central-staff-without-office-accepted"),
    pytest.param("Atlantis", "Caguas", {"directory": DIRECTORY}, unprocessable("MUNICIPALITY_UNKNOWN", ("MAT-08",)),
                 id="MAT-08-town-served-by-no-office-refused"),
    pytest.param("Cidra", "Caguas", {}, unprocessable("MUNICIPALITY_UNKNOWN", ("MAT-08",)),
                 id="MAT-08-no-directory-in-reference-refused"),
])
def test_application_filed_reads_the_directory_and_the_office(town, office, reference, verdict):
    variables = {**CASE, "applicant": {**APPLICANT, "municipality": town}}
    check(hooks.application_filed, variables, Facts(case={}, office=office, reference=reference), verdict)


# --- record_documents: documents_recorded (MAT-09, 10) -------------------------------------------

@pytest.mark.parametrize(("case", "data", "verdict"), [
    pytest.param(CASE, BASIC, ACCEPT, id="MAT-09-S01-all-seven-documents-accepted"),
    pytest.param(CASE, {**BASIC, "photos": False},
                 unprocessable("DOCUMENTS_INCOMPLETE", ("MAT-09",),
                               {"rule": ["DOCUMENTS_INCOMPLETE"], **missing("photos")}),
                 id="MAT-09-photos-false-refused"),
    pytest.param(CASE, {k: v for k, v in BASIC.items() if k not in ("utility_bill", "photo_id")},
                 unprocessable("DOCUMENTS_INCOMPLETE", ("MAT-09",),
                               {"rule": ["DOCUMENTS_INCOMPLETE"], **missing("photo_id", "utility_bill")}),
                 id="MAT-09-two-documents-absent-named"),
    pytest.param(variant(HEIR), {**BASIC, "heirs_sworn_authorization": True}, ACCEPT,
                 id="MAT-07-heir-with-sworn-authorization-accepted"),
    pytest.param(variant(HEIR), BASIC,
                 unprocessable("HEIR_AUTHORIZATION_INCOMPLETE", ("MAT-09", "MAT-07"),
                               {"rule": ["HEIR_AUTHORIZATION_INCOMPLETE"], **missing("heirs_sworn_authorization")}),
                 id="MAT-07-heir-without-sworn-authorization-refused"),
    pytest.param(variant(HEIR), {**BASIC, "photos": None},
                 unprocessable("HEIR_AUTHORIZATION_INCOMPLETE", ("MAT-09", "MAT-07"),
                               {"rule": ["HEIR_AUTHORIZATION_INCOMPLETE", "DOCUMENTS_INCOMPLETE"],
                                **missing("photos", "heirs_sworn_authorization")}),
                 id="MAT-07-named-code-before-DOCUMENTS_INCOMPLETE"),
    pytest.param(variant(request={"type": "retaining_wall"}), {**BASIC, "engineer_design": True}, ACCEPT,
                 id="MAT-24-wall-with-engineer-design-accepted"),
    pytest.param(variant(request={"type": "retaining_wall"}), BASIC,
                 unprocessable("RETAINING_WALL_DESIGN_REQUIRED", ("MAT-09", "MAT-24"),
                               {"rule": ["RETAINING_WALL_DESIGN_REQUIRED"], **missing("engineer_design")}),
                 id="MAT-24-wall-without-engineer-design-refused"),
    pytest.param(variant(request={"type": "medical_equipment"}), {**BASIC, "medical_certificate": True}, ACCEPT,
                 id="MAT-23-equipment-with-medical-certificate-accepted"),
    pytest.param(variant(request={"type": "medical_equipment"}), {**BASIC, "medical_certificate": False},
                 unprocessable("MEDICAL_EVIDENCE_REQUIRED", ("MAT-09", "MAT-23"),
                               {"rule": ["MEDICAL_EVIDENCE_REQUIRED"], **missing("medical_certificate")}),
                 id="MAT-23-equipment-without-medical-certificate-refused"),
    pytest.param(variant(request={"type": "disability_adaptation"}),
                 {**BASIC, "medical_certificate": True, "disability_id_valid_until": "2026-05-31"}, ACCEPT,
                 id="MAT-27-S22a-certificate-and-dtop-id-accepted"),
    pytest.param(variant(request={"type": "disability_adaptation"}),
                 {**BASIC, "medical_certificate": True, "disability_id_valid_until": "2023-12-31"}, ACCEPT,
                 id="MAT-27-S22b-expired-id-is-an-eligibility-reason-not-a-missing-paper"),
    pytest.param(variant(request={"type": "disability_adaptation"}), {**BASIC, "medical_certificate": True},
                 unprocessable("DOCUMENTS_INCOMPLETE", cites=("MAT-09",),
                               errors={"rule": ["DOCUMENTS_INCOMPLETE"], **missing("disability_id_valid_until")}),
                 id="MAT-27-dtop-id-absent-refused"),
    pytest.param(variant(request={"type": "disability_adaptation"}),
                 {**BASIC, "disability_id_valid_until": "2026-05-31"},
                 unprocessable("MEDICAL_EVIDENCE_REQUIRED", cites=("MAT-09",),
                               errors={"rule": ["MEDICAL_EVIDENCE_REQUIRED"], **missing("medical_certificate")}),
                 id="MAT-27-medical-certificate-absent-refused"),
    pytest.param(variant(ON_PUBLIC_LOT), {**BASIC, "lot_owner_authorization_document": True}, ACCEPT,
                 id="MAT-10-S04a-public-land-written-letter-accepted"),
    pytest.param(variant(ON_PRIVATE_LOT_UNSWORN), {**BASIC, "lot_owner_authorization_document": True},
                 unprocessable("LOT_AUTH_FORM_INVALID", ("MAT-09", "MAT-10"),
                               {"rule": ["LOT_AUTH_FORM_INVALID"],
                                "lot_owner_authorization_document": ["LOT_AUTH_FORM_INVALID"]}),
                 id="MAT-10-S04b-private-land-unsworn-letter-refused"),
    pytest.param(variant(ON_PRIVATE_LOT_UNSWORN), {**BASIC, "lot_owner_authorization_document": "sworn"}, ACCEPT,
                 id="MAT-10-S04b-sworn-declaration-arrives-accepted"),
    pytest.param(variant(ON_PRIVATE_LOT_SWORN), {**BASIC, "lot_owner_authorization_document": True}, ACCEPT,
                 id="MAT-10-private-land-sworn-declaration-accepted"),
    pytest.param(variant(ON_PRIVATE_LOT_UNSWORN), {**BASIC, "photos": False, "lot_owner_authorization_document": True},
                 unprocessable("LOT_AUTH_FORM_INVALID", ("MAT-09", "MAT-10"),
                               {"rule": ["LOT_AUTH_FORM_INVALID", "DOCUMENTS_INCOMPLETE"], **missing("photos"),
                                "lot_owner_authorization_document": ["LOT_AUTH_FORM_INVALID"]}),
                 id="MAT-10-wrong-form-and-missing-photos-both-named"),
    pytest.param(variant(ON_PRIVATE_LOT_SWORN), BASIC,
                 unprocessable("DOCUMENTS_INCOMPLETE", cites=("MAT-09",),
                               errors={"rule": ["DOCUMENTS_INCOMPLETE"],
                                       **missing("lot_owner_authorization_document")}),
                 id="MAT-10-authorization-declared-but-not-presented-refused"),
    pytest.param(variant(ON_LOT_WITHOUT_AUTH), BASIC, ACCEPT,
                 id="MAT-25-no-authorization-goes-to-memorandum-not-refused"),
])
def test_documents_recorded(case, data, verdict):
    check(hooks.documents_recorded, data, facts(case), verdict)


@pytest.mark.xfail(strict=True, reason="RULES.md MAT-27 is the rule that asks a disability adaptation for the "
                   "medical certificate and the DTOP ID; the hook cites MAT-23 (urgent equipment) for the "
                   "certificate and only MAT-09 for the ID")
@pytest.mark.parametrize("absent", ["medical_certificate", "disability_id_valid_until"],
                         ids=["MAT-27-certificate", "MAT-27-dtop-id"])
def test_disability_adaptation_papers_cite_MAT_27(absent):
    data = {**BASIC, "medical_certificate": True, "disability_id_valid_until": "2026-05-31"}
    del data[absent]
    with pytest.raises(RuleViolation) as caught:
        hooks.documents_recorded(data, facts(variant(request={"type": "disability_adaptation"})))
    assert "MAT-27" in caught.value.rule_ids and "MAT-23" not in caught.value.rule_ids


# --- director_memorandum, evidence_wall_need, discretionary_approval, sign_duties -------------------

EFFORTS = unprocessable("EFFORTS_EVIDENCE_REQUIRED", ("MAT-25",))
NEED, DESIGN = "RETAINING_WALL_NEED_NOT_EVIDENCED", "RETAINING_WALL_DESIGN_REQUIRED"
EQUIPMENT = variant(request={"type": "medical_equipment"})
DUTIES = unprocessable("DUTIES_SIGNATURE_REQUIRED", ("MAT-29",))


@pytest.mark.parametrize(("rule", "case", "data", "verdict"), [
    pytest.param(hooks.memorandum_submitted, variant(ON_LOT_WITHOUT_AUTH),
                 {"efforts_evidence": "cartas certificadas al dueño, 3 visitas", "memorandum": "meritorio"}, ACCEPT,
                 id="MAT-25-memorandum-with-efforts-accepted"),
    pytest.param(hooks.memorandum_submitted, variant(ON_LOT_WITHOUT_AUTH), {"efforts_evidence": "", "memorandum": "m"},
                 EFFORTS, id="MAT-25-empty-efforts-evidence-refused"),
    pytest.param(hooks.memorandum_submitted, variant(ON_LOT_WITHOUT_AUTH), {"efforts_evidence": "   "}, EFFORTS,
                 id="MAT-25-blank-efforts-evidence-refused"),
    pytest.param(hooks.memorandum_submitted, variant(ON_LOT_WITHOUT_AUTH), {"memorandum": "m"}, EFFORTS,
                 id="MAT-25-no-efforts-evidence-refused"),
    pytest.param(hooks.wall_need_evidenced, CASE, {"need_evidenced": True, "engineer_design_attached": True}, ACCEPT,
                 id="MAT-24-S10a-need-and-design-accepted"),
    pytest.param(hooks.wall_need_evidenced, CASE, {"need_evidenced": True, "engineer_design_attached": False},
                 unprocessable(DESIGN, ("MAT-24",)), id="MAT-24-S10b-no-engineer-design-refused"),
    pytest.param(hooks.wall_need_evidenced, CASE, {"need_evidenced": False, "engineer_design_attached": True},
                 unprocessable(NEED, ("MAT-24",)), id="MAT-24-S10c-no-director-evidence-refused"),
    pytest.param(hooks.wall_need_evidenced, CASE, {"need_evidenced": False, "engineer_design_attached": False},
                 unprocessable(NEED, ("MAT-24",), {"rule": [NEED, DESIGN]}), id="MAT-24-neither-both-codes-named"),
    pytest.param(hooks.wall_need_evidenced, CASE, {"declined": True}, ACCEPT, id="MAT-24-wall-declined-accepted"),
    pytest.param(hooks.discretion_exercised, EQUIPMENT,
                 {"approved": True, "justification": "oxígeno", "medical_evidence": True}, ACCEPT,
                 id="MAT-23-equipment-approved-with-medical-evidence-accepted"),
    pytest.param(hooks.discretion_exercised, EQUIPMENT, {"approved": True, "justification": "urgente"},
                 unprocessable("MEDICAL_EVIDENCE_REQUIRED", ("MAT-23", "AMB-34")),
                 id="MAT-23-AMB-34-equipment-approved-without-medical-evidence-refused"),
    pytest.param(hooks.discretion_exercised, EQUIPMENT, {"approved": False, "justification": "no procede"}, ACCEPT,
                 id="MAT-23-equipment-declined-accepted"),
    pytest.param(hooks.discretion_exercised, variant(ON_LOT_WITHOUT_AUTH), {"approved": True, "justification": "m"},
                 ACCEPT, id="MAT-25-lot-memorandum-approved-needs-no-medical-evidence"),
    pytest.param(hooks.duties_signed, CASE, {"beneficiary_signed": True}, ACCEPT, id="MAT-29-signed-accepted"),
    pytest.param(hooks.duties_signed, CASE, {"beneficiary_signed": False}, DUTIES, id="MAT-29-not-signed-refused"),
    pytest.param(hooks.duties_signed, CASE, {}, DUTIES, id="MAT-29-signature-absent-refused"),
])
def test_director_and_secretary_decisions(rule, case, data, verdict):
    check(rule, data, facts(case), verdict)


# --- prepare_quotes: quotes_prepared (MAT-15, 22; AMB-26) -----------------------------------------

# EXAMPLES.md: the stores of the Registro de Licitadores (La Esquina is not registered).
STORES = [{"id": "RL-1001", "name": "Ferretería Borinquen"}, {"id": "RL-1002", "name": "Ferretería El Coquí"},
          {"id": "RL-1003", "name": "Materiales del Este"}, {"id": "RL-1004", "name": "Ferretería Central"}]
BORINQUEN = {"store_id": "RL-1001", "store_name": "Ferretería Borinquen", "total": "4150.00"}
COQUI = {"store_id": "RL-1002", "store_name": "Ferretería El Coquí", "total": "4310.00"}
ESTE = {"store_id": "RL-1003", "store_name": "Materiales del Este", "total": "4395.00"}
ESQUINA = {"store_id": None, "store_name": "Ferretería La Esquina", "total": "3900.00"}
ROOF = {"description": "Techo", "amount": "3000.00", "indispensable": True}
GAZEBO = {"description": "Glorieta", "amount": "900.00", "indispensable": False}
QUOTE_RULES = ("MAT-15", "AMB-26")


@pytest.mark.parametrize(("quotes", "items", "more", "verdict"), [
    pytest.param([BORINQUEN, COQUI, ESTE], [ROOF], {}, ACCEPT, id="MAT-15-S01-three-registered-stores-accepted"),
    pytest.param([BORINQUEN, COQUI, ESQUINA], [ROOF], {},
                 unprocessable("QUOTE_STORE_NOT_REGISTERED", QUOTE_RULES,
                               {"rule": ["QUOTE_STORE_NOT_REGISTERED", "QUOTES_NOT_THREE_DISTINCT"]}),
                 id="MAT-15-unregistered-store-refused"),
    pytest.param([BORINQUEN, COQUI, ESTE, ESQUINA], [ROOF], {},
                 unprocessable("QUOTE_STORE_NOT_REGISTERED", QUOTE_RULES),
                 id="MAT-15-unregistered-fourth-quote-still-refused"),
    pytest.param([BORINQUEN, {**BORINQUEN, "total": "4200.00"}, COQUI], [ROOF], {},
                 unprocessable("QUOTES_NOT_THREE_DISTINCT", QUOTE_RULES), id="MAT-15-same-store-twice-refused"),
    pytest.param([BORINQUEN, COQUI], [ROOF], {}, unprocessable("QUOTES_NOT_THREE_DISTINCT", QUOTE_RULES),
                 id="MAT-15-two-quotes-refused"),
    pytest.param([BORINQUEN, COQUI], [ROOF], {"quote_count": 2}, ACCEPT, id="MAT-15-quote-count-parameter-honoured"),
    pytest.param([BORINQUEN, COQUI, ESTE], [ROOF, GAZEBO], {},
                 unprocessable("ITEM_NOT_INDISPENSABLE", cites=("MAT-22",)), id="MAT-22-item-not-indispensable-refused"),
    pytest.param([BORINQUEN, ESQUINA, ESTE], [GAZEBO], {},
                 unprocessable("QUOTE_STORE_NOT_REGISTERED", QUOTE_RULES + ("MAT-22",),
                               {"rule": ["QUOTE_STORE_NOT_REGISTERED", "QUOTES_NOT_THREE_DISTINCT",
                                         "ITEM_NOT_INDISPENSABLE"]}),
                 id="MAT-15-MAT-22-every-problem-named"),
])
def test_quotes_prepared(quotes, items, more, verdict):
    case = {**CASE, "registered_stores": STORES, **more}
    check(hooks.quotes_prepared, {"adjusted_estimate": "4200.00", "items": items, "quotes": quotes}, facts(case), verdict)


# --- central_review: central_review_decided (MAT-21; AMB-31; TC-4) --------------------------------

EXCEEDED = unprocessable("MAX_AID_EXCEEDED", ("MAT-21", "AMB-31"))


@pytest.mark.parametrize(("approved", "total", "maximum", "verdict"), [
    pytest.param(True, "4150.00", "5000.00", ACCEPT, id="MAT-21-S01-below-maximum-accepted"),
    pytest.param(True, "5000.00", "5000.00", ACCEPT, id="MAT-21-equal-to-maximum-accepted"),
    pytest.param(True, "5000.01", "5000.00", EXCEEDED, id="MAT-21-one-cent-above-maximum-refused"),
    pytest.param(False, "6200.00", "5000.00", ACCEPT, id="MAT-21-rejection-above-maximum-accepted"),
    pytest.param(True, "4150.00", None, unprocessable("MAX_AID_NOT_SET", ("MAT-21", "AMB-31")),
                 id="MAT-21-AMB-31-maximum-not-set-refused"),
])
def test_central_review_decided(approved, total, maximum, verdict):
    case = {**CASE, "selected_total": total, "max_aid_amount": maximum}
    check(hooks.central_review_decided, {"approved": approved, "notes": ""}, facts(case), verdict)
