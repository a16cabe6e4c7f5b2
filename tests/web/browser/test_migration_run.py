"""A process owner migrates running cases from the pages (issue 20): the processes page offers it,
the preview lists what would move, the run goes in batches with its progress, the summary counts."""
from __future__ import annotations

from playwright.sync_api import expect

from engine.commands.cases import start_case
from engine.commands.deploy import deploy
from tests.web.conftest import actor
from tests.web.diagrams import start_variables, web_flow

CASES = 30  # more than one batch of the page (25)


def test_preview_run_and_summary_of_a_migration(ui, engine):
    engine.execute(lambda ctx: deploy(ctx, "test_web", web_flow())[0].version, actor("owner"))
    for _ in range(CASES):
        engine.execute(start_case, actor("clerk"), "test_web", start_variables())
    engine.execute(lambda ctx: deploy(ctx, "test_web", web_flow("Evaluar la solicitud"))[0].version, actor("owner"))

    page = ui.login("owner")
    page.get_by_role("link", name="Procesos").first.click()
    page.get_by_role("link", name="Migrar casos a v2").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Migrar casos en curso")
    page.get_by_label("Motivo (queda en el historial de cada caso)").fill("Nombre corregido")
    page.get_by_role("button", name="Vista previa").click()
    expect(page.locator("#preview")).to_contain_text(f"se migrarían: {CASES}")
    batches = []
    page.on("request", lambda request: batches.append(request.url) if "/migrate/batch" in request.url else None)
    page.get_by_role("button", name=f"Migrar {CASES} casos").click()
    expect(page.locator("#summary")).to_contain_text(f"migrados: {CASES}", timeout=60_000)
    expect(page.locator("#summary")).to_contain_text("bloqueados: 0")
    assert len(batches) == 2  # the page ran it in two batches (25 + 5), showing progress
    page.get_by_role("button", name="Vista previa").click()
    expect(page.locator("#preview")).to_contain_text("se migrarían: 0")
