"""Supervisor pages: dashboard figures, the case list's filters, a case's page and its actions."""
from __future__ import annotations

import json
import re

from engine.commands.cases import start_case
from engine.commands.deploy import deploy
from engine.commands.tasks import claim, complete
from tests.support.diagrams import script_flow
from tests.web.conftest import actor, text_of
from tests.web.diagrams import start_variables


def test_the_dashboard_shows_stages_deadlines_work_and_errors(web, web_case, engine):
    engine.execute(deploy, actor("owner"), "test_script", script_flow("x = 1 / 0"))
    broken = engine.execute(start_case, actor("clerk"), "test_script", {})
    broken = engine.execute(complete, actor("clerk"), broken["open_tasks"][0]["id"], {})["instance"]
    assert broken["status"] == "error"
    engine.execute(claim, actor("reviewer"), web_case["open_tasks"][0]["id"])
    page = text_of(web("boss").get("/web/dashboard"))
    assert "Solicitud de prueba" in page and "EVALUATION" in page
    assert "Nada vence en los próximos 7 días." in page  # the review is due in 22 days
    assert "Revisor de prueba 0 1 0" in page and "reviewer 1 0" in page
    assert broken["case_number"] in page and "division by zero" in page


def test_deadlines_within_seven_days_and_overdue_ones_appear_on_the_dashboard(web, web_case, engine):
    engine.execute(lambda ctx: engine.clock.move_to(ctx.conn, ctx.now.replace(day=18)), actor("admin"))
    page = text_of(web("boss").get("/web/dashboard"))
    assert web_case["case_number"] in page and "Tarea: Evaluar solicitud" in page and "quedan 5 días" in page


def _deadlines_section(html: str) -> tuple[str, str, int]:
    section = html.split('id="h-deadlines"', 1)[1].split("</section>", 1)[0]
    badge = re.search(r'<span class="count">([^<]*)</span>', section).group(1)
    return section, badge, section.count('<tr class="due-')


def test_a_dashboard_cut_short_says_so_and_leads_to_the_overdue_cases(web, web_case, engine, monkeypatch):
    # The list shows the most urgent only; its badge must not read as the number of deadlines.
    from engine.queries import dashboard
    for _ in range(2):
        engine.execute(start_case, actor("clerk"), "test_web", start_variables())
    engine.execute(lambda ctx: engine.clock.move_to(ctx.conn, ctx.now.replace(day=18)), actor("admin"))
    boss = web("boss")
    section, badge, rows = _deadlines_section(boss.get("/web/dashboard"))
    assert rows >= 3 and badge == str(rows) and "data-deadlines-cut" not in section
    monkeypatch.setattr(dashboard, "DEADLINES_SHOWN", rows - 1)
    section, badge, shown = _deadlines_section(boss.get("/web/dashboard"))
    assert (badge, shown) == (f"{rows - 1}+", rows - 1)
    assert f"Se muestran los {rows - 1} más urgentes; hay más." in text_of(section)
    assert 'href="/web/cases?overdue=1"' in section
    monkeypatch.setattr(dashboard, "DEADLINES_SHOWN", rows)  # exactly as many as there are: not cut
    section, badge, shown = _deadlines_section(boss.get("/web/dashboard"))
    assert (badge, shown) == (str(rows), rows) and "data-deadlines-cut" not in section
    boss.client.get("/web/lang/en?next=/web/dashboard")
    monkeypatch.setattr(dashboard, "DEADLINES_SHOWN", 1)
    assert "The 1 most urgent are shown; there are more." in text_of(boss.get("/web/dashboard"))


def test_outcomes_over_time_feed_the_chart(web, web_case):
    reviewer = web("reviewer")
    reviewer.post(f"/web/tasks/{web_case['open_tasks'][0]['id']}", {"recommendation": "deny", "findings": "No"})
    html = web("boss").get("/web/dashboard?period=day")
    data = json.loads(re.search(r'id="outcomes-data">(.*?)</script>', html, re.DOTALL).group(1))
    assert data == {"periods": ["2024-04-01"], "series": {"DENIED": [1]}}


def test_the_case_list_filters_and_pages(web, web_case, engine):
    for _ in range(30):
        engine.execute(start_case, actor("clerk"), "test_web", start_variables())
    boss = web("boss")
    page = text_of(boss.get("/web/cases"))
    assert "Casos 31" in page and "Página 1 de 2" in page
    assert "Página 2 de 2" in text_of(boss.get("/web/cases?page=2"))
    assert "Casos 1" in text_of(boss.get(f"/web/cases?q={web_case['case_number']}"))
    assert "Casos 31" in text_of(boss.get("/web/cases?status=active&stage=EVALUATION&process=test_web"))
    assert "Casos 0" in text_of(boss.get("/web/cases?outcome=APPROVED"))
    assert "Casos 0" in text_of(boss.get("/web/cases?overdue=1"))


def test_the_case_page_has_the_diagram_state_deadlines_history_and_variables(web, web_case):
    boss = web("boss")
    html = boss.get(f"/web/cases/{web_case['id']}")
    activity = json.loads(re.search(r'id="activity-data">(.*?)</script>', html, re.DOTALL).group(1))
    assert activity["evaluate"]["state"] == "active" and activity["timeout"]["state"] == "waiting"
    assert activity["compute"] == {"state": "completed", "count": 1}
    page = text_of(html)
    assert "Caso iniciado" in page and "Plazos" in page and "quedan 21 días" in page and "Ana Torres" in page
    xml = boss.get(f"/web/cases/{web_case['id']}/diagram.xml")
    assert 'id="evaluate"' in xml


def test_a_supervisor_reassigns_cancels_and_the_history_says_so(web, web_case):
    boss = web("boss")
    task = web_case["open_tasks"][0]
    boss.post(f"/web/tasks/{task['id']}/assign", {"username": "both", "instance_id": web_case["id"]})
    assert "asignada a both" in text_of(boss.get(f"/web/cases/{web_case['id']}"))
    boss.post(f"/web/cases/{web_case['id']}/cancel", {"reason": ""})
    assert "Escriba la razón" in text_of(boss.get(f"/web/cases/{web_case['id']}"))
    boss.post(f"/web/cases/{web_case['id']}/cancel", {"reason": "Duplicado"})
    page = text_of(boss.get(f"/web/cases/{web_case['id']}"))
    assert "Cancelado" in page and "Caso cancelado" in page and "Duplicado" in page


def test_a_case_in_error_is_retried_from_its_page(web, engine):
    engine.execute(deploy, actor("owner"), "test_script", script_flow("x = 1 / 0"))
    case = engine.execute(start_case, actor("clerk"), "test_script", {})
    engine.execute(complete, actor("clerk"), case["open_tasks"][0]["id"], {})
    boss = web("boss")
    boss.get(f"/web/cases/{case['id']}")  # the login's welcome is shown once
    boss.post(f"/web/cases/{case['id']}/retry")
    page = text_of(boss.get(f"/web/cases/{case['id']}"))
    assert "Se reintentó el paso que falló" in page and "Caso reintentado" in page and "En error" in page
    boss.post(f"/web/cases/{case['id']}/cancel", {"reason": "No se puede arreglar"})
    boss.post(f"/web/cases/{case['id']}/retry")
    page = text_of(boss.get(f"/web/cases/{case['id']}"))
    assert "El caso no está en error; no hay nada que reintentar. (CASE_NOT_IN_ERROR)" in page


def test_staff_see_their_cases_but_no_actions_and_not_other_peoples(web, web_case, engine):
    clerk = web("clerk")
    page = text_of(clerk.get(f"/web/cases/{web_case['id']}"))
    assert web_case["case_number"] in page and "Cancelar caso" not in page
    assert "Sin permiso" in web("nobody").get(f"/web/cases/{web_case['id']}", expect=403)


def test_the_case_list_offers_the_stages_outcomes_and_offices_in_use(web, web_case, engine):
    """The filter choices come with the list in one read (cases.case_list_page): the stages and
    outcomes cases hold, the offices of cases and staff."""
    clerk = actor("clerk")
    engine.execute(start_case, clerk.__class__(clerk.username, clerk.roles, "Caguas"), "test_web", start_variables())

    def options(html: str, select_id: str) -> list[str]:
        select = html.split(f'id="{select_id}"', 1)[1].split("</select>", 1)[0]
        found = re.findall(r"<option([^>]*)>([^<]*)</option>", select)
        return [(re.search(r'value="([^"]*)"', attrs) or [None, text])[1] for attrs, text in found]
    html = web("boss").get("/web/cases")
    assert options(html, "f-stage") == ["", "EVALUATION"]
    assert options(html, "f-outcome") == [""]
    assert options(html, "f-office")[0] == "" and "Caguas" in options(html, "f-office")
