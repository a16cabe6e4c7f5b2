"""The status page without a browser: English at /status, the one answer to a wrong pair, CSRF,
and the staff's button that issues the code."""
from __future__ import annotations

import re

import pytest

from tests.api.applicant.conftest import issue
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
    assert 'lang="es"' in english and "Último día para actuar" in english
