"""API.md "Applicant access": codes, sessions, the public case, filing, and the token's scope."""
from __future__ import annotations

import io

from tests.api.applicant.conftest import PDF, Applicant, issue, session


def test_a_code_is_long_readable_and_its_receipt_is_a_generated_letter(far, denied):
    code = denied["access"]["access_code"]
    assert len(code.replace("-", "")) >= 16 and code.count("-") == 4
    docs = far.api.get(f"/api/v1/instances/{denied['case']['id']}/documents", "far_clerk")
    receipt = [d for d in docs if d["id"] == denied["access"]["receipt_document_id"]][0]
    assert receipt["type"] == "letter.receipt" and receipt["source"] == "generated"
    pdf = far.api.call("GET", f"/api/v1/documents/{receipt['id']}/content", "far_clerk", 200).data
    assert pdf.startswith(b"%PDF")


def test_the_code_is_stored_only_as_a_hash(far, denied):
    from sqlalchemy import text
    with far.engine.db.read_engine.connect() as conn:
        stored = conn.execute(text("SELECT code_hash FROM applicant_access")).scalar()
    code = denied["access"]["access_code"]
    assert code not in stored and code.replace("-", "") not in stored and stored.startswith("scrypt$")


def test_the_code_is_typed_as_a_person_types_it(far, denied):
    code = denied["access"]["access_code"].lower().replace("-", " ")
    session(far, denied["case"]["case_number"].lower(), code)


def test_a_wrong_case_number_and_a_wrong_code_get_the_same_answer(far, denied):
    number, code = denied["case"]["case_number"], denied["access"]["access_code"]
    wrong_code = session(far, number, "AAAA-BBBB-CCCC-DDDD-EEEE", expect=404).get_json()
    wrong_case = session(far, "FAR-2099-999999", code, expect=404).get_json()
    both = session(far, "FAR-2099-999998", "nada", expect=404).get_json()
    assert wrong_code == wrong_case == both


def test_five_failures_for_a_case_number_lock_it(far, denied):
    number, code = denied["case"]["case_number"], denied["access"]["access_code"]
    for _ in range(5):
        session(far, number, "AAAA-BBBB-CCCC-DDDD-EEEE", expect=404)
    locked = session(far, number, code, expect=429)
    assert int(locked.headers["Retry-After"]) > 0


def test_thirty_failures_from_one_address_lock_it(far, denied):
    for n in range(30):
        session(far, f"FAR-2099-{n:06d}", "AAAA-BBBB-CCCC-DDDD-EEEE", expect=404)
    session(far, denied["case"]["case_number"], denied["access"]["access_code"], expect=429)


def test_reissuing_revokes_the_old_code_and_its_sessions(far, denied):
    number, old = denied["case"]["case_number"], denied["access"]["access_code"]
    new = issue(far, denied["case"]["id"])["access_code"]
    assert new != old
    session(far, number, old, expect=404)
    denied["applicant"].call("GET", "/api/v1/public/case", expect=401)
    session(far, number, new)


def test_the_public_case_speaks_plain_spanish_and_english(far, denied):
    case = denied["applicant"].case()
    assert case["case_number"] == denied["case"]["case_number"]
    assert case["status"] == "en trámite" and "denegada" in case["stage_label"]
    assert case["deadlines"] == [{
        "name": "Vence el plazo de revisión", "last_day": "2024-04-22", "explanation_lang": "es",
        "explanation": "Último día para actuar: lunes 22 de abril de 2024. Se cuentan 20 días naturales desde el "
                       "martes 2 de abril de 2024: ese día no cuenta y el último sí (TC-1)."}]
    staff = far.case(denied["case"]["id"])["deadlines"]
    assert [d["explanation"] for d in staff] == [d["explanation"] for d in case["deadlines"]]
    assert case["actions"] == [{"message": "review_requested", "label": "Solicitar la revisión de la denegación"}]
    assert denied["access"]["receipt_document_id"] in [letter["document_id"] for letter in case["letters"]]
    text = str(case)
    for secret in ("DENIED", "far_clerk", "far_evaluator", "income_share_pct", "Elena"):
        assert secret not in text
    english = denied["applicant"].case("en")
    assert "denied" in english["stage_label"] and english["actions"][0]["label"] == "Request a review of the denial"


def test_the_applicant_token_opens_nothing_else(far, denied):
    applicant = denied["applicant"]
    case_id = denied["case"]["id"]
    for path in (f"/api/v1/instances/{case_id}", "/api/v1/tasks", f"/api/v1/instances/{case_id}/documents",
                 "/api/v1/me"):
        applicant.call("GET", path, expect=403)
    applicant.call("POST", f"/api/v1/instances/{case_id}/messages/review_requested", expect=403,
                   json={"payload": {"documents": []}})


def test_a_staff_token_does_not_open_the_applicant_routes(far, denied):
    staff = Applicant(far.api.client, far.api.token("far_clerk"))
    staff.call("GET", "/api/v1/public/case", expect=403)
    assert far.api.client.get("/api/v1/public/case").status_code == 401


def test_documents_only_of_its_own_case(far, denied):
    applicant = denied["applicant"]
    pdf = applicant.call("GET", f"/api/v1/public/documents/{denied['access']['receipt_document_id']}/content").data
    assert pdf.startswith(b"%PDF")
    other = far.evaluate(far.apply(name="Otro"), "deny")
    other_receipt = issue(far, other["id"])["receipt_document_id"]
    applicant.call("GET", f"/api/v1/public/documents/{other_receipt}/content", expect=404)
    staff_doc = far.api.call("POST", f"/api/v1/instances/{denied['case']['id']}/documents", "far_clerk", 201,
                             data={"file": (io.BytesIO(PDF), "interno.pdf"), "type": "payment_receipt"},
                             content_type="multipart/form-data").get_json()
    applicant.call("GET", f"/api/v1/public/documents/{staff_doc['id']}/content", expect=404)


def test_an_upload_is_the_applicants_with_a_receipt_and_the_same_checks(far, denied):
    applicant = denied["applicant"]
    types = far.api.get("/api/v1/processes/farmer_registry_admission/document-types", "far_clerk")
    kind = [t["id"] for t in types if not t["id"].startswith("letter.")][0]
    filed = applicant.call("POST", "/api/v1/public/case/documents", 201,
                           data={"file": (io.BytesIO(PDF), "prueba.pdf"), "type": kind},
                           content_type="multipart/form-data").get_json()
    assert filed["source"] == "applicant" and filed["uploaded_by"] == "applicant" and filed["receipt_document_id"]
    applicant.call("POST", "/api/v1/public/case/documents", 415,
                   data={"file": (io.BytesIO(b"MZ not a document"), "x.pdf"), "type": kind},
                   content_type="multipart/form-data")
    applicant.call("POST", "/api/v1/public/case/documents", 422,
                   data={"file": (io.BytesIO(PDF), "x.pdf"), "type": "nonsense"}, content_type="multipart/form-data")
    history = far.history(denied["case"]["id"])
    added = [e for e in history if e["type"] == "document_added" and e["data"]["source"] == "applicant"]
    assert [e["actor"] for e in added] == ["applicant"]


def test_a_review_request_on_day_20_reaches_the_board(far, denied):
    far.api.move_clock("2024-04-22T23:30:00-04:00")
    filed = denied["applicant"].call("POST", "/api/v1/public/case/messages/review_requested",
                                     json={"payload": {"documents": [{"type": "secretario_agricultura"}]}}).get_json()
    assert filed["receipt_document_id"]
    case = far.case(denied["case"]["id"])
    assert case["stage"] == "UNDER_REVIEW"
    assert [t["element_id"] for t in case["open_tasks"]] == ["review_hearing"]
    received = [e for e in far.history(case["id"]) if e["type"] == "message_received"]
    assert received[-1]["actor"] == "applicant"


def test_a_review_request_on_day_21_is_refused_and_recorded_as_today(far, denied):
    far.day("2024-04-23")
    refused = denied["applicant"].call("POST", "/api/v1/public/case/messages/review_requested", 409,
                                       json={"payload": {"documents": [{"type": "secretario_agricultura"}]}}).get_json()
    assert refused["errors"]["rule"] == ["UNTIMELY_REVIEW_REQUEST"]
    final = far.case(denied["case"]["id"])
    assert final["status"] == "completed" and final["outcome"] == "DENIAL_FINAL"
    refusal = far.history(final["id"])[-1]
    assert refusal["type"] == "message_refused" and refusal["actor"] == "applicant"
    assert refusal["data"]["code"] == "UNTIMELY_REVIEW_REQUEST" and "FAR-13" in refusal["rule_ids"]


def test_only_the_procedures_applicant_messages(far, denied):
    denied["applicant"].call("POST", "/api/v1/public/case/messages/status_lost", 403, json={"payload": {}})
    denied["applicant"].call("POST", "/api/v1/public/case/messages/documents_received", 409,
                             json={"payload": {"documents": [{"type": "secretario_agricultura"}]}})
