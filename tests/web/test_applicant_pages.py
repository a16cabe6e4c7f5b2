"""The status page without a browser: English at /status, the one answer to a wrong pair, CSRF,
and the staff's button that issues the code."""
from __future__ import annotations

import io
import re

import pytest
from pypdf import PdfReader

from tests.api.applicant.conftest import PDF, issue
from tests.procedures.farmer_registry import conftest as farmers
from tests.procedures.farmer_registry.test_farmer_registry_review import elena

far = farmers.far  # the farmer-registry scenario fixture
from tests.web.conftest import text_of


@pytest.fixture(autouse=True)
def document_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("TRAMITE_DOCUMENT_DIR", str(tmp_path / "documents"))


@pytest.fixture
def denied(far):
    case = far.evaluate(elena(far), "deny")
    far.day("2024-04-02")
    return far.notify(case)


def test_the_english_page_says_the_same_in_english(web, far, denied):
    code = issue(far, denied["id"])["access_code"]
    browser = web()
    browser.get("/status")
    browser.post("/status", {"case_number": denied["case_number"], "access_code": code})
    page = text_of(browser.get("/status"))
    assert "Your application was denied" in page and "Request a review of the denial" in page
    assert "2024-04-22" in page and "DENIED" not in page


def test_a_wrong_pair_gets_one_answer_and_no_session(web, far, denied):
    issue(far, denied["id"])
    browser = web()
    browser.get("/estado")
    wrong_code = browser.post("/estado", {"case_number": denied["case_number"], "access_code": "X"}, expect=404)
    wrong_case = browser.post("/estado", {"case_number": "FAR-2099-000001", "access_code": "X"}, expect=404)
    assert "no es válido" in text_of(wrong_code.get_data(as_text=True))
    assert text_of(wrong_code.get_data(as_text=True)) == text_of(wrong_case.get_data(as_text=True)).replace(
        "FAR-2099-000001", denied["case_number"])
    assert "Número de caso" in text_of(browser.get("/estado"))


def test_a_form_without_the_csrf_token_is_refused(web, far, denied):
    code = issue(far, denied["id"])["access_code"]
    response = web().client.post("/estado", data={"case_number": denied["case_number"], "access_code": code})
    assert response.status_code == 400


def test_staff_issue_the_code_from_the_case_page_and_the_old_one_stops(web, far, denied):
    clerk = web("far_clerk")
    assert "Emitir código de acceso y recibo" in clerk.get(f"/web/cases/{denied['id']}")
    clerk.post(f"/web/cases/{denied['id']}/applicant-access")
    page = text_of(clerk.get(f"/web/cases/{denied['id']}"))
    code = re.search(r"solicitante: ([A-Z0-9-]{24})", page).group(1)
    applicant = web()
    applicant.get("/estado")
    applicant.post("/estado", {"case_number": denied["case_number"], "access_code": code})
    assert "Solicitar la revisión de la denegación" in text_of(applicant.get("/estado"))
    clerk.post(f"/web/cases/{denied['id']}/applicant-access")
    assert "Número de caso" in text_of(applicant.get("/estado"))  # the old code's session ended


def test_a_filing_without_a_session_goes_back_to_the_sign_in_form(web, far, denied):
    browser = web()
    browser.get("/estado")
    response = browser.post("/estado/mensajes/review_requested", {})
    assert response.headers["Location"].endswith("/estado")
    assert far.history(denied["id"])[-1]["type"] != "message_received"


def test_the_status_page_shows_each_deadline_in_words(web, far):
    case = far.evaluate(elena(far), "require_documents", required_documents=["secretario_agricultura"])
    code = issue(far, case["id"])["access_code"]
    browser = web()
    browser.get("/estado")
    browser.post("/estado", {"case_number": case["case_number"], "access_code": code})
    page = browser.get("/estado")
    assert "Se cuentan 30 días naturales desde el" in page
    english = browser.get("/status")
    assert "30 calendar days are counted from" in english and "Último día para actuar" not in english


@pytest.fixture
def asked_for_documents(web, far):
    """Elena's case waiting for the documents the evaluator asked for, her page open in `page`."""
    case = far.evaluate(elena(far), "require_documents", required_documents=["secretario_agricultura"])
    code = issue(far, case["id"])["access_code"]
    page = web()
    page.get("/estado")
    page.post("/estado", {"case_number": case["case_number"], "access_code": code})
    return case, page


def test_the_documents_form_offers_the_documents_in_spanish_and_files_them(far, asked_for_documents):
    case, page = asked_for_documents
    html = page.get("/estado")
    assert "Documentos que entrega" in html and "Certificación del Secretario de Agricultura" in html
    assert 'name="documents" value="secretario_agricultura"' in html
    far.day("2024-04-20")
    page.post("/estado/mensajes/documents_received", {"documents": ["secretario_agricultura"]})
    assert "Su solicitud fue presentada" in text_of(page.get("/estado"))
    after = far.case(case["id"])
    assert after["stage"] == "EVALUATION" and [t["element_id"] for t in after["open_tasks"]] == ["evaluate_application"]
    received = [e for e in far.history(case["id"]) if e["type"] == "message_received"]
    assert [(e["actor"], e["data"]["payload"]) for e in received] == [
        ("applicant", {"documents": [{"type": "secretario_agricultura"}]})]


def test_the_document_attached_counts_as_handed_in(far, asked_for_documents):
    case, page = asked_for_documents
    page.post("/estado/mensajes/documents_received",
              {"type": "cert.secretario_agricultura", "file": (io.BytesIO(PDF), "certificacion.pdf")},
              content_type="multipart/form-data")
    assert far.case(case["id"])["stage"] == "EVALUATION"
    docs = far.api.get(f"/api/v1/instances/{case['id']}/documents", "far_clerk")
    assert [(d["type"], d["source"]) for d in docs if d["filename"] == "certificacion.pdf"] == [
        ("cert.secretario_agricultura", "applicant")]


def test_nothing_handed_in_is_refused_in_words_and_files_nothing(far, asked_for_documents):
    case, page = asked_for_documents
    refused = page.post("/estado/mensajes/documents_received",
                        {"type": "additional_document", "file": (io.BytesIO(PDF), "otro.pdf")},
                        content_type="multipart/form-data", expect=422)
    assert 'role="alert"' in refused.get_data(as_text=True)
    assert "Revise estos datos: Documentos que entrega." in text_of(refused.get_data(as_text=True))
    assert far.case(case["id"])["stage"] == "PENDING_ADDITIONAL_DOCUMENTS"
    docs = far.api.get(f"/api/v1/instances/{case['id']}/documents", "far_clerk")
    assert [d for d in docs if d["source"] == "applicant"] == []  # the refused filing kept no document


def test_the_staff_case_page_shows_what_came_from_the_applicant_when_and_its_receipt(web, far, asked_for_documents):
    case, page = asked_for_documents
    far.day("2024-04-20")
    page.post("/estado/mensajes/documents_received",
              {"type": "cert.secretario_agricultura", "file": (io.BytesIO(PDF), "certificacion.pdf")},
              content_type="multipart/form-data")
    filed = [e for e in far.history(case["id"]) if e["type"] == "applicant_filed"]
    assert [(e["actor"], e["data"].get("message")) for e in filed] == [("applicant", None),
                                                                      ("applicant", "documents_received")]
    clerk = web("far_clerk")
    html = clerk.get(f"/web/cases/{case['id']}")
    section = html[html.index('id="acceso-solicitante"'):]
    section = section[:section.index("</section>")]
    text = text_of(section)
    assert "Documento: Certificación del Secretario de Agricultura (certificacion.pdf)" in text
    assert "Entregar los documentos solicitados" in text and "20 abr 2024" in text
    receipts = re.findall(r'href="/web/documents/(\d+)/content"[^>]*>Recibo de presentación', section)
    assert sorted(int(r) for r in receipts) == sorted(e["data"]["receipt_document_id"] for e in filed)
    pdf = far.api.call("GET", f"/api/v1/documents/{receipts[-1]}/content", "far_clerk", 200).data
    text = "".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf)).pages)
    assert case["case_number"] in text and "Entregar los documentos solicitados" in text and "2024-04-20" in text


def test_the_staff_case_page_shows_a_refused_request_with_its_reason(web, far):
    case = far.evaluate(elena(far), "deny")
    far.day("2024-04-02")
    case = far.notify(case)
    code = issue(far, case["id"])["access_code"]
    page = web()
    page.get("/estado")
    page.post("/estado", {"case_number": case["case_number"], "access_code": code})
    far.day("2024-04-23")
    page.post("/estado/mensajes/review_requested", {"documents": ["secretario_agricultura"]}, expect=409)
    html = web("far_clerk").get(f"/web/cases/{case['id']}")
    section = text_of(html[html.index('id="acceso-solicitante"'):])
    assert "Solicitar la revisión de la denegación" in section and "Rechazado" in section
