"""A registry clerk finds a case by the applicant's name typed without its accent (issue 16 item 6)."""
from __future__ import annotations

from playwright.sync_api import expect

from engine.commands.cases import start_case
from engine.identity.actor import Actor
from tests.procedures.farmer_registry.conftest import ADMISSION, application
from tests.web.browser.farmer import deploy_farmer_registry


def test_a_registry_clerk_searches_maria_and_opens_her_case(ui, engine):
    deploy_farmer_registry(engine)
    clerk = Actor("far_clerk", frozenset({"registry_clerk"}))
    maria = engine.execute(start_case, clerk, ADMISSION, application(name="María Rivera Ortiz"))
    engine.execute(start_case, clerk, ADMISSION, application(name="Ana Torres"))
    page = ui.login("far_clerk")
    page.get_by_role("navigation", name="Navegación principal").get_by_role("link", name="Casos").click()
    expect(page.locator("table.list tbody tr")).to_have_count(2)
    page.get_by_label("Buscar").fill("maria")
    page.get_by_role("button", name="Filtrar").click()
    rows = page.locator("table.list tbody tr")
    expect(rows).to_have_count(1)
    expect(rows.first).to_contain_text("María Rivera Ortiz")
    expect(rows.first).to_contain_text("Cidra")
    rows.first.get_by_role("link", name=maria["case_number"]).click()
    expect(page).to_have_url(f"{ui.base_url}/web/cases/{maria['id']}")
    expect(page.locator("h1")).to_contain_text(maria["case_number"])
