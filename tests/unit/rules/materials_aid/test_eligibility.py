"""Direct tests of engine/rules/materials_aid/eligibility.py (MAT-02…07, 09, 10, 23…27, 31, 32; AMB-23).

AMB-23: eligible = (A or B or F or VI.D-approved) and (C or VI.E) and D and E; an heir must occupy.
MAT-10: the lot owner's authorisation is written on public land, sworn on private land.
Fixture thresholds (EXAMPLES.md): household 1 $15,000.00 … 6+ $31,000.00, compared `<=` (TC-4).
"""
from __future__ import annotations

from decimal import Decimal

import pytest

from engine.rules.materials_aid.eligibility import (
    BASIC_DOCUMENTS, DISABILITY_ID_EXPIRED, EMPLOYEE_DISPENSA_REQUIRED, EQUIPMENT_DECLINED_DISCRETION,
    HEIR_AUTHORIZATION_INCOMPLETE, INCOME_ABOVE_LIMIT, LABOR_CERTIFICATION_REQUIRED, LOT_AUTH_FORM_INVALID,
    LOT_MEMORANDUM_DECLINED, NOT_OWNER, NOT_RESIDING, OTHER_PROPERTY, RETAINING_WALL_NEED_NOT_EVIDENCED,
    assess_eligibility, eligibility_summary, income_limit, income_within_limit, lot_authorization_valid,
    required_documents,
)

THRESHOLDS = {"1": "15000.00", "2": "18000.00", "3": "21000.00", "4": "25000.00", "5": "28000.00",
              "6": "31000.00"}
BASE_RULES = ("MAT-02", "MAT-03", "MAT-04", "MAT-05", "MAT-06", "MAT-07", "MAT-26", "MAT-31", "MAT-32", "AMB-23")
MARIA = {"id": "REC-0001", "name": "María Rivera", "municipality": "Cidra",
         "is_department_employee": False, "has_dispensa": False}
OWNER = {"owns_lot": True, "owns_house": True, "land": "private", "lot_owner_authorization": "none",
         "is_heir": False, "heirs_sworn_authorization": False, "resides": True,
         "aid_enables_completion": False, "other_properties": False}
DOCS = {name: True for name in BASIC_DOCUMENTS}


@pytest.mark.parametrize(("size", "income", "limit", "low"), [
    pytest.param(4, "18000.00", "25000.00", True, id="MAT-06-MAT-S01-household-4"),
    pytest.param(4, "25000.00", "25000.00", True, id="MAT-06-TC-4-exactly-the-limit"),
    pytest.param(4, "25000.01", "25000.00", False, id="MAT-06-TC-4-one-cent-above"),
    pytest.param(1, "15000.00", "15000.00", True, id="MAT-06-household-1"),
    pytest.param(1, "15000.01", "15000.00", False, id="MAT-06-household-1-above"),
    pytest.param(6, "31000.00", "31000.00", True, id="MAT-06-household-6"),
    pytest.param(9, "31000.00", "31000.00", True, id="MAT-06-AMB-31-6-plus-covers-9"),
    pytest.param(9, "31000.01", "31000.00", False, id="MAT-06-AMB-31-6-plus-above"),
])
def test_income_within_limit(size, income, limit, low):
    decision = income_within_limit(size, income, THRESHOLDS)
    assert decision.outcome is low
    assert decision.rule_ids == ("MAT-06", "MAT-40", "AMB-31", "TC-4")
    assert decision.details == {"income_limit": Decimal(limit)}
    assert decision.inputs["household_size"] == size and decision.inputs["annual_income"] == Decimal(income)


@pytest.mark.parametrize(("size", "thresholds"), [
    pytest.param(4, None, id="MAT-06-AMB-31-thresholds-not-set"),
    pytest.param(4, {}, id="MAT-06-AMB-31-thresholds-empty"),
    pytest.param(0, THRESHOLDS, id="MAT-06-household-of-zero"),
])
def test_income_limit_refuses(size, thresholds):
    with pytest.raises(ValueError):
        income_limit(size, thresholds)


@pytest.mark.parametrize(("land", "form", "valid"), [
    pytest.param("public", "written", True, id="MAT-10-MAT-S04a-public-written"),
    pytest.param("public", "sworn", True, id="MAT-10-public-sworn-is-also-written"),
    pytest.param("private", "written", False, id="MAT-10-MAT-S04b-private-unsworn-letter"),
    pytest.param("private", "sworn", True, id="MAT-10-MAT-S04b-private-sworn"),
    pytest.param("public", "none", False, id="MAT-10-public-none"),
    pytest.param("private", "none", False, id="MAT-10-private-none"),
])
def test_lot_authorization_valid(land, form, valid):
    assert lot_authorization_valid(land, form, {"public": "written", "private": "sworn"}) is valid
    assert lot_authorization_valid(land, form, None) is valid  # the documented default rule


@pytest.mark.parametrize(("prop", "kind", "extra", "rules"), [
    pytest.param({}, "rehabilitation", [], ("MAT-09",), id="MAT-09-basic-seven"),
    pytest.param({"is_heir": True, "owns_lot": False}, "rehabilitation", ["heirs_sworn_authorization"],
                 ("MAT-09", "MAT-07"), id="MAT-09-MAT-07-heir"),
    pytest.param({"owns_lot": False, "land": "public", "lot_owner_authorization": "written"}, "rehabilitation",
                 ["lot_owner_authorization_document"], ("MAT-09", "MAT-10"), id="MAT-09-MAT-10-lot-authorization"),
    pytest.param({"owns_lot": False, "lot_owner_authorization": "none"}, "rehabilitation", [], ("MAT-09",),
                 id="MAT-25-no-authorization-goes-to-memorandum"),
    pytest.param({}, "medical_equipment", ["medical_certificate"], ("MAT-09", "MAT-23"), id="MAT-23-medical"),
    pytest.param({}, "disability_adaptation", ["medical_certificate", "disability_id_valid_until"],
                 ("MAT-09", "MAT-27"), id="MAT-27-disability"),
    pytest.param({}, "retaining_wall", ["engineer_design"], ("MAT-09", "MAT-24"), id="MAT-24-wall-design"),
])
def test_required_documents(prop, kind, extra, rules):
    decision = required_documents(MARIA, {**OWNER, **prop}, {"type": kind})
    assert decision.outcome == [*BASIC_DOCUMENTS, *extra]
    assert decision.rule_ids == rules
    assert decision.inputs["request_type"] == kind and decision.inputs["applicant_id"] == "REC-0001"


def test_basic_documents_are_the_seven_of_mat_09():
    assert BASIC_DOCUMENTS == ("photos", "ownership_evidence", "income_evidence", "photo_id",
                               "social_security_card", "utility_bill", "materials_estimate")


def assess(prop=None, household=None, kind="rehabilitation", labor=True, documents=None, approvals=None,
           applicant=None, assessed_on="2024-01-22"):
    return assess_eligibility({**MARIA, **(applicant or {})}, household or {"size": 4, "annual_income": "18000.00"},
                              {**OWNER, **(prop or {})}, {"type": kind}, labor,
                              DOCS if documents is None else {**DOCS, **documents}, THRESHOLDS, assessed_on,
                              approvals)


LOT_PUBLIC_WRITTEN = {"owns_lot": False, "land": "public", "lot_owner_authorization": "written"}
LOT_PRIVATE_WRITTEN = {"owns_lot": False, "land": "private", "lot_owner_authorization": "written"}
LOT_NONE = {"owns_lot": False, "land": "private", "lot_owner_authorization": "none"}
HEIR = {"owns_lot": False, "owns_house": False, "is_heir": True, "heirs_sworn_authorization": True}
WALL = "retaining_wall"


@pytest.mark.parametrize(("kwargs", "eligible", "reasons", "paths"), [
    pytest.param({}, True, [], [], id="MAT-02-MAT-S01-owner-eligible"),
    pytest.param({"prop": LOT_PUBLIC_WRITTEN, "documents": {"lot_owner_authorization_document": True}}, True, [], [],
                 id="MAT-03-MAT-10-MAT-S04a-public-written"),
    pytest.param({"prop": LOT_PRIVATE_WRITTEN, "documents": {"lot_owner_authorization_document": True}}, False,
                 [LOT_AUTH_FORM_INVALID], [], id="MAT-10-MAT-S04b-private-unsworn"),
    pytest.param({"prop": LOT_PRIVATE_WRITTEN, "documents": {"lot_owner_authorization_document": "sworn"}}, True,
                 [], [], id="MAT-10-MAT-S04b-sworn-replaces-letter"),
    pytest.param({"prop": LOT_NONE}, None, [], ["lot_memorandum"], id="MAT-25-memorandum-pending"),
    pytest.param({"prop": LOT_NONE, "approvals": {"lot_memorandum": True}}, True, [], [],
                 id="MAT-25-AMB-23-VI.D-approved"),
    pytest.param({"prop": LOT_NONE, "approvals": {"lot_memorandum": False}}, False, [LOT_MEMORANDUM_DECLINED], [],
                 id="MAT-25-memorandum-declined"),
    pytest.param({"prop": {"owns_house": False}}, False, [NOT_OWNER], [], id="MAT-02-MAT-03-not-owner"),
    pytest.param({"prop": HEIR}, True, [], [], id="MAT-07-AMB-23-heir-authorized-occupying"),
    pytest.param({"prop": HEIR, "documents": {"heirs_sworn_authorization": False}}, False,
                 [HEIR_AUTHORIZATION_INCOMPLETE], [], id="MAT-07-heir-without-sworn-authorization"),
    pytest.param({"prop": {**HEIR, "resides": False, "aid_enables_completion": True}}, False, [NOT_RESIDING], [],
                 id="MAT-07-AMB-23-heir-must-occupy"),
    pytest.param({"prop": {"resides": False, "aid_enables_completion": True}}, True, [], [],
                 id="MAT-04-MAT-26-MAT-S07a-aid-lets-her-move-in"),
    pytest.param({"prop": {"resides": False}}, False, [NOT_RESIDING], [], id="MAT-04-not-residing"),
    pytest.param({"prop": {"resides": False, "aid_enables_completion": True, "other_properties": True}}, False,
                 [OTHER_PROPERTY], [], id="MAT-05-MAT-S07b-vacation-apartment"),
    pytest.param({"household": {"size": 4, "annual_income": "25000.00"}}, True, [], [], id="MAT-06-at-limit"),
    pytest.param({"household": {"size": 4, "annual_income": "25000.01"}}, False, [INCOME_ABOVE_LIMIT], [],
                 id="MAT-06-one-cent-above"),
    pytest.param({"labor": False}, False, [LABOR_CERTIFICATION_REQUIRED], [], id="MAT-31-labour"),
    pytest.param({"applicant": {"is_department_employee": True}}, False, [EMPLOYEE_DISPENSA_REQUIRED], [],
                 id="MAT-32-employee-without-dispensa"),
    pytest.param({"applicant": {"is_department_employee": True, "has_dispensa": True}}, True, [], [],
                 id="MAT-32-employee-with-dispensa"),
    pytest.param({"kind": "disability_adaptation", "assessed_on": "2024-06-03",
                  "documents": {"disability_id_valid_until": "2026-05-31"}}, True, [], [],
                 id="MAT-27-MAT-S22a-id-valid"),
    pytest.param({"kind": "disability_adaptation", "assessed_on": "2024-06-03",
                  "documents": {"disability_id_valid_until": "2023-12-31"}}, False, [DISABILITY_ID_EXPIRED], [],
                 id="MAT-27-MAT-S22b-id-expired"),
    pytest.param({"kind": "disability_adaptation", "assessed_on": "2024-06-03",
                  "documents": {"disability_id_valid_until": "2024-06-03"}}, True, [], [],
                 id="MAT-27-id-valid-through-the-day"),
    pytest.param({"kind": "disability_adaptation", "assessed_on": "2024-06-03",
                  "documents": {"disability_id_valid_until": "2024-06-02"}}, False, [DISABILITY_ID_EXPIRED], [],
                 id="MAT-27-id-expired-the-day-before"),
    pytest.param({"kind": "disability_adaptation"}, False, [DISABILITY_ID_EXPIRED], [], id="MAT-27-id-missing"),
    pytest.param({"kind": WALL}, None, [], [WALL], id="MAT-24-wall-pending"),
    pytest.param({"kind": WALL, "approvals": {WALL: True}}, True, [], [], id="MAT-24-MAT-S10a-wall-evidenced"),
    pytest.param({"kind": WALL, "approvals": {WALL: False}}, False, [RETAINING_WALL_NEED_NOT_EVIDENCED], [],
                 id="MAT-24-MAT-S10c-wall-not-evidenced"),
    pytest.param({"kind": "medical_equipment"}, None, [], ["medical_equipment"], id="MAT-23-equipment-pending"),
    pytest.param({"kind": "medical_equipment", "approvals": {"medical_equipment": True}}, True, [], [],
                 id="MAT-23-equipment-approved"),
    pytest.param({"kind": "medical_equipment", "approvals": {"medical_equipment": False}}, False,
                 [EQUIPMENT_DECLINED_DISCRETION], [], id="MAT-23-AMB-34-equipment-declined"),
    pytest.param({"kind": WALL, "labor": False}, False, [LABOR_CERTIFICATION_REQUIRED], [],
                 id="MAT-31-refusal-clears-pending-paths"),
    pytest.param({"prop": {"owns_house": False, "resides": False, "other_properties": True},
                  "household": {"size": 1, "annual_income": "15000.01"}, "labor": False,
                  "applicant": {"is_department_employee": True}}, False,
                 [NOT_OWNER, NOT_RESIDING, OTHER_PROPERTY, INCOME_ABOVE_LIMIT, LABOR_CERTIFICATION_REQUIRED,
                  EMPLOYEE_DISPENSA_REQUIRED], [], id="AMB-23-every-reason-kept"),
])
def test_assess_eligibility(kwargs, eligible, reasons, paths):
    decision = assess(**kwargs)
    assert decision.outcome is eligible
    assert decision.details["reasons"] == reasons
    assert decision.details["special_paths"] == paths
    assert decision.rule_ids[:len(BASE_RULES)] == BASE_RULES
    assert decision.inputs["income_limit"] == Decimal(THRESHOLDS[str(min(
        (kwargs.get("household") or {"size": 4})["size"], 6))])


@pytest.mark.parametrize(("kwargs", "extra_rules"), [
    pytest.param({"prop": LOT_PRIVATE_WRITTEN, "documents": {"lot_owner_authorization_document": True}},
                 ("MAT-10",), id="MAT-10-cited"),
    pytest.param({"household": {"size": 4, "annual_income": "25000.01"}}, ("MAT-40", "AMB-31"), id="MAT-40-cited"),
    pytest.param({"kind": "disability_adaptation"}, ("MAT-27", "AMB-35"), id="MAT-27-cited"),
    pytest.param({"kind": WALL, "approvals": {WALL: False}}, ("MAT-24",), id="MAT-24-cited"),
    pytest.param({"kind": "medical_equipment", "approvals": {"medical_equipment": False}}, ("MAT-23", "AMB-34"),
                 id="MAT-23-cited"),
    pytest.param({"prop": LOT_NONE, "approvals": {"lot_memorandum": False}}, ("MAT-25",), id="MAT-25-cited"),
])
def test_refusal_reasons_cite_their_rules(kwargs, extra_rules):
    decision = assess(**kwargs)
    assert decision.rule_ids == BASE_RULES + extra_rules


def test_assessment_checks_record_each_requirement():
    checks = assess(prop={"resides": False, "aid_enables_completion": True}).details["checks"]
    assert checks["A_owns_lot_and_house"] is True
    assert checks["B_lot_owner_authorization"] is False
    assert checks["F_heir"] is False
    assert checks["C_resides_or_VI_E_completion"] is True
    assert checks["D_no_other_property"] is True
    assert checks["E_low_income"] is True


def test_eligibility_summary_is_the_contract_variable():
    pending = assess(prop=LOT_NONE).as_dict()
    assert eligibility_summary(pending) == {"eligible": None, "reasons": [], "special_paths": ["lot_memorandum"]}
    refused = assess(prop={"other_properties": True}).as_dict()
    assert eligibility_summary(refused) == {"eligible": False, "reasons": [OTHER_PROPERTY], "special_paths": []}
