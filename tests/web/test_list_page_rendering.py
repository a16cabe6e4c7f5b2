"""The list pages' per-page shortcuts (issue 21): their rows' links built once around a marker id,
a procedure's label files looked up once per request — and neither shows anything else."""
from __future__ import annotations

import json

import pytest
from flask import url_for

from api.web import procedure_labels
from api.web.row_links import row_link
from engine.commands.cases import start_case
from engine.commands.deploy import deploy
from engine.commands.tasks import complete
from tests.support.diagrams import parallel_flow, script_flow
from tests.web.conftest import actor
from tests.web.diagrams import start_variables

ROW_ENDPOINTS = [("web.case", "instance_id"), ("web.task", "task_id"), ("web.claim", "task_id"),
                 ("web.release", "task_id")]


@pytest.mark.parametrize("script_root", ["", "/tramite", "/oficina/tramite"])
def test_a_row_link_is_the_routers_link_for_that_id(app, script_root):
    # Behind a proxy that mounts the app under a prefix the router puts the prefix in front.
    with app.test_request_context("/web/tasks", base_url=f"http://agency.example{script_root}"):
        for endpoint, key in ROW_ENDPOINTS:
            link = row_link(endpoint, key)
            for row_id in (1, 7, 40, 987_654_321, 2**40):
                assert link(row_id) == url_for(endpoint, **{key: row_id}), (endpoint, row_id)
            assert link(12).startswith(f"{script_root}/web/")


def test_a_row_link_refuses_an_endpoint_whose_address_does_not_hold_the_id(app):
    with app.test_request_context("/web/tasks"):
        with pytest.raises(ValueError, match="web.home"):
            row_link("web.home", "task_id")  # the id becomes a query argument: no place to put it


def _two_task_case(engine) -> dict:
    """A case that opens two tasks at once: the cases started after it have task ids other than their
    own ids, so a row that links a task where its case belongs (or the reverse) shows."""
    engine.execute(deploy, actor("owner"), "test_parallel", parallel_flow())
    case = engine.execute(start_case, actor("clerk"), "test_parallel", {})
    assert len(case["open_tasks"]) == 2
    return case


def _row(html: str, task_id: int) -> str:
    start = html.index(f'data-task-id="{task_id}"')
    return html[start:html.index("</tr>", start)]


def test_the_inbox_rows_link_to_their_own_case_and_task(web, web_case, engine):
    _two_task_case(engine)
    cases = [web_case, *(engine.execute(start_case, actor("clerk"), "test_web", start_variables()) for _ in range(3))]
    assert any(case["open_tasks"][0]["id"] != case["id"] for case in cases)
    reviewer = web("reviewer")
    mine = cases[1]["open_tasks"][0]
    reviewer.post(f"/web/tasks/{mine['id']}/claim", {"next": "/web/tasks"})
    page = reviewer.get("/web/tasks")
    for case in cases:
        task = case["open_tasks"][0]
        action = "release" if task["id"] == mine["id"] else "claim"
        assert f'href="/web/cases/{case["id"]}">{case["case_number"]}</a>' in page
        assert page.count(f'action="/web/tasks/{task["id"]}/{action}"') == 1
        assert page.count(f'href="/web/tasks/{task["id"]}"') == 2  # its name and its "Abrir" button


def test_the_work_and_dashboard_rows_link_to_their_own_cases(web, web_case, engine):
    parallel = _two_task_case(engine)
    engine.execute(deploy, actor("owner"), "test_script", script_flow("x = 1 / 0"))
    broken = engine.execute(start_case, actor("clerk"), "test_script", {})
    assert broken["open_tasks"][0]["id"] != broken["id"]
    broken = engine.execute(complete, actor("clerk"), broken["open_tasks"][0]["id"], {})["instance"]
    boss = web("boss")
    work = boss.get("/web/work")
    for case in (web_case, parallel):
        for task in case["open_tasks"]:
            assert f'<a href="/web/cases/{case["id"]}">{case["case_number"]}</a>' in _row(work, task["id"])
    dashboard = boss.get("/web/dashboard")  # the case in error: its row opens it and retries it
    assert dashboard.count(f'<a href="/web/cases/{broken["id"]}">{broken["case_number"]}</a>') == 1
    assert dashboard.count(f'action="/web/cases/{broken["id"]}/retry"') == 1


def _labels(folder, stage_words: str) -> None:
    (folder / "test_web").mkdir(parents=True, exist_ok=True)
    (folder / "test_web" / "labels.json").write_text(json.dumps(
        {"processes": ["test_web"], "stages": {"EVALUATION": {"es": stage_words, "en": "Under review"}}}),
        encoding="utf-8")


def test_a_case_list_reads_the_label_files_once_and_the_next_request_sees_a_change(
        web, web_case, engine, monkeypatch, tmp_path):
    for _ in range(9):
        engine.execute(start_case, actor("clerk"), "test_web", start_variables())
    folder = tmp_path / "processes"
    _labels(folder, "En evaluación técnica")
    monkeypatch.setenv("TRAMITE_PROCESSES_DIR", str(folder))
    looked_up = []
    real_paths = procedure_labels._paths
    monkeypatch.setattr(procedure_labels, "_paths", lambda root: looked_up.append(root) or real_paths(root))
    boss = web("boss")
    looked_up.clear()
    html = boss.get("/web/cases")
    assert html.count("<td>En evaluación técnica</td>") == 10  # each row's stage in the procedure's words
    assert len(looked_up) == 1  # one look at the folder for the page, not one per row and label
    _labels(folder, "En revisión del comité")
    html = boss.get("/web/cases")
    assert html.count("<td>En revisión del comité</td>") == 10 and "En evaluación técnica" not in html


def test_the_inbox_pager_links_first_previous_next_and_last_not_every_page(web, web_case, engine):
    """As the case list's pager: with thousands of available tasks (a clerk's at 1,000,000 cases) a link per
    page was hundreds of links, and of url_for calls, on every inbox page."""
    for _ in range(60):  # with web_case's, 61 available tasks: 3 pages of 25
        engine.execute(start_case, actor("clerk"), "test_web", start_variables())
    reviewer = web("reviewer")

    def pager(path: str) -> str:
        html = reviewer.get(path)
        start = html.index('<nav class="pager"')
        return html[start:html.index("</nav>", start)]
    first = pager("/web/tasks")
    assert "Página 1 de 3" in first and 'rel="prev"' not in first
    assert first.count("available_page=") == 2  # next and last
    assert '<a href="/web/tasks?available_page=2" rel="next">siguiente ›</a>' in first
    assert '<a href="/web/tasks?available_page=3">última »</a>' in first
    middle = pager("/web/tasks?available_page=2")
    assert "Página 2 de 3" in middle and middle.count("available_page=") == 4
    assert '<a href="/web/tasks?available_page=1" rel="prev">‹ anterior</a>' in middle
    assert '<a href="/web/tasks?available_page=1">« primera</a>' in middle
    reviewer.client.get("/web/lang/en")
    assert reviewer.get("/web/tasks?available_page=3").count('data-task-id="') == 11
    last = pager("/web/tasks?available_page=3")
    assert "Page 3 of 3" in last and 'rel="next"' not in last and 'rel="prev">‹ previous</a>' in last


def test_the_work_page_pager_links_first_previous_next_and_last(web, web_case, engine):
    for _ in range(60):  # 61 open tasks: 3 pages of 25
        engine.execute(start_case, actor("clerk"), "test_web", start_variables())
    boss = web("boss")
    html = boss.get("/web/work?page=2")
    start = html.index('<nav class="pager"')
    pager = html[start:html.index("</nav>", start)]
    assert "Página 2 de 3" in pager and pager.count("page=") == 4
    assert '<a href="/web/work?page=1" rel="prev">‹ anterior</a>' in pager
    assert '<a href="/web/work?page=3" rel="next">siguiente ›</a>' in pager
