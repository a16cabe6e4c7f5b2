"""Farmer registry from the pages: filed without the certification, denied, reviewed within the 20
days with the certification, admitted by the commissioner on review, then renewed."""
from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.web.browser.journeys.pages import Journey

ADMISSION = "Registro de Agricultores Bona Fide: admisión"


def test_farmer_denied_reviewed_within_20_days_admitted_and_renewed(journey: Journey):
    j = journey
    page = j.sign_in("registry_clerk")
    j.inbox()
    clerk_before = j.counts()
    case = j.start_case(ADMISSION, {
        "applicant.name": "Lucía Rosario Vega", "applicant.producer_type": "agricultor",
        "applicant.address": "Carr. 173 km 5, Aguas Buenas", "applicant.municipality": "Aguas Buenas",
        "gross_annual_income": "40,000.00", "activity_income": "30,000.00",
        "documents.0.type": "asociacion_registrada", "documents.0.issuer": "Asociación de Caficultores de Aguas Buenas",
        "documents.0.registered_dept_estado": False, "sworn_declaration": True})

    page = j.sign_in("registry_evaluator")
    j.inbox()
    mine, available = j.counts()
    j.claim_and_open(case, "Evaluar la solicitud")
    expect(page.locator(".case-context")).to_contain_text("Lucía Rosario Vega")
    j.fill({"recommendation": "deny",
            "findings": "No acompañó la certificación del Secretario de Agricultura."})
    j.complete()
    j.inbox()
    assert j.counts() == (mine, available - 1)  # claimed (mine +1, available -1), then done (mine -1)

    page = j.sign_in("registry_clerk")
    j.inbox()
    assert j.counts()[1] == clerk_before[1] + 1  # the denial notice waits for the clerk
    j.do_task(case, "Notificar la denegatoria", {
        "method": "correo_certificado",
        "reasons_text": "Falta una certificación válida."})
    assert j.counts() == clerk_before
    j.find_case(case)
    j.explains("no está registrada en el Departamento de Estado")
    j.history_names("Notificar la denegatoria", "registry_clerk")
    j.history_names("Evaluar la solicitud", "registry_evaluator")
    waiting = page.locator('li[data-message="review_requested"]')
    expect(waiting).to_contain_text("Esperar la solicitud de revisión")

    # Ten days later, within the 20 the law gives, the applicant asks for review with a notarial
    # declaration (which serves for every producer type).
    j.sign_in("admin")
    j.move_clock_to("2024-04-11T10:00")
    j.sign_in("registry_clerk")
    j.find_case(case)
    page.locator('li[data-message="review_requested"]').get_by_role("link", name="Registrar").click()
    j.fill({"documents.0.type": "declaracion_notarial", "documents.0.issuer": "Lcda. Carmen Ortiz, notario"})
    page.get_by_role("button", name="Registrar el mensaje").click()
    expect(page.locator(".flash-success")).to_be_visible()
    j.case_page(case)
    expect(page.locator("li.open-task")).to_contain_text("Evaluar la solicitud de revisión")

    j.sign_in("review_board")
    j.do_task(case, "Evaluar la solicitud de revisión", {
        "recommendation": "admit",
        "findings": "La declaración notarial acompaña la solicitud; el ingreso agrícola es el 75 %."})
    j.sign_in("commissioner")
    j.do_task(case, "Decidir la revisión", {"decision": "admit", "reason": "Acojo la recomendación de la Junta."})

    j.sign_in("registry_clerk")
    j.find_case(case)
    expect(page.locator("h1 .status")).to_have_text("Terminado")
    j.explains("Admitido", "presentó una certificación válida para", "la actividad agrícola aporta 75")
    j.history_names("Evaluar la solicitud de revisión", "review_board")
    j.history_names("Decidir la revisión", "commissioner")
    registry_id = re.search(r"\bF-\d+\b", page.locator("#h-facts").locator("..").inner_text()).group(0)

    # Two years on, a month before the renewal falls due, the producer renews with the signed
    # certification: the membership case the admission opened takes it.
    j.sign_in("admin")
    j.move_clock_to("2026-03-16T09:00")
    j.sign_in("registry_clerk")
    j.find_case(case)
    page.get_by_role("link", name=re.compile("caso que inició")).click()
    j.case_page("FAR-")
    expect(page.locator(".meta")).to_contain_text("membresía")
    page.locator('li[data-message="renewal_filed"]').get_by_role("link", name="Registrar").click()
    j.fill({"signed_certification": True, "gross_annual_income": "42,000.00", "activity_income": "33,600.00"})
    page.get_by_role("button", name="Registrar el mensaje").click()
    expect(page.locator(".flash-success")).to_be_visible()
    expect(page.locator('li[data-message="renewal_filed"]')).to_have_count(1)  # waits for the next cycle
    expect(page.locator("#h-facts").locator("..")).to_contain_text("2028-04-11")
    j.history_names("Esperar la renovación", "registry_clerk")
    j.finish()
