"""Housing materials aid from the pages: intake with its documents, the field visit, three quotes,
the central office's approval, the purchase order, delivery, an extension of the time to use the
materials and the follow-up visit once that time has passed."""
from __future__ import annotations

from playwright.sync_api import expect

from tests.web.browser.journeys.pages import Journey

MATERIALS = "Ayuda de materiales para vivienda"
OFFICE, DIRECTOR = "caguas_oficina", "caguas_director"  # the demo's Oficina Regional de Caguas (serves Cidra)
DOCUMENTS = {name: True for name in ("photos", "ownership_evidence", "income_evidence", "photo_id",
                                     "social_security_card", "utility_bill", "materials_estimate")}


def test_materials_aid_from_intake_to_delivery_extension_and_follow_up(journey: Journey):
    j = journey
    page = j.sign_in(OFFICE)
    j.inbox()
    before = j.counts()
    case = j.start_case(MATERIALS, {
        "applicant.id": "REC-0107", "applicant.name": "María Rivera Santos", "applicant.municipality": "Cidra",
        "household.size": "4", "household.annual_income": "18,000.00",
        "property.owns_lot": True, "property.owns_house": True, "property.resides": True,
        "property.other_properties": False,
        "request.type": "rehabilitation", "request.estimate": "4,800.00", "request.description": "Techo y baño",
        "priority.kind": "none", "labor_certified": True})
    j.inbox()
    assert j.counts()[1] == before[1] + 1  # the documents wait for the office
    j.do_task(case, "Recibir los documentos", DOCUMENTS)
    j.do_task(case, "Investigación de campo", {
        "findings": "Techo de zinc con filtraciones y baño sin terminar; reside en la propiedad.",
        "photo_count": "6", "irregularities": False})
    j.do_task(case, "Preparar 3 cotizaciones", {
        "adjusted_estimate": "4,200.00",
        "items.0.description": "Zinc y madera para el techo", "items.0.amount": "4,200.00", "items.0.indispensable": True,
        "quotes.0.store_id": "RL-1001", "quotes.0.store_name": "Ferretería Borinquen", "quotes.0.total": "4,150.00",
        "quotes.1.store_id": "RL-1002", "quotes.1.store_name": "Ferretería El Coquí", "quotes.1.total": "4,310.00",
        "quotes.2.store_id": "RL-1003", "quotes.2.store_name": "Materiales del Este", "quotes.2.total": "4,395.00"})
    assert j.counts() == before

    j.sign_in("central_office")
    j.do_task(case, "Revisión final de la Oficina Central", {
        "approved": True, "notes": "Dentro del máximo de ayuda; cotización más baja."})
    j.sign_in("administration")
    j.do_task(case, "Emitir la orden de compra", {"po_number": "OC-2024-0415"})

    j.sign_in(OFFICE)
    j.do_task(case, "Verificar que la situación prevalece", {"situation_prevails": True, "notes": "Sin cambios."})
    j.do_task(case, "Firmar los deberes", {"beneficiary_signed": True})
    j.do_task(case, "Entregar los materiales", {"delivery_note": "Conduce 4150 de Ferretería Borinquen."})

    # Three months later the beneficiary asks in writing for 60 more days to use the materials.
    j.sign_in("admin")
    j.move_clock_to("2024-07-01T09:00")
    j.sign_in(OFFICE)
    j.find_case(case)
    j.explains("Ferretería Borinquen")
    j.history_names("Entregar los materiales", OFFICE)
    j.history_names("Emitir la orden de compra", "administration")
    page.locator('li[data-message="extension_requested"]').get_by_role("link", name="Registrar").click()
    j.fill({"written": True, "reason": "Lluvias de junio retrasaron la obra del techo.", "days_requested": "60"})
    page.get_by_role("button", name="Registrar el mensaje").click()
    expect(page.locator(".flash-success")).to_be_visible()

    j.sign_in(DIRECTOR)
    j.do_task(case, "Decidir la prórroga", {"granted": True, "days_granted": "60",
                                             "reason": "La causa está documentada por escrito."})

    # The extended time to use the materials passes: the follow-up visit falls due.
    j.sign_in("admin")
    j.move_clock_to("2025-01-15T09:00")
    j.sign_in(OFFICE)
    j.do_task(case, "Visita de seguimiento e informe", {
        "work_done": True, "materials_used_properly": True, "photo_count": "8",
        "report": "Techo y baño terminados con los materiales entregados."})
    assert j.counts() == before
    j.find_case(case)
    expect(page.locator("h1 .status")).to_have_text("Terminado")
    j.explains("Completado", "prórroga")
    j.history_names("Decidir la prórroga", DIRECTOR)
    j.history_names("Visita de seguimiento e informe", OFFICE)
    j.finish()
