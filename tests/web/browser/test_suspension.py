"""A supervisor stops a case's legal clock from its page and starts it again (issue 19)."""
from __future__ import annotations

from playwright.sync_api import expect

from engine.commands.cases import start_case
from engine.commands.deploy import deploy
from tests.web.conftest import actor
from tests.web.diagrams import start_variables, web_flow


def test_a_supervisor_suspends_and_resumes_a_case_from_its_page(ui, engine):
    engine.execute(lambda ctx: deploy(ctx, "test_web", web_flow())[0].version, actor("owner"))
    case = engine.execute(start_case, actor("clerk"), "test_web", start_variables())
    page = ui.login("boss")
    page.get_by_role("link", name="Casos").first.click()
    page.get_by_role("link", name=case["case_number"]).click()
    page.get_by_text("Suspender los plazos del caso").click()
    page.get_by_label("Motivo", exact=True).fill("Certificación de Hacienda pendiente")
    page.get_by_label("Fundamento legal (orden, artículo o acuerdo)").fill("Sección 3.13, Ley 38-2017")
    page.get_by_role("button", name="Suspender", exact=True).click()
    expect(page.locator("#suspension")).to_contain_text("Plazos suspendidos desde el")
    expect(page.locator("#suspension")).to_contain_text("Sección 3.13, Ley 38-2017")
    page.get_by_role("button", name="Reanudar los plazos").click()
    expect(page.locator(".flash-success")).to_contain_text("Plazos reanudados")
    expect(page.locator("#suspension")).to_have_count(0)
