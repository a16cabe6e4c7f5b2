"""Drafts of a long form (issue 16, "also expected"): saved per task and person, restored when the
task is opened again, seen by nobody else, dropped on completion."""
from __future__ import annotations

from tests.web.conftest import text_of
from tests.web.test_staff_pages import evaluate_task


def test_a_draft_comes_back_to_its_author_only_and_goes_with_the_completion(web, web_case, api):
    task = evaluate_task(web_case)
    reviewer = web("reviewer")
    reviewer.post(f"/web/tasks/{task['id']}/claim", {"next": f"/web/tasks/{task['id']}"})
    response = reviewer.post(f"/web/tasks/{task['id']}/draft", {"findings": "a medio escribir, renglón 3"}, expect=200)
    assert response.get_json()["task_id"] == task["id"]

    page = reviewer.get(f"/web/tasks/{task['id']}")
    assert "Se restauró el borrador" in text_of(page)
    assert "a medio escribir, renglón 3" in page.split('class="task-form"', 1)[1]
    # Nobody else sees it, nor may save one on a task someone else holds.
    assert "a medio escribir" not in web("boss").get(f"/web/tasks/{task['id']}")
    web("both").post(f"/web/tasks/{task['id']}/draft", {"findings": "otro"}, expect=409)
    web("clerk").post(f"/web/tasks/{task['id']}/draft", {"findings": "otro"}, expect=403)

    reviewer.post(f"/web/tasks/{task['id']}/draft/discard")
    assert "a medio escribir" not in reviewer.get(f"/web/tasks/{task['id']}")

    reviewer.post(f"/web/tasks/{task['id']}/draft", {"findings": "otra vez"}, expect=200)
    api.post(f"/api/v1/tasks/{task['id']}/complete", "reviewer",
             {"data": {"recommendation": "deny", "findings": "listo"}})
    page = reviewer.get(f"/web/tasks/{task['id']}")
    assert "Se restauró el borrador" not in text_of(page) and "otra vez" not in page
    assert reviewer.client.post(f"/web/tasks/{task['id']}/draft", data={"_csrf": reviewer.csrf(),
                                                                       "findings": "tarde"}).status_code == 409


def test_a_draft_needs_the_sessions_csrf_token(web, web_case):
    task = evaluate_task(web_case)
    reviewer = web("reviewer")
    assert reviewer.client.post(f"/web/tasks/{task['id']}/draft", data={"findings": "sin token"}).status_code != 200
    assert "sin token" not in reviewer.get(f"/web/tasks/{task['id']}")
