"""A case waiting in a receive task offers its message on the case page, and the message form
carries it on (issue 16: receive tasks' messages were invisible, so the case stalled unless someone
typed the message URL)."""
from __future__ import annotations

from playwright.sync_api import expect

from tests.web.browser.farmer import deploy_farmer_registry, file_application


def test_a_farmer_case_waiting_for_documents_offers_the_message_and_goes_back_to_evaluation(ui, engine):
    deploy_farmer_registry(engine)
    page = ui.login("far_clerk")
    case_page = file_application(page)

    page = ui.login("far_evaluator")
    page.locator("tr[data-task-id] td:nth-child(2) a").first.click()
    page.locator('[name="recommendation"][value="require_documents"]').check()
    page.locator('[name="required_documents"][value="fomento_economico"]').check()
    page.locator('[name="findings"]').fill("Falta la certificación de Fomento Económico.")
    page.get_by_role("button", name="Completar tarea").click()
    expect(page.locator(".flash-success")).to_contain_text("FAR-2024-000001")

    page = ui.login("far_clerk")
    # The clerk comes back to the case page filing led to (a clerk has no case list yet: issue 16 #6).
    page.goto(case_page)
    waiting = page.locator('#h-messages + ul li[data-message="documents_received"]')
    expect(waiting).to_contain_text("Documentos adicionales recibidos")
    expect(waiting).to_contain_text("Esperar los documentos requeridos")
    waiting.get_by_role("link", name="Registrar").click()
    expect(page.locator(".notice")).to_have_count(0)  # "El caso no espera este mensaje ahora"
    page.locator('[name="documents.0.type"]').select_option("fomento_economico")
    page.locator('[name="documents.0.issuer"]').fill("Departamento de Desarrollo Económico")
    page.get_by_role("button", name="Registrar el mensaje").click()
    expect(page.locator(".flash-success")).to_contain_text("Mensaje «documents_received» registrado")
    # Back on the case page: the message was taken, and the evaluation is open again.
    expect(page.locator('li[data-message="documents_received"]')).to_have_count(0)
    expect(page.get_by_text("Evaluar la solicitud").first).to_be_visible()
