"""The task page on a phone and the modeler's first view (issue 16, item 10), in Chromium."""
from __future__ import annotations

from playwright.sync_api import expect

from tests.procedures.farmer_registry.conftest import ADMISSION
from tests.web.browser.farmer import deploy_farmer_registry


def _task_id(web_case) -> int:
    return next(t["id"] for t in web_case["open_tasks"] if t["element_id"] == "evaluate")


def test_on_a_phone_the_task_form_comes_before_the_cases_history(ui, web_case):
    page = ui.login("reviewer")
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"/web/tasks/{_task_id(web_case)}")
    form = page.locator(".form-card").bounding_box()
    context = page.locator(".case-context").bounding_box()
    assert form["y"] + form["height"] <= context["y"], (form, context)
    assert form["x"] >= 0 and form["x"] + form["width"] <= 390  # no sideways scrolling for the form
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    ui.shot("task-phone")


def test_on_a_wide_screen_the_case_stays_beside_the_form(ui, web_case):
    page = ui.login("reviewer")
    page.goto(f"/web/tasks/{_task_id(web_case)}")
    form = page.locator(".form-card").bounding_box()
    context = page.locator(".case-context").bounding_box()
    assert context["x"] + context["width"] <= form["x"] and abs(context["y"] - form["y"]) < 200


def _overlap(a, b) -> bool:
    return a["x"] < b["x"] + b["width"] and b["x"] < a["x"] + a["width"] and \
        a["y"] < b["y"] + b["height"] and b["y"] < a["y"] + a["height"]


def test_the_modeler_palette_covers_no_element_at_first_zoom(ui, engine):
    deploy_farmer_registry(engine)  # a wide diagram: fitted to the canvas, it reaches under the palette
    page = ui.login("owner")
    page.goto(f"/web/processes/{ADMISSION}/versions/1/edit")
    expect(page.locator("#modeler")).to_have_attribute("data-ready", "true")
    palette = page.locator(".djs-palette").bounding_box()
    canvas = page.locator("#canvas").bounding_box()
    elements = page.locator(".djs-element.djs-shape:not(.djs-frame)")
    boxes = [elements.nth(i).bounding_box() for i in range(elements.count())]
    boxes = [b for b in boxes if b and b["width"] > 0]
    assert boxes
    covered = [b for b in boxes if _overlap(b, palette)]
    assert not covered, (palette, covered)
    inside = [b for b in boxes if b["x"] >= canvas["x"] and b["x"] + b["width"] <= canvas["x"] + canvas["width"] + 1]
    assert len(inside) == len(boxes)  # and the whole diagram is in view


def test_the_modeler_header_shows_the_version_just_deployed(ui, web_case):
    page = ui.login("owner")
    page.goto("/web/processes/test_web/versions/1/edit")
    expect(page.locator("#modeler")).to_have_attribute("data-ready", "true")
    page.locator('.djs-element[data-element-id="evaluate"]').click()
    page.locator("#properties").get_by_text("General", exact=True).click()
    page.locator("#properties").get_by_label("Nombre", exact=True).fill("Evaluar la solicitud")
    page.get_by_role("button", name="Desplegar como versión nueva").click()
    expect(page.locator("#deploy-status")).to_contain_text("Desplegada la versión 2.")
    expect(page.locator("h1 [data-version-label]")).to_have_text("v2")
    expect(page.locator(".breadcrumbs [data-version-label]")).to_have_text("v2")
    assert "v2" in page.title() and "v1" not in page.title()
    assert page.url.endswith("/web/processes/test_web/versions/2/edit")
    # A second change deploys on top of version 2.
    page.locator("#properties").get_by_label("Nombre", exact=True).fill("Evaluar la solicitud completa")
    page.get_by_role("button", name="Desplegar como versión nueva").click()
    expect(page.locator("#deploy-status")).to_contain_text("Desplegada la versión 3.")
    expect(page.locator("h1 [data-version-label]")).to_have_text("v3")
