"""The web application in a real browser (chromium), one scenario per kind of user.

Screenshots of each main page go to artifacts/screenshots/ (not committed).
"""
from __future__ import annotations

import re

from playwright.sync_api import expect

from engine.commands.cases import start_case
from engine.commands.deploy import deploy
from tests.web.conftest import actor
from tests.web.diagrams import start_variables, web_flow


def test_each_kind_of_user_logs_in_to_their_own_page(ui):
    page = ui.page
    page.goto("/web/tasks")
    expect(page).to_have_url(re.compile(r"/web/login\?next="))
    ui.shot("login")
    page.get_by_label("Usuario").fill("clerk")
    page.get_by_label("Contraseña").fill("equivocada")
    page.get_by_role("button", name="Entrar").click()
    expect(page.get_by_role("alert")).to_contain_text("Usuario o contraseña incorrectos.")
    for username, heading, url in (("clerk", "Bandeja de trabajo", "/web/tasks"),
                                   ("boss", "Tablero de supervisión", "/web/dashboard"),
                                   ("owner", "Procedimientos y versiones", "/web/processes"),
                                   ("admin", "Tablero de supervisión", "/web/dashboard")):
        page = ui.login(username)
        expect(page).to_have_url(re.compile(url + "$"))
        expect(page.get_by_role("heading", level=1)).to_have_text(heading)
    page.get_by_role("link", name="Administración").click()
    expect(page.get_by_role("heading", name="Usuarios", exact=False).first).to_be_visible()
    ui.shot("admin-users")
    ui.logout()
    expect(page).to_have_url(re.compile(r"/web/login$"))


def test_a_clerk_starts_a_case_and_an_evaluator_completes_it_after_fixing_the_form(ui, engine):
    engine.execute(deploy, actor("owner"), "test_web", web_flow())
    page = ui.login("clerk")
    page.get_by_role("link", name="Iniciar caso").click()
    page.get_by_role("link", name="Iniciar Solicitud de prueba").click()
    page.get_by_label("Nombre completo").fill("Ana Torres")
    page.get_by_label("Tipo de solicitud").select_option(label="Renovación")
    page.get_by_label("Cantidad solicitada").fill("1,200.50")
    page.get_by_label("Fecha de presentación").fill("2024-03-28")
    page.get_by_label("Es urgente").check()
    first = page.locator("[data-row]").first  # minItems: 1 puts one row there already
    first.get_by_label("Descripción").fill("Planchas de zinc")
    first.get_by_label("Cantidad", exact=True).fill("12")
    first.get_by_label("Precio").fill("45.00")
    add = page.get_by_role("button", name="Añadir fila: Renglones")
    add.click()
    add.click()
    expect(page.locator("#f-lines [data-row]")).to_have_count(3)
    page.get_by_role("button", name="Quitar Renglones 3").click()
    second = page.locator("#f-lines [data-row]").nth(1)
    second.get_by_label("Descripción").fill("Clavos")
    second.get_by_label("Precio").fill("3")
    ui.shot("start-form")
    page.get_by_role("button", name="Iniciar caso").click()
    expect(page.locator(".flash-success")).to_contain_text("Inició el caso TES-2024-000001")
    expect(page.locator("section:has(#h-facts)")).to_contain_text("Planchas de zinc")

    page = ui.login("reviewer")
    expect(page.locator("[data-count=available]")).to_have_text("1")
    page.get_by_role("button", name="Reclamar Evaluar solicitud TES-2024-000001").click()
    expect(page.locator("[data-count=mine]")).to_have_text("1")
    page.get_by_role("link", name="Abrir Evaluar solicitud TES-2024-000001").click()
    expect(page.locator(".case-context")).to_contain_text("Ana Torres")
    page.get_by_label("Aprobar").check()
    page.get_by_label("Ingresos").check()
    page.get_by_role("button", name="Completar tarea").click()
    findings = page.get_by_label("Hallazgos")
    expect(findings).to_have_attribute("aria-invalid", "true")
    expect(page.locator("#f-findings-errors")).to_have_text("Este campo es obligatorio.")
    expect(page.get_by_label("Aprobar")).to_be_checked()  # nothing typed is lost
    expect(page.get_by_label("Ingresos")).to_be_checked()
    ui.shot("task-form-errors")
    findings.fill("Documentos completos; visita hecha.")
    page.get_by_role("button", name="Completar tarea").click()
    refusal = page.locator("#form-refusal")
    expect(refusal).to_contain_text("QUOTE_REQUIRED")
    expect(refusal).to_contain_text("TEST-07")
    expect(refusal).to_be_focused()
    page.get_by_role("button", name="Añadir fila: Cotizaciones").click()
    page.get_by_label("Ferretería").fill("Ferretería Cidra")
    page.get_by_label("Importe").fill("1,150.00")
    ui.shot("task")
    page.get_by_role("button", name="Completar tarea").click()
    expect(page.locator(".flash-success")).to_contain_text("Completó «Evaluar solicitud» del caso TES-2024-000001")
    expect(page.locator("[data-count=mine]")).to_have_text("0")
    ui.shot("inbox")

    case = ui.login("boss")
    case.goto("/web/cases?q=TES-2024-000001")
    case.get_by_role("link", name="TES-2024-000001").click()
    expect(case.locator("h1 .status")).to_have_text("Terminado")
    expect(case.locator("section:has(#h-history) .timeline")).to_contain_text("Tarea rechazada por una regla")
    expect(case.locator("section:has(#h-history) .timeline")).to_contain_text("TEST-07")


def test_a_supervisor_sees_the_case_on_the_dashboard_and_its_active_task_on_the_diagram(ui, web_case, engine):
    engine.execute(start_case, actor("clerk"), "test_web", start_variables())
    page = ui.login("boss")
    expect(page.locator("#h-stages + h3")).to_have_text("Solicitud de prueba")
    expect(page.get_by_role("link", name="EVALUATION")).to_be_visible()
    expect(page.get_by_role("row", name=re.compile("Revisor de prueba 2 0 0"))).to_be_visible()
    ui.shot("dashboard")
    page.get_by_role("link", name="EVALUATION").click()
    expect(page.locator("h1 .count")).to_have_text("2")
    page.get_by_role("link", name=web_case["case_number"]).click()
    diagram = page.locator("#diagram")
    expect(diagram).to_have_attribute("data-ready", "true")
    expect(diagram.locator('[data-element-id="evaluate"].tr-active')).to_have_count(1)
    expect(diagram.locator('[data-element-id="timeout"].tr-waiting')).to_have_count(1)
    expect(diagram.locator('[data-element-id="compute"].tr-completed')).to_have_count(1)
    page.get_by_label("Reasignar a").select_option("both")
    page.get_by_role("button", name="Reasignar").click()
    expect(page.locator(".flash-success")).to_contain_text("asignada a both")
    ui.shot("case")


def test_a_process_owner_renames_a_task_in_the_modeler_and_deploys_version_two(ui, web_case):
    page = ui.login("owner")
    row = page.locator("[data-process=test_web] tr[data-version='1']")
    expect(row.locator("[data-running]")).to_have_text("1")
    row.get_by_role("link", name="Abrir en el modelador").click()
    expect(page.locator("#modeler")).to_have_attribute("data-ready", "true")
    page.locator('.djs-element[data-element-id="evaluate"]').click()
    page.locator("#properties").get_by_text("General", exact=True).click()
    name = page.locator("#properties").get_by_label("Nombre", exact=True)
    name.fill("Evaluar con cuidado")
    name.press("Tab")
    expect(page.locator('.djs-element[data-element-id="evaluate"]')).to_contain_text("Evaluar con cuidado")
    ui.shot("modeler", full_page=False)
    page.get_by_role("button", name="Desplegar como versión nueva").click()
    expect(page.locator("#deploy-status")).to_contain_text("Desplegada la versión 2.")
    page.get_by_role("link", name="Ver procesos").click()
    expect(page.locator("[data-process=test_web] tr[data-version='2']")).to_contain_text("vigente")
    expect(page.locator("[data-process=test_web] tr[data-version='1'] [data-running]")).to_have_text("1")
    page.get_by_role("link", name="Comparar con v1").click()
    expect(page.locator("tr[data-element=evaluate]")).to_contain_text("cambiado: nombre")
    expect(page.locator('#diagram-new [data-element-id="evaluate"].diff-changed')).to_have_count(1)


def test_a_refused_deployment_marks_the_element_and_the_form_editor_fixes_it(ui, web_case):
    page = ui.login("owner")
    page.goto("/web/processes/test_web/versions/1/edit")
    expect(page.locator("#modeler")).to_have_attribute("data-ready", "true")
    page.locator('.djs-element[data-element-id="evaluate"]').click()
    panel = page.locator("#properties")
    panel.get_by_text("General", exact=True).click()
    element_id = panel.get_by_label("ID")
    element_id.fill("evaluate_again")
    element_id.press("Tab")
    # The panel commits the new id to the diagram after the key: a person sees it on the canvas
    # before clicking deploy (on a loaded machine the click could otherwise send the old diagram).
    expect(page.locator('.djs-element[data-element-id="evaluate_again"]')).to_have_count(1)
    page.get_by_role("button", name="Desplegar como versión nueva").click()
    expect(page.locator("#deploy-status")).to_contain_text("La tarea de usuario no tiene formulario.")
    expect(page.locator('.djs-element[data-element-id="evaluate_again"].tr-invalid')).to_have_count(1)
    panel.get_by_text("Trámite", exact=True).click()  # the task is still selected
    panel.get_by_role("button", name="Editar formulario").click()
    schema = page.get_by_label("Esquema")
    expect(schema).to_be_focused()
    schema.fill('{"type": "object", "properties": {"nota": {"type": "string", "title": "Nota del evaluador"}}}')
    expect(page.locator("#form-preview")).to_contain_text("Nota del evaluador")
    page.get_by_role("button", name="Desplegar como versión nueva").click()
    expect(page.locator("#deploy-status")).to_contain_text("Desplegada la versión 2.")
    expect(page.locator(".tr-invalid")).to_have_count(0)


def test_the_language_switch_turns_the_application_to_english_and_back(ui, web_case):
    page = ui.login("reviewer")
    page.get_by_role("link", name="English").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Work inbox")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    page.get_by_role("link", name="Open Evaluar solicitud TES-2024-000001").click()
    expect(page.get_by_role("button", name="Complete task")).to_be_visible()
    expect(page.locator(".case-context")).to_contain_text("Key facts")
    ui.shot("task-english")
    page.get_by_role("link", name="Español").click()
    expect(page.get_by_role("button", name="Completar tarea")).to_be_visible()


def test_an_admin_moves_the_manual_clock_and_the_deadline_fires(ui, web_case):
    page = ui.login("admin")
    page.goto("/web/admin/clock")
    page.get_by_role("button", name="+30 días").click()
    expect(page.locator(".flash-success")).to_contain_text("se dispararon 1 plazos")
    page.get_by_role("link", name="Parámetros").click()
    expect(page.locator("#p-farmer\\.minIncomeSharePct")).to_contain_text("AMB-01")
    ui.shot("admin-parameters", full_page=False)
    page.goto(f"/web/cases/{web_case['id']}")
    expect(page.locator(".meta")).to_contain_text("TIMED_OUT")


def test_a_registry_clerk_files_a_farmer_application_and_the_evaluator_decides_it(ui, engine):
    """The issue's scenario on the real farmer-registry diagrams and forms (fields found by name)."""
    from tests.web.browser.farmer import deploy_farmer_registry, fill_application

    deploy_farmer_registry(engine)
    page = ui.login("far_clerk")
    fill_application(page)
    page.get_by_role("button", name="Iniciar caso").click()
    expect(page.locator("#form-refusal")).to_contain_text("SWORN_DECLARATION_REQUIRED")
    expect(page.locator("#form-refusal")).to_contain_text("FAR-03")
    expect(page.locator('[name="documents.0.issuer"]')).to_have_value("Departamento de Agricultura")
    page.locator('[name="sworn_declaration"]').check()
    page.get_by_role("button", name="Iniciar caso").click()
    expect(page.locator(".flash-success")).to_contain_text("Inició el caso FAR-2024-000001")

    page = ui.login("far_evaluator")
    page.locator("tr[data-task-id] td:nth-child(2) a").first.click()
    expect(page.locator(".case-context")).to_contain_text("Ana Torres")
    page.locator('[name="recommendation"][value="admit"]').check()
    page.locator('[name="findings"]').fill("Cumple el 80 % de ingreso agrícola; certificación del Secretario.")
    page.get_by_role("button", name="Completar tarea").click()
    expect(page.locator(".flash-success")).to_contain_text("FAR-2024-000001")
