"""A supervisor ticks two tasks of the team list and assigns both at once; each row says how it went."""
from __future__ import annotations

from playwright.sync_api import expect

from engine.commands.cases import start_case
from tests.web.conftest import actor
from tests.web.diagrams import start_variables


def test_a_supervisor_selects_two_tasks_and_assigns_them(ui, web_case, engine):
    other = engine.execute(start_case, actor("clerk"), "test_web", start_variables())
    ids = [web_case["open_tasks"][0]["id"], other["open_tasks"][0]["id"]]
    page = ui.login("boss")
    page.get_by_role("link", name="Tareas del equipo").click()
    for task_id in ids:
        page.locator(f"#pick-{task_id}").check()
    page.get_by_label("Acción").select_option("assign")
    page.get_by_label("Usuario", exact=True).fill("both")
    page.get_by_role("button", name="Aplicar").click()
    expect(page.locator("[data-bulk-summary]")).to_contain_text("2 hechas, 0 rechazadas")
    for task_id in ids:
        row = page.locator(f'tr[data-task-id="{task_id}"]')
        expect(row.locator("[data-result]")).to_contain_text("Asignada a both")
        expect(row.locator("[data-assignee]")).to_have_text("both")
    ui.shot("bulk-assign")
