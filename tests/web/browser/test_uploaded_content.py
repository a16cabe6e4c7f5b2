"""Uploaded content opened in a real browser cannot run script (issue 15, finding 1): a process
owner's diagram carrying an XHTML <script> is shown as text when an admin opens its XML, and the
pages that draw it (case viewer, modeler) still load it. Every page here also runs under the
strict CSP the `ui` fixture checks for refusals."""
from __future__ import annotations

from playwright.sync_api import expect

from engine.commands.cases import start_case
from engine.commands.deploy import deploy
from tests.web.conftest import actor
from tests.web.diagrams import hostile_flow, start_variables


def test_a_diagram_with_a_script_inside_cannot_run_it_when_its_xml_is_opened(ui, engine):
    engine.execute(lambda ctx: deploy(ctx, "test_web", hostile_flow()), actor("owner"))
    case = engine.execute(start_case, actor("clerk"), "test_web", start_variables())
    page = ui.login("admin")
    called: list[str] = []
    page.on("request", lambda request: called.append(request.url) if "pwned" in request.url else None)
    for path in ("/web/processes/test_web/versions/1/bpmn", f"/web/cases/{case['id']}/diagram.xml"):
        response = page.goto(path)
        page.wait_for_load_state("networkidle")
        assert called == [], f"the diagram's script ran at {path}: {called}"
        expect(page.locator("body")).to_contain_text("fetch('/web/pwned")  # shown, as text
        assert response.headers["content-type"] == "text/plain; charset=utf-8"
        assert "sandbox" in response.headers["content-security-policy"]
    # The pages that draw the diagram still fetch and draw it (the diagram's own script stays inert).
    page.goto(f"/web/cases/{case['id']}")
    expect(page.locator("#diagram")).to_have_attribute("data-ready", "true")
    expect(page.locator("#diagram .djs-element[data-element-id=evaluate]")).to_be_visible()
    page.goto("/web/processes/test_web/versions/1/edit")
    expect(page.locator("#canvas .djs-element[data-element-id=evaluate]")).to_be_visible()
    assert called == [], f"the diagram's script ran: {called}"


def test_the_api_documentation_runs_under_the_page_policy(ui):
    page = ui.page
    page.goto("/api/docs")
    expect(page.locator(".opblock").first).to_be_visible()
    expect(page.get_by_text("/api/v1/instances", exact=True).first).to_be_visible()
