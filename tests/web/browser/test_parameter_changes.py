"""An admin changes a legal parameter from the pages: a value out of range is refused beside its
field, a valid one is confirmed first and then shows in the change log (issue 16 #3)."""
from __future__ import annotations

from playwright.sync_api import expect


def test_an_admin_is_refused_a_negative_deadline_then_confirms_a_valid_one(ui):
    page = ui.login("admin")
    page.get_by_role("link", name="Administración").click()
    page.get_by_role("link", name="Parámetros").click()
    field = page.locator("#v-farmer\\.reviewDeadlineDays")
    field.fill("-3")
    page.locator("#p-farmer\\.reviewDeadlineDays").get_by_role("button", name="Revisar el cambio").click()
    expect(page.locator("#e-farmer\\.reviewDeadlineDays")).to_have_text("Debe ser al menos 1; escribió -3.")
    expect(field).to_have_value("-3")
    expect(field).to_have_attribute("aria-invalid", "true")
    expect(page.locator("#parameter-changes")).to_have_count(0)

    field.fill("25")
    page.locator("#p-farmer\\.reviewDeadlineDays").get_by_role("button", name="Revisar el cambio").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Confirmar el cambio")
    expect(page.locator("[data-old]")).to_have_text("20")
    expect(page.locator("[data-new]")).to_have_text("25")
    expect(page.locator("#who-changes")).to_contain_text("Los 0 casos en curso conservan el valor")
    page.get_by_role("button", name="Confirmar el cambio").click()
    expect(page.locator(".flash-success")).to_contain_text("actualizado; aplica a los casos que empiecen desde ahora")
    expect(page.locator("#v-farmer\\.reviewDeadlineDays")).to_have_value("25")
    row = page.locator('#parameter-changes tr[data-parameter="farmer.reviewDeadlineDays"]')
    expect(row).to_have_count(1)
    expect(row).to_contain_text("admin")
    expect(row.locator("td").nth(3)).to_have_text("20")
    expect(row.locator("td").nth(4)).to_have_text("25")
