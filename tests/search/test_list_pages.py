"""The web case list and inbox: "Descargar CSV" of the current filter, and saved filters."""
from __future__ import annotations

import csv
import io
import re

from engine.commands.cases import start_case
from engine.commands.deploy import deploy
from engine.identity.actor import Actor
from tests.web.conftest import text_of
from tests.web.diagrams import start_variables, web_flow

CLERK = Actor("clerk", frozenset({"test_clerk"}))


def started(engine, names):
    engine.execute(lambda ctx: deploy(ctx, "test_web", web_flow()), Actor("owner", frozenset({"process_owner"})))
    return [engine.execute(start_case, CLERK, "test_web",
                           start_variables(applicant={"name": name, "municipality": "Cidra"})) for name in names]


def download(client, path):
    response = client.client.get(path)
    assert response.status_code == 200, response.get_data(as_text=True)[:500]
    assert response.headers["Content-Type"] == "text/csv; charset=utf-8"
    assert "attachment" in response.headers["Content-Disposition"]
    data = response.get_data()
    assert data.startswith("\ufeff".encode("utf-8"))  # Excel reads it as UTF-8
    return list(csv.reader(io.StringIO(data.decode("utf-8-sig"))))


def test_the_case_list_downloads_its_filter_as_csv_with_spanish_headers(web, engine):
    started(engine, ["María Núñez", "Ana Torres", "Mario Ruiz"])
    boss = web("boss")
    page = boss.get("/web/cases?q=mar")
    link = re.search(r'href="([^"]+)" download data-csv-download', page).group(1).replace("&amp;", "&")
    assert link == "/web/cases.csv?q=mar"
    rows = download(boss, link)
    assert rows[0][:7] == ["Caso", "Procedimiento", "Versión", "Estado", "Etapa", "Resultado", "Solicitante o asunto"]
    assert sorted(r[6] for r in rows[1:]) == ["Mario Ruiz", "María Núñez"]
    assert {(r[1], r[3], r[8]) for r in rows[1:]} == {("Solicitud de prueba", "En curso", "Cidra")}
    assert len(download(boss, "/web/cases.csv")) == 4
    assert len(download(web("nobody"), "/web/cases.csv")) == 1  # a registry clerk: none of these


def test_the_inbox_downloads_its_tasks_as_csv_and_filters_overdue_ones(web, engine):
    cases = started(engine, ["María Núñez", "Ana Torres"])
    reviewer = web("reviewer")
    rows = download(reviewer, "/web/tasks.csv")
    assert rows[0] == ["Caso", "Tarea", "Procedimiento", "Rol", "Asignada a", "Creada", "Vence", "En suplencia de"]
    assert sorted(r[0] for r in rows[1:]) == sorted(c["case_number"] for c in cases)
    assert [r[0] for r in download(reviewer, f"/web/tasks.csv?case={cases[1]['case_number']}")[1:]] == \
        [cases[1]["case_number"]]
    assert len(download(reviewer, "/web/tasks.csv?overdue=1")) == 1
    page = reviewer.get("/web/tasks?overdue=1")
    assert 'href="/web/tasks.csv?overdue=1"' in page
    assert "No hay tareas aquí." in page and cases[0]["case_number"] not in page


def test_a_user_saves_opens_and_deletes_a_filter_and_sees_only_their_own(web, engine):
    started(engine, ["María Núñez", "Ana Torres"])
    boss = web("boss")
    response = boss.post("/web/saved-filters", {"list": "cases", "name": "Las Marías",
                                                "query": "q=maria&status=active&page=3"})
    assert response.headers["Location"] == "/web/cases?q=maria&status=active"
    page = boss.get("/web/cases")
    assert 'href="/web/cases?q=maria&amp;status=active">Las Marías</a>' in page
    assert "Casos vencidos" in text_of(page)  # the built-ins
    # Saving the name again replaces its query; another list keeps its own names.
    boss.post("/web/saved-filters", {"list": "cases", "name": "Las Marías", "query": "q=nunez"})
    boss.post("/web/saved-filters", {"list": "tasks", "name": "Las Marías", "query": "overdue=1"})
    page = boss.get("/web/cases")
    assert 'href="/web/cases?q=nunez">Las Marías</a>' in page and page.count(">Las Marías</a>") == 1
    assert 'href="/web/tasks?overdue=1">Las Marías</a>' in web("boss").get("/web/tasks")
    assert ">Las Marías</a>" not in web("boss_clerk").get("/web/cases")  # each person's own
    filter_id = re.search(r'data-saved-filter="(\d+)"', page).group(1)
    assert web("boss_clerk").post(f"/web/saved-filters/{filter_id}/delete", {"list": "cases"}).status_code == 302
    assert ">Las Marías</a>" in boss.get("/web/cases")  # not theirs: nothing deleted
    boss.post(f"/web/saved-filters/{filter_id}/delete", {"list": "cases"})
    assert ">Las Marías</a>" not in boss.get("/web/cases")
    # A filter without a name is refused and the list stays as it was.
    boss.post("/web/saved-filters", {"list": "cases", "name": "  ", "query": "q=x"})
    assert "Escriba un nombre para el filtro" in text_of(boss.get("/web/cases"))


def test_the_built_in_filters_narrow_the_lists(web, engine):
    from engine.commands import accounts
    from engine.identity.actor import SYSTEM
    from tests.conftest import PASSWORD
    engine.execute(lambda ctx: accounts.create_user(ctx, "jefa", PASSWORD, ["supervisor"], full_name="Jefa",
                                                    office="Caguas"), SYSTEM)
    page = web("jefa").get("/web/cases")
    assert 'href="/web/cases?overdue=1&amp;office=Caguas">Casos vencidos de mi oficina</a>' in page
    assert 'href="/web/tasks?overdue=1">Mis tareas vencidas</a>' in web("reviewer").get("/web/tasks")
