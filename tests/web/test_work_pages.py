"""The supervisor's task list: several tasks assigned, reassigned or released at once, a result per row."""
from __future__ import annotations

from engine.commands.absences import set_absence
from engine.commands.cases import start_case
from engine.commands.tasks import claim
from tests.web.conftest import actor, text_of
from tests.web.diagrams import start_variables


def _post(client, data, expect=200) -> str:
    return client.post("/web/work/bulk", data, expect=expect).get_data(as_text=True)


def _row(html: str, task_id: int) -> str:
    start = html.index(f'data-task-id="{task_id}"')
    return text_of(html[start:html.index("</tr>", start)])


def test_bulk_assign_shows_each_tasks_result_and_refusals(web, web_case, engine):
    other = engine.execute(start_case, actor("clerk"), "test_web", start_variables())
    first, second = web_case["open_tasks"][0]["id"], other["open_tasks"][0]["id"]
    engine.execute(claim, actor("reviewer"), first)
    boss = web("boss")
    page = boss.get("/web/work")
    assert "Tareas del equipo 2" in text_of(page) and "reviewer" in _row(page, first)
    refused = _post(boss, {"task_ids": [first, second], "action": "assign", "username": "clerk"})
    assert "0 hechas, 2 rechazadas" in text_of(refused)
    assert "La persona no tiene el rol de esta tarea" in _row(refused, first)
    done = _post(boss, {"task_ids": [first, second], "action": "assign", "username": "both"})
    assert "2 hechas, 0 rechazadas" in text_of(done)
    assert "Asignada a both" in _row(done, first) and "both" in _row(done, second)
    released = _post(boss, {"task_ids": [second], "action": "release"})
    assert "Liberada" in _row(released, second) and "—" in _row(released, second)
    assert "both" in _row(released, first)


def test_bulk_needs_a_task_and_is_for_supervisors(web, web_case):
    boss = web("boss")
    assert "Marque al menos una tarea" in text_of(_post(boss, {"action": "release"}, 422))
    web("clerk").get("/web/work", expect=403)


def test_a_substitute_sees_the_absent_users_task_marked_and_completes_it(web, web_case, engine):
    task_id = web_case["open_tasks"][0]["id"]
    engine.execute(claim, actor("reviewer"), task_id)
    engine.execute(set_absence, actor("reviewer"), "reviewer", "2024-04-01", "2024-04-10", "both")
    reviewer = web("both")  # stands in for the absent reviewer
    inbox = reviewer.get("/web/tasks")
    assert "suplencia de reviewer" in _row(inbox, task_id)
    assert "Completar tarea" in text_of(reviewer.get(f"/web/tasks/{task_id}"))
    response = reviewer.post(f"/web/tasks/{task_id}", {
        "recommendation": "approve", "findings": "Todo en orden", "visit_date": "2024-04-02",
        "checks": ["identity", "income"],
        "quotes.0.__row": "1", "quotes.0.store": "Ferretería Cidra", "quotes.0.amount": "1,150.00"})
    assert response.headers["Location"].endswith("/web/tasks")
    assert "APPROVED" in text_of(web("boss").get(f"/web/cases/{web_case['id']}"))
