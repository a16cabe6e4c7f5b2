"""Why was this decided, in the browser: the evaluator reads each reason as a sentence beside the form
and opens a reason to see its rule's article and the law's own words (issue 16 item 7)."""
from __future__ import annotations

from playwright.sync_api import expect

from tests.web.browser.farmer import deploy_farmer_registry, fill_application
from tests.web.browser.test_accessibility import axe_installed, violations  # noqa: F401  (the fixture)


def test_the_evaluator_reads_the_reasons_and_expands_one_to_its_article(ui, engine):
    deploy_farmer_registry(engine)
    page = ui.login("far_clerk")
    fill_application(page)
    page.locator('[name="activity_income"]').fill("12,000.00")
    page.locator('[name="sworn_declaration"]').check()
    page.get_by_role("button", name="Iniciar caso").click()
    expect(page.locator(".flash-success")).to_contain_text("Inició el caso")

    page = ui.login("far_evaluator")
    page.locator("tr[data-task-id] td:nth-child(2) a").first.click()
    reason = page.locator('.case-context li.reason[data-code="INCOME_SHARE_BELOW_THRESHOLD"]').first
    expect(reason.locator(".reason-text")).to_have_text(
        "La actividad agrícola aporta 30 % del ingreso bruto anual ($12,000.00 de $40,000.00); el mínimo es 50 %.")
    article = reason.locator('[data-rule="FAR-04"]')
    expect(article).to_be_hidden()
    reason.locator("summary").click()
    expect(article).to_be_visible()
    expect(article).to_contain_text("FAR-04 — Reglamento de la Comisión (000)")
    expect(article).to_contain_text("siendo ella por lo menos el cincuenta (50) por ciento de su ingreso bruto anual")
    ui.shot("decision-reasons")
    assert violations(page) == []
    # The case page answers it too: its "why" section, with every reason open, has no WCAG violation.
    page.locator(".case-context h2 a").click()
    why = page.locator("#h-why + ol")
    expect(why).to_contain_text("La actividad agrícola aporta 30 %")
    for summary in why.locator("summary").all():
        summary.click()
    expect(why.locator('[data-rule="FAR-04"]').first).to_be_visible()
    assert violations(page) == []
