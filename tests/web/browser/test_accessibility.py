"""axe-core (WCAG 2 A and AA rules) on each main page: labels, names, contrast, landmarks."""
from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect

AXE = Path(__file__).resolve().parents[3] / "node_modules" / "axe-core" / "axe.min.js"
# bpmn-js draws the diagram and its properties panel; their markup is the library's, not ours.
THIRD_PARTY = [".djs-container", "#properties"]


def violations(page) -> list[str]:
    # Evaluated through the browser's debugging protocol, which the page's CSP does not govern (an
    # injected <script> tag would be refused, as any inline script must be).
    page.evaluate(AXE.read_text(encoding="utf-8"))
    found = page.evaluate("""(exclude) => axe.run({include: [document], exclude: exclude.map(s => [s])},
                                {runOnly: {type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]}})
                              .then(r => r.violations.map(v => v.id + ": " + v.nodes.slice(0, 3)
                                                            .map(n => n.target.join(" ")).join(" | ")))""",
                          THIRD_PARTY)
    return found


@pytest.fixture(autouse=True)
def axe_installed():
    if not AXE.exists():
        pytest.fail("node_modules/axe-core is missing: run `make node_modules`")


def test_the_main_pages_have_no_wcag_violations(ui, web_case):
    page = ui.page
    page.goto("/web/login")
    assert violations(page) == [], "login"
    checks = {"reviewer": ["/web/tasks", f"/web/tasks/{web_case['open_tasks'][0]['id']}"],
              "clerk": ["/web/start", "/web/start/test_web"],
              "boss": ["/web/dashboard", "/web/cases", f"/web/cases/{web_case['id']}", "/web/work"],
              "owner": ["/web/processes", "/web/processes/test_web/versions/1/edit", "/web/processes/test_web/diff"],
              "admin": ["/web/admin/users", "/web/admin/users/clerk", "/web/admin/offices", "/web/admin/offices/Caguas",
                        "/web/admin/parameters", "/web/admin/clock", "/web/password"]}
    for username, paths in checks.items():
        ui.login(username)
        for path in paths:
            page.goto(path)
            if "/cases/" in path:
                expect(page.locator("#diagram")).to_have_attribute("data-ready", "true")
            assert violations(page) == [], path


def test_a_form_can_be_filled_and_sent_with_the_keyboard_alone(ui, web_case):
    page = ui.login("reviewer")
    page.goto(f"/web/tasks/{web_case['open_tasks'][0]['id']}")
    page.get_by_label("Denegar").focus()
    page.keyboard.press("Space")
    page.keyboard.press("Tab")
    expect(page.get_by_label("Hallazgos")).to_be_focused()
    page.keyboard.type("No cumple.")
    page.get_by_role("button", name="Completar tarea").focus()
    page.keyboard.press("Enter")
    expect(page.locator(".flash-success")).to_contain_text("Completó")
