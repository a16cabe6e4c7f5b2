"""The documents of an application (MAT-09, MAT-10, MAT-11): the checklist per situation, the 30-day
deadline on day 30 vs day 31, the form of the lot owner's authorisation (MAT-S04) and the
disability papers (MAT-S22)."""
import pytest

LYDIA = {"applicant": {"id": "REC-0400", "name": "Lydia Marrero", "municipality": "Loíza"},
         "property": {"owns_lot": False, "land": "public", "lot_owner_authorization": "written"}}
HECTOR = {"applicant": {"id": "REC-0401", "name": "Héctor Cruz", "municipality": "Caguas"},
          "property": {"owns_lot": False, "land": "private", "lot_owner_authorization": "written"}}


def test_documents_on_day_30_file_the_application(mat):
    case = mat.apply()  # requested Monday 2024-04-01
    assert case["variables"]["docs_deadline"] == "2024-05-01"
    mat.day("2024-05-01", hour=23)
    case = mat.documents(case)
    assert case["variables"]["filing_date"] == "2024-05-01" and case["outcome"] is None


def test_documents_on_day_31_find_the_case_closed_incomplete(mat, api):
    case = mat.apply()
    task = api.open_task(case, "record_documents")
    mat.day("2024-05-02", hour=9)
    closed = mat.case(case["id"])
    assert closed["status"] == "completed" and closed["outcome"] == "INCOMPLETE_CLOSED"
    assert closed["open_tasks"] == [] and closed["deadlines"] == [] and "filing_date" not in closed["variables"]
    late = api.post(f"/api/v1/tasks/{task['id']}/complete", "caguas", {"data": {"photos": True}}, expect=409)
    assert late["errors"]["rule"] == ["TASK_NOT_OPEN"]
    fired = mat.history(case["id"], "timer_fired")
    assert [(e["element_id"], e["at"]) for e in fired] == [("docs_deadline_passed", "2024-05-02T04:00:00+00:00")]
    notice = mat.history(case["id"], "notification")
    assert notice[0]["data"]["kind"] == "INCOMPLETE_CLOSED" and notice[0]["data"]["reasons"] == ["DOCS_LATE"]
    assert "Ley Núm. 170" in notice[0]["data"]["lpau_orientation"]
    # Never a beneficiary: a new application is allowed at once (AMB-24).
    assert mat.apply()["variables"]["reapply_barred"] is False


def test_missing_documents_are_refused_naming_each_one_and_the_deadline_keeps_running(mat):
    case = mat.apply()
    refused = mat.complete(case, "record_documents", {"photos": True, "photo_id": True}, "caguas", expect=422)
    assert refused["errors"]["rule"] == ["DOCUMENTS_INCOMPLETE"]
    missing = {"ownership_evidence", "income_evidence", "social_security_card", "utility_bill", "materials_estimate"}
    assert {k for k, v in refused["errors"].items() if v == ["MISSING_DOCUMENT"]} == missing
    assert all(name in refused["message"] for name in missing)
    again = mat.case(case["id"])
    assert again["deadlines"][0]["element_id"] == "docs_deadline_passed" and "filing_date" not in again["variables"]
    assert mat.history(case["id"], "task_refused")[0]["data"]["code"] == "DOCUMENTS_INCOMPLETE"


@pytest.mark.parametrize("changes, extra", [
    ({"property": {"is_heir": True, "heirs_sworn_authorization": True}}, ["heirs_sworn_authorization"]),
    (HECTOR, ["lot_owner_authorization_document"]),
    ({"request": {"type": "retaining_wall"}}, ["engineer_design"]),
    ({"request": {"type": "medical_equipment"}}, ["medical_certificate"]),
    ({"request": {"type": "disability_adaptation"}}, ["medical_certificate", "disability_id_valid_until"]),
    ({"property": {"owns_lot": False, "lot_owner_authorization": "none"}}, []),
])
def test_the_checklist_follows_the_applicants_situation(mat, changes, extra):
    required = mat.apply(**changes)["variables"]["documents_required"]
    assert required == ["photos", "ownership_evidence", "income_evidence", "photo_id", "social_security_card",
                        "utility_bill", "materials_estimate", *extra]


def test_an_heir_needs_the_other_heirs_sworn_authorisation(mat):
    case = mat.apply(property={"is_heir": True, "owns_lot": False, "owns_house": False,
                               "heirs_sworn_authorization": True})
    refused = mat.documents(case, expect=422)
    assert refused["errors"]["rule"] == ["HEIR_AUTHORIZATION_INCOMPLETE"]
    case = mat.documents(case, heirs_sworn_authorization=True)
    assert case["variables"]["eligibility"]["eligible"] is True


def test_mat_s04a_written_authorisation_on_public_land_meets_requirement_b(mat):
    mat.day("2024-05-06")
    case = mat.apply(user="carolina", **LYDIA)
    assert case["office"] == "Carolina"
    case = mat.documents(case, user="carolina", lot_owner_authorization_document=True)
    assessed = mat.decisions(case["id"], "assess_materials_eligibility")[0]["data"]
    assert assessed["checks"]["B_lot_owner_authorization"] is True
    assert assessed["checks"]["A_owns_lot_and_house"] is False
    assert case["variables"]["eligibility"] == {"eligible": True, "reasons": [], "special_paths": []}


def test_mat_s04b_an_unsworn_letter_on_private_land_is_refused_until_the_sworn_declaration_on_day_30(mat):
    mat.day("2024-05-06")
    case = mat.apply(**HECTOR)
    refused = mat.documents(case, lot_owner_authorization_document=True, expect=422)
    assert refused["errors"]["rule"] == ["LOT_AUTH_FORM_INVALID"]
    assert refused["errors"]["lot_owner_authorization_document"] == ["LOT_AUTH_FORM_INVALID"]
    mat.day("2024-06-05", hour=16)  # day 30
    case = mat.documents(case, lot_owner_authorization_document="sworn")
    assert case["variables"]["filing_date"] == "2024-06-05"
    assert case["variables"]["eligibility"]["eligible"] is True


def test_mat_s04b_the_sworn_declaration_on_day_31_is_too_late(mat):
    mat.day("2024-05-06")
    case = mat.apply(**HECTOR)
    mat.documents(case, lot_owner_authorization_document=True, expect=422)
    mat.day("2024-06-06")
    assert mat.case(case["id"])["outcome"] == "INCOMPLETE_CLOSED"


def test_a_written_letter_also_serves_when_a_sworn_one_is_declared_for_public_land(mat):
    sworn = {**LYDIA, "property": {**LYDIA["property"], "lot_owner_authorization": "sworn"}}
    case = mat.apply(user="carolina", **sworn)
    case = mat.documents(case, user="carolina", lot_owner_authorization_document="sworn")
    assert case["variables"]["eligibility"]["eligible"] is True


def tomas():
    return {"applicant": {"id": "REC-0622", "name": "Tomás Vélez", "municipality": "Gurabo"},
            "request": {"type": "disability_adaptation", "estimate": "3100.00", "description": "Rampa y baño"}}


def test_mat_s22a_medical_certificate_and_a_valid_dtop_id_are_accepted(mat):
    mat.day("2024-06-03")
    case = mat.documents(mat.apply(**tomas()), medical_certificate=True,
                         disability_id_valid_until="2026-05-31")
    assert case["variables"]["eligibility"]["eligible"] is True
    assert case["variables"]["documents"]["disability_id_valid_until"] == "2026-05-31"


def test_mat_s22b_an_expired_dtop_id_makes_the_applicant_ineligible(mat):
    mat.day("2024-06-03")
    case = mat.documents(mat.apply(**tomas()), medical_certificate=True,
                         disability_id_valid_until="2023-12-31")
    assert case["variables"]["eligibility"] == {"eligible": False, "reasons": ["DISABILITY_ID_EXPIRED"],
                                                "special_paths": []}
    assert case["outcome"] == "NOT_ELIGIBLE" and case["variables"]["notice_reasons"] == ["DISABILITY_ID_EXPIRED"]
    case = mat.notify(case)
    assert case["status"] == "completed" and case["variables"]["notice_sent_on"] == "2024-06-03"


def test_mat_s22_without_the_medical_certificate_the_documents_are_incomplete(mat):
    refused = mat.documents(mat.apply(**tomas()), disability_id_valid_until="2026-05-31", expect=422)
    assert refused["errors"]["rule"] == ["MEDICAL_EVIDENCE_REQUIRED"]
    assert refused["errors"]["medical_certificate"] == ["MISSING_DOCUMENT"]
