"""A clerk whose page meets a database restart (engine/kernel/outage.py, api/web/site.py): the error
page says in Spanish (English on English pages) that the database is not answering and what to do,
with a 503 and Retry-After, not "an unexpected error"; the next click is served."""
from __future__ import annotations

import pytest

from engine.kernel import outage

from tests.conftest import PG_URL
from tests.support.outage import restart_under
from tests.web.conftest import text_of

pytestmark = pytest.mark.skipif(not PG_URL, reason="PostgreSQL only; the PostgreSQL phase of .ci/run runs it")


@pytest.mark.parametrize("language, words", [
    ("es", "La base de datos no responde en este momento"),
    ("en", "the database cannot be reached just now"),
])
def test_the_inbox_after_a_restart_says_the_database_is_not_answering_and_the_next_click_works(
        web, app, caplog, language, words):
    clerk = web("clerk")
    if language == "en":
        clerk.client.get("/web/lang/en")
    assert clerk.client.get("/web/tasks").status_code == 200
    restart_under(app)
    first = clerk.client.get("/web/tasks")
    assert first.status_code == 503, (first.status_code, first.get_data(as_text=True)[:800])
    assert first.headers["Retry-After"] == str(outage.RETRY_AFTER_SECONDS)
    page = text_of(first.get_data(as_text=True))
    assert "inesperado" not in page and "unexpected" not in page
    assert words in page, page[:800]
    assert clerk.client.get("/web/tasks").status_code == 200
    assert "unexpected error" not in caplog.text
