"""The form editor's visual mode beside the JSON (issue 16, "also expected"), in Chromium: fields,
types, required and the labels of a choice, written into the JSON that is deployed."""
from __future__ import annotations

import json

from playwright.sync_api import expect


def test_a_process_owner_edits_a_form_in_the_visual_mode_and_deploys_it(ui, web_case):
    page = ui.login("owner")
    page.goto("/web/processes/test_web/versions/1/edit")
    expect(page.locator("#modeler")).to_have_attribute("data-ready", "true")
    visual = page.locator("#form-visual")
    choice = visual.locator('tr[data-field="recommendation"]')
    expect(choice.locator('[data-part="type"]')).to_have_value("choice")
    expect(choice.locator('[data-part="options"]')).to_have_value("approve = Aprobar\ndeny = Denegar")
    expect(visual.locator('tr[data-field="findings"] [data-part="required"]')).to_be_checked()

    choice.locator('[data-part="options"]').fill("approve = Aprobar\ndeny = Denegar\nwait = Esperar documentos")
    choice.locator('[data-part="options"]').blur()
    visual.locator('tr[data-field="visit_date"] [data-part="required"]').check()
    visual.locator('[data-part="add"]').click()
    fresh = visual.locator('tr[data-field="campo_1"]')
    fresh.locator('[data-part="name"]').fill("monto")
    fresh.locator('[data-part="name"]').blur()
    added = visual.locator('tr[data-field="monto"]')
    added.locator('[data-part="type"]').select_option("money")
    added.locator('[data-part="title"]').fill("Monto aprobado")
    added.locator('[data-part="title"]').blur()
    expect(page.locator("#form-preview")).to_contain_text("Monto aprobado")

    schema = json.loads(page.locator("#form-schema").input_value())
    ui_schema = json.loads(page.locator("#form-ui").input_value())
    assert schema["properties"]["recommendation"]["enum"] == ["approve", "deny", "wait"]
    assert ui_schema["recommendation"]["ui:enumNames"] == ["Aprobar", "Denegar", "Esperar documentos"]
    assert "visit_date" in schema["required"] and "findings" in schema["required"]
    assert schema["properties"]["monto"]["type"] == ["string", "number"]
    assert ui_schema["monto"]["ui:title"] == "Monto aprobado" and ui_schema["ui:order"][-1] == "monto"
    assert schema["properties"]["quotes"]["type"] == "array"  # a list kept as it was
    expect(visual.locator('tr[data-field="quotes"] [data-part="type"]')).to_be_disabled()

    page.get_by_role("button", name="Desplegar como versión nueva").click()
    expect(page.locator("#deploy-status")).to_contain_text("Desplegada la versión 2.")
    page.goto("/web/processes/test_web/versions/2/edit")
    expect(page.locator("#modeler")).to_have_attribute("data-ready", "true")
    expect(page.locator('#form-visual tr[data-field="monto"] [data-part="title"]')).to_have_value("Monto aprobado")


def test_invalid_json_says_so_instead_of_a_visual_view(ui, web_case):
    page = ui.login("owner")
    page.goto("/web/processes/test_web/versions/1/edit")
    expect(page.locator("#modeler")).to_have_attribute("data-ready", "true")
    page.locator("#form-schema").fill("{ no es json")
    expect(page.locator("#form-visual")).to_contain_text("El JSON del esquema no es válido")
