"""The dashboard's report charts (issue 19): server-drawn SVG with their numbers as text, a table
with the same figures, the office filter, Spanish and English, and nothing a strict CSP refuses."""
from __future__ import annotations

import re

from tests.api.test_work_report_stages import PROCESS, case_through, stage_flow
from tests.web.conftest import text_of


def chart(html: str, chart_id: str) -> str:
    found = re.search(rf'<svg class="chart" id="{chart_id}".*?</svg>', html, re.S)
    assert found, f"no chart {chart_id}"
    return found.group(0)


def test_the_dashboard_draws_the_report_with_its_numbers(api, web):
    api.deploy(PROCESS, stage_flow())
    case_through(api, "Norte", 10, 20)
    case_through(api, "Norte", 30, 40)
    case_through(api, "Sur", 24 * 10, 2)
    html = web("boss").get("/web/dashboard")
    stages = chart(html, "chart-stages")
    assert 'role="img"' in stages and "<title" in stages and "<desc" in stages
    assert stages.count('class="chart-row"') == 2
    assert "30 h" in stages and "p90 198 h" in stages and "20 h" in stages  # INTAKE and REVIEW medians
    deadlines = chart(html, "chart-deadlines")
    assert "66.7 %" in deadlines
    months = chart(html, "chart-months")
    assert "2024-04: abiertos 3, cerrados 3" in text_of(months)
    table = text_of(re.search(r'<table class="list compact" id="table-months">.*?</table>', html, re.S).group(0))
    assert "2024-04 Norte 2 2" in table and "2024-04 Sur 1 1" in table
    assert "style=" not in stages + deadlines + months and "<script" not in stages + months  # CSP: no inline style

    norte = web("boss").get("/web/dashboard?office=Norte")
    norte_deadlines = chart(norte, "chart-deadlines")
    assert "100 %" in norte_deadlines and "66.7" not in norte_deadlines
    assert "Sur 1 1" not in text_of(norte)
    bad = web("boss").get("/web/dashboard?from=2024-99-01")
    assert "Fecha no válida" in bad and "chart-stages" in bad


def test_the_report_in_english_and_only_for_supervisors(api, web):
    api.deploy(PROCESS, stage_flow())
    case_through(api, "Norte", 10, 20)
    boss = web("boss")
    boss.get("/web/lang/en", expect=302)
    page = text_of(boss.get("/web/dashboard"))
    assert "Time in each stage" in page and "Cases opened and closed per month" in page
    web("clerk").get("/web/dashboard", expect=403)
