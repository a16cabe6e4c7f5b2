"""The materials-aid beneficiary on the applicant's side (API.md "Applicant access"): the status of a
delivery in plain words, the use period with its explanation, an extension request and the
completion notice filed by the applicant through the staff route's rules, and its refusals."""
from __future__ import annotations

import pytest

from tests.api.applicant.conftest import Applicant
from tests.procedures.materials_aid.conftest import mat  # noqa: F401  (the materials scenario fixture)


def _applicant(mat, case) -> Applicant:
    access = mat.api.post(f"/api/v1/instances/{case['id']}/applicant-access", "caguas", expect=201)
    response = mat.api.client.post("/api/v1/public/session",
                                   json={"case_number": case["case_number"], "access_code": access["access_code"]})
    assert response.status_code == 200, response.get_json()
    return Applicant(mat.api.client, response.get_json()["token"])


@pytest.fixture
def beneficiary(mat):
    case = mat.delivered()  # delivered 2024-04-01: materials to use until 2024-07-30
    return case, _applicant(mat, case)


def test_the_delivered_aid_reads_in_plain_words_with_the_use_period(mat, beneficiary):
    case, applicant = beneficiary
    public = applicant.case()
    assert public["process_name"] == "Ayuda de materiales para vivienda"
    assert public["stage_label"] == "Los materiales fueron entregados; la obra está en curso."
    staff = [d for d in mat.case(case["id"])["deadlines"] if d["element_id"] == "use_deadline_passed"][0]
    assert public["pending"] == [{
        "what": "Usar los materiales y avisar que terminó la obra (o pedir una prórroga por escrito antes)",
        "due": "2024-07-30", "explanation": staff["explanation"], "explanation_lang": "es"}]
    assert [(a["message"], a["label"]) for a in public["actions"]] == [
        ("extension_requested", "Solicitar una prórroga"), ("completion_notified", "Notificar que terminó la obra")]
    text = str(public)
    for secret in ("MATERIALS_IN_USE", "caguas", "María", "REC-0001", "use_deadline"):
        assert secret not in text
    assert applicant.case("en")["stage_label"] == "The materials were delivered; the work is under way."


def test_an_extension_filed_by_the_applicant_reaches_the_regional_director(mat, beneficiary):
    case, applicant = beneficiary
    mat.day("2024-07-15")
    filed = applicant.call("POST", "/api/v1/public/case/messages/extension_requested", json={"payload": {
        "written": True, "reason": "Enfermedad, con nota médica", "days_requested": 45}}).get_json()
    assert filed["received"] == "extension_requested" and filed["receipt_document_id"]
    after = mat.case(case["id"])
    assert after["stage"] == "EXTENSION_REQUESTED"
    assert [(t["element_id"], t["lane"]) for t in after["open_tasks"]] == [("decide_extension", "regional_director")]
    assert applicant.case()["stage_label"] == "Su solicitud de prórroga está en evaluación."
    assert [a["message"] for a in applicant.case()["actions"]] == ["completion_notified"]
    received = [e for e in mat.history(case["id"]) if e["type"] == "message_received"]
    assert received[-1]["actor"] == "applicant" and received[-1]["data"]["payload"]["days_requested"] == 45

    mat.day("2024-07-22")
    mat.decide_extension(after, days=45)
    public = applicant.case()
    assert public["pending"][0]["due"] == "2024-09-13"  # the use period moved by the Director's 45 days
    mat.day("2024-09-10")
    applicant.call("POST", "/api/v1/public/case/messages/completion_notified", json={"payload": {"note": "Terminé"}})
    assert mat.case(case["id"])["variables"]["completion_date"] == "2024-09-10"
    public = applicant.case()
    assert public["actions"] == [] and public["pending"] == []
    assert public["stage_label"] == "Usted avisó que terminó la obra; la oficina visitará la obra."


def test_an_extension_not_in_writing_is_refused_with_its_reason_on_record(mat, beneficiary):
    case, applicant = beneficiary
    refused = applicant.call("POST", "/api/v1/public/case/messages/extension_requested", 422,
                             json={"payload": {"reason": "Por teléfono"}}).get_json()
    assert refused["errors"]["rule"] == ["EXTENSION_NOT_WRITTEN"]
    refusal = mat.history(case["id"])[-1]
    assert refusal["type"] == "message_refused" and refusal["actor"] == "applicant" and "MAT-36" in refusal["rule_ids"]
    assert mat.case(case["id"])["stage"] == "MATERIALS_IN_USE"


def test_a_late_extension_is_refused_as_late_not_merely_unexpected(mat, beneficiary):
    case, applicant = beneficiary
    mat.day("2024-08-02")
    refused = applicant.call("POST", "/api/v1/public/case/messages/extension_requested", 409, json={"payload": {
        "written": True, "reason": "Lluvias", "days_requested": 30}}).get_json()
    assert refused["errors"]["rule"] == ["EXTENSION_REQUEST_LATE"]
    refusal = mat.history(case["id"])[-1]
    assert refusal["actor"] == "applicant" and refusal["data"]["code"] == "EXTENSION_REQUEST_LATE"
    assert applicant.case()["actions"] == []  # the period is over: nothing left to file


def test_the_materials_applicant_sends_only_its_own_messages(mat, beneficiary):
    case, applicant = beneficiary
    for name in ("querella_filed", "case_closed"):
        applicant.call("POST", f"/api/v1/public/case/messages/{name}", 403, json={"payload": {}})
    applicant.call("GET", f"/api/v1/instances/{case['id']}", expect=403)
