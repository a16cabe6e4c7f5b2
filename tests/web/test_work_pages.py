"""The supervisor's task list: several tasks assigned, reassigned or released at once, a result per row."""
from __future__ import annotations

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
