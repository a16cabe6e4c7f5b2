"""A clerk whose click meets a database restart (engine/kernel/outage.py, engine/persistence/reconnect.py,
api/web/site.py): a page that only reads is served on a fresh connection; a form whose command met
the dropped connection comes back with what was typed and says, in Spanish (English on English
pages), that the database did not answer and what to do, with a 503; sending it again completes it."""
from __future__ import annotations

import pytest

from tests.conftest import PG_URL
from tests.support.outage import restart_under
from tests.web.conftest import text_of
from tests.web.test_staff_pages import evaluate_task

pytestmark = pytest.mark.skipif(not PG_URL, reason="PostgreSQL only; the PostgreSQL phase of .ci/run runs it")

ANSWER = {"recommendation": "approve", "findings": "Visitada la finca el martes", "visit_date": "2024-04-02",
          "quotes.0.__row": "1", "quotes.0.store": "Ferretería Cidra", "quotes.0.amount": "1,150.00"}


def test_the_inbox_after_a_restart_is_served(web, app, web_case, caplog):
    reviewer = web("reviewer")
    assert "Bandeja de trabajo" in reviewer.get("/web/tasks")
    restart_under(app)
    assert "Bandeja de trabajo" in reviewer.get("/web/tasks")
    assert "unexpected error" not in caplog.text


@pytest.mark.parametrize("language, words", [
    ("es", "La base de datos no responde en este momento"),
    ("en", "the database cannot be reached just now"),
])
def test_a_task_form_that_meets_a_restart_keeps_what_was_typed_and_says_why(
        web, app, web_case, caplog, language, words):
    reviewer = web("reviewer")
    if language == "en":
        reviewer.client.get("/web/lang/en")
    task = evaluate_task(web_case)
    reviewer.get(f"/web/tasks/{task['id']}")
    restart_under(app)
    refused = reviewer.post(f"/web/tasks/{task['id']}", ANSWER, expect=503)
    html = refused.get_data(as_text=True)
    assert words in text_of(html)
    assert "Visitada la finca el martes</textarea>" in html and "Ferretería Cidra" in html
    assert "inesperado" not in html and "unexpected" not in html
    done = reviewer.post(f"/web/tasks/{task['id']}", ANSWER)
    assert done.headers["Location"].endswith("/web/tasks")
    assert "APPROVED" in text_of(web("boss").get(f"/web/cases/{web_case['id']}"))
    assert "unexpected error" not in caplog.text
