"""A materials-aid beneficiary on a phone: the status page after the delivery, an extension request
and the completion notice filed from it, and the page's refusals in words."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.procedures.materials_aid.conftest import mat  # noqa: F401  (the materials scenario fixture)
from tests.web.browser.test_accessibility import violations


@pytest.fixture(autouse=True)
def document_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("TRAMITE_DOCUMENT_DIR", str(tmp_path / "documents"))


def _sign_in(page, case, code):
    page.goto("/estado")
    page.get_by_label("Número de caso").fill(case["case_number"])
    page.get_by_label("Código de acceso").fill(code)
    page.get_by_role("button", name="Ver el estado").click()


def test_a_beneficiary_asks_for_an_extension_and_reports_the_work_done_from_a_phone(ui, mat):
    case = mat.delivered()  # delivered 2024-04-01: use until 2024-07-30
    code = mat.api.post(f"/api/v1/instances/{case['id']}/applicant-access", "caguas", expect=201)["access_code"]
    page = ui.page
    page.set_viewport_size({"width": 390, "height": 844})
    _sign_in(page, case, code)
    expect(page.locator(".stage")).to_contain_text("Los materiales fueron entregados")
    expect(page.locator(".pending")).to_contain_text("2024-07-30")
    expect(page.locator(".pending")).to_contain_text("Se cuentan 120 días naturales")
    assert violations(page) == [], "status"
    assert page.evaluate("document.documentElement.scrollWidth") <= 390  # nothing wider than the phone
    assert "MATERIALS_IN_USE" not in page.content() and "caguas" not in page.content()

    mat.day("2024-07-15")
    page.reload()
    extension = page.locator("form", has=page.get_by_role("button", name="Solicitar una prórroga"))
    expect(extension).to_contain_text("por escrito")
    extension.get_by_label("Causa de la prórroga").fill("Enfermedad, con nota médica")
    extension.get_by_label("Días que solicita").fill("cuarenta")  # not a number: refused in words
    extension.get_by_role("button", name="Solicitar una prórroga").click()
    expect(page.locator('[role="alert"]')).to_contain_text("Días que solicita")
    assert mat.case(case["id"])["stage"] == "MATERIALS_IN_USE"

    extension = page.locator("form", has=page.get_by_role("button", name="Solicitar una prórroga"))
    extension.get_by_label("Causa de la prórroga").fill("Enfermedad, con nota médica")
    extension.get_by_label("Días que solicita").fill("45")
    extension.get_by_role("button", name="Solicitar una prórroga").click()
    expect(page.locator(".success")).to_contain_text("presentada")
    expect(page.locator(".stage")).to_contain_text("prórroga está en evaluación")
    after = mat.case(case["id"])
    assert [t["element_id"] for t in after["open_tasks"]] == ["decide_extension"]
    received = [e for e in mat.history(case["id"]) if e["type"] == "message_received"][-1]
    assert received["actor"] == "applicant" and received["data"]["payload"] == {
        "written": True, "reason": "Enfermedad, con nota médica", "days_requested": 45}
    assert violations(page) == [], "after the request"

    mat.day("2024-07-22")
    mat.decide_extension(after, days=45)
    mat.day("2024-09-10")
    page.reload()
    expect(page.locator(".pending")).to_contain_text("2024-09-13")
    notice = page.locator("form", has=page.get_by_role("button", name="Notificar que terminó la obra"))
    notice.get_by_label("Nota (opcional)").fill("Terminé el techo")
    notice.get_by_role("button", name="Notificar que terminó la obra").click()
    expect(page.locator(".stage")).to_contain_text("Usted avisó que terminó la obra")
    assert mat.case(case["id"])["variables"]["completion_date"] == "2024-09-10"
    expect(page.get_by_role("button", name="Solicitar una prórroga")).to_have_count(0)
    expect(page.locator(".letters")).to_contain_text("Recibo")
