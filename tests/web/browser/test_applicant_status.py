"""A farmer opens the status page with the code of the filing receipt, sees the denial and the last
day to ask for review, files the review request with a document, and the review board gets the task."""
from __future__ import annotations

import io

import pytest
from playwright.sync_api import expect
from pypdf import PdfReader

from tests.api.applicant.conftest import PDF, issue
from tests.procedures.farmer_registry import conftest as farmers
from tests.procedures.farmer_registry.test_farmer_registry_review import elena

far = farmers.far  # the farmer-registry scenario fixture
from tests.web.browser.test_accessibility import violations


@pytest.fixture(autouse=True)
def document_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("TRAMITE_DOCUMENT_DIR", str(tmp_path / "documents"))


def test_a_farmer_files_a_review_request_from_the_status_page(ui, far, tmp_path):
    case = far.evaluate(elena(far), "deny")
    far.day("2024-04-02")
    case = far.notify(case)
    access = issue(far, case["id"])
    receipt = far.api.call("GET", f"/api/v1/documents/{access['receipt_document_id']}/content", "far_clerk", 200).data
    text = "".join(p.extract_text() for p in PdfReader(io.BytesIO(receipt)).pages)
    assert case["case_number"] in text and access["access_code"] in text and "/estado" in text

    page = ui.page
    page.set_viewport_size({"width": 390, "height": 844})  # a phone
    page.goto("/estado")
    assert violations(page) == [], "login"
    page.get_by_label("Número de caso").fill(case["case_number"])
    page.get_by_label("Código de acceso").fill(access["access_code"])
    page.get_by_role("button", name="Ver el estado").click()
    expect(page.locator(".stage")).to_contain_text("denegada")
    expect(page.locator(".deadlines")).to_contain_text("2024-04-22")
    assert violations(page) == [], "status"
    ui.shot("applicant-status")  # the README's picture of the status page (docs/screenshots/estado.png)
    assert "DENIED" not in page.content() and "far_clerk" not in page.content()

    # The denial letter itself, downloaded from the status page, names the case and the last day.
    denial = page.locator(".letters a", has_text="denegación")
    expect(denial).to_have_count(1)
    with page.expect_download() as download:
        denial.click()
    letter = "".join(p.extract_text() for p in PdfReader(download.value.path()).pages)
    assert case["case_number"] in letter and "22 de abril de 2024" in letter

    far.day("2024-04-15")
    page.reload()
    (tmp_path / "prueba.pdf").write_bytes(PDF)
    form = page.locator("form", has=page.get_by_role("button", name="Solicitar la revisión de la denegación"))
    form.locator('input[type="file"]').set_input_files(str(tmp_path / "prueba.pdf"))
    form.get_by_role("button", name="Solicitar la revisión de la denegación").click()
    expect(page.locator(".success")).to_contain_text("presentada")
    expect(page.locator(".stage")).to_contain_text("Junta de Revisión")

    board = far.api.get("/api/v1/tasks?scope=available", "far_board")
    assert [t["element_id"] for t in board if t["instance_id"] == case["id"]] == ["review_hearing"]
    docs = far.api.get(f"/api/v1/instances/{case['id']}/documents", "far_clerk")
    assert [d["filename"] for d in docs if d["source"] == "applicant"] == ["prueba.pdf"]
    # The access receipt, and one for each filing: the document and the request.
    assert len([d for d in docs if d["type"] == "letter.receipt"]) == 3
