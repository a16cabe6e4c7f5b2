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
    expect(page.locator(".flash-success")).to_contain_text("Mensaje «Documentos adicionales recibidos» registrado")
    # Back on the case page: the message was taken, and the evaluation is open again.
    expect(page.locator('li[data-message="documents_received"]')).to_have_count(0)
    expect(page.locator("li.open-task")).to_have_count(1)
    expect(page.locator("li.open-task")).to_contain_text("Evaluar la solicitud")


def test_a_denied_farmer_case_waits_for_the_review_request_and_the_clerk_records_it_from_the_case_page(ui, engine):
    deploy_farmer_registry(engine)
    case_page = file_application(ui.login("far_clerk"))

    page = ui.login("far_evaluator")
    page.locator("tr[data-task-id] td:nth-child(2) a").first.click()
    page.locator('[name="recommendation"][value="deny"]').check()
    page.locator('[name="findings"]').fill("La actividad agrícola no llega al mínimo del ingreso.")
    page.get_by_role("button", name="Completar tarea").click()

    page = ui.login("far_clerk")
    page.locator("tr[data-task-id] td:nth-child(2) a").first.click()
    page.get_by_role("radio", name="Entrega personal").check()
    page.get_by_role("button", name="Completar tarea").click()
    expect(page.locator(".flash-success")).to_contain_text("FAR-2024-000001")

    page.goto(case_page)
    waiting = page.locator('li[data-message="review_requested"]')
    expect(waiting).to_contain_text("Esperar la solicitud de revisión")
    waiting.get_by_role("link", name="Registrar").click()
    page.get_by_role("button", name="Registrar el mensaje").click()
    expect(page.locator(".flash-success")).to_contain_text("Mensaje «Solicitud de revisión» registrado")
    expect(page.locator('li[data-message="review_requested"]')).to_have_count(0)
    expect(page.locator("li.open-task")).to_have_count(1)
    expect(page.locator("li.open-task")).to_contain_text("Evaluar la solicitud de revisión")
