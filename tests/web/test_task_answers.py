"""Each task's answers are that task's (issue 16, item 9): the review board's form does not start
with the evaluator's findings, and the case page and history show who said what."""
from __future__ import annotations

import re

from tests.support import bpmn as b
from tests.web.conftest import text_of
from tests.web.farmer_fixture import far  # noqa: F401  (the fixture)


def _at_the_board(far):
    """The issue's case: the evaluator recommends denying, the denial is notified, a review is asked."""
    case = far.apply(name="Elena Ruiz", documents=[])
    case = far.complete(case, "evaluate_application",
                        {"recommendation": "deny", "findings": "Falta la certificación del Secretario"},
                        "far_evaluator")
    case = far.notify(case)
    return far.message(case["id"], "review_requested", {"documents": []})


def _answer(page: str, element_id: str) -> str:
    found = re.search(rf'<li class="task-answer"[^>]*data-element="{element_id}".*?</li>', page, re.S)
    assert found, f"no answers of {element_id} on the page"
    return text_of(found.group(0))


def test_the_boards_form_starts_empty_and_both_recommendations_stay_with_their_authors(far, web):
    case = _at_the_board(far)
    hearing = far.api.open_task(case, "review_hearing")

    board = web("far_board")
    page = board.get(f"/web/tasks/{hearing['id']}")
    form = page.split('class="task-form"', 1)[1].split("</form>", 1)[0]
    assert "Falta la certificación del Secretario" not in form  # the evaluator's findings are not the board's
    assert not re.search(r'name="recommendation"[^>]*checked', form)
    # ...but the board reads them, as the evaluator's.
    assert "Falta la certificación del Secretario" in _answer(page, "evaluate_application")
    assert "far_evaluator" in _answer(page, "evaluate_application")
    detail = far.api.get(f"/api/v1/tasks/{hearing['id']}", "far_board")
    assert detail["data"]["prefill"] == {}
    assert [a["element_id"] for a in detail["data"]["answers"]] == ["evaluate_application", "notify_denial"]

    board.post(f"/web/tasks/{hearing['id']}", {"recommendation": "admit", "findings": "Presentó la certificación"})
    case = far.review_decision(far.case(case["id"]), "admit")
    assert case["outcome"] == "ADMITTED"

    page = web("boss").get(f"/web/cases/{case['id']}")
    evaluator, hearing_said = _answer(page, "evaluate_application"), _answer(page, "review_hearing")
    assert "far_evaluator" in evaluator and "Recomendación Denegar" in evaluator
    assert "Falta la certificación del Secretario" in evaluator
    assert "far_board" in hearing_said and "Recomendación Admitir al Registro" in hearing_said
    assert "Presentó la certificación" in hearing_said
    # The variables no longer show a bare "Recomendación" that one of them gave.
    facts = text_of(page.split('id="h-facts"', 1)[1].split("</dl>", 1)[0])
    assert "Recomendación" not in facts
    # The history names each answer with that task's labels.
    history = page.split('id="h-history"', 1)[1]
    assert "Admitir al Registro" in text_of(history) and "Denegar" in text_of(history)


def _shared_field_flow():
    """A stranger's diagram: two people, one after the other, each asked for a `comment`."""
    xml = b.diagram("shared_comment", lanes={"test_clerk": ["start", "first"], "test_reviewer": ["second", "end"]},
                    nodes=[b.start(), b.user("first", "Primera opinión"), b.user("second", "Segunda opinión"),
                           b.end()],
                    flows=b.chain("start", "first", "second", "end"))
    comment = b.form({"comment": {"type": "string", "title": "Comentario"}})
    return {"shared.bpmn": xml, "first.schema.json": comment, "second.schema.json": comment}


def test_a_strangers_two_tasks_sharing_a_field_keep_their_own_answers(api, web):
    api.deploy("shared_comment", _shared_field_flow())
    case = api.post("/api/v1/processes/shared_comment/instances", "clerk", {"variables": {}}, expect=201)
    first = api.open_task(case, "first")
    api.post(f"/api/v1/tasks/{first['id']}/complete", "clerk", {"data": {"comment": "lo dijo el primero"}})
    second = api.open_task(api.get(f"/api/v1/instances/{case['id']}", "clerk"), "second")

    page = web("reviewer").get(f"/web/tasks/{second['id']}")
    form = page.split('class="task-form"', 1)[1].split("</form>", 1)[0]
    assert "lo dijo el primero" not in form
    assert "lo dijo el primero" in _answer(page, "first")
    web("reviewer").post(f"/web/tasks/{second['id']}", {"comment": "lo dijo el segundo"})

    page = web("boss").get(f"/web/cases/{case['id']}")
    assert "lo dijo el primero" in _answer(page, "first") and "clerk" in _answer(page, "first")
    assert "lo dijo el segundo" in _answer(page, "second") and "reviewer" in _answer(page, "second")
    completed = api.get(f"/api/v1/tasks?scope=all&state=completed&instance={case['id']}", "boss")
    assert {t["element_id"] for t in completed} == {"first", "second"}
    said = api.get(f"/api/v1/tasks/{first['id']}", "boss")["data"]["submitted"]
    assert said == {"comment": "lo dijo el primero"}


def test_a_task_met_again_in_a_loop_starts_with_its_own_earlier_answer(api, web):
    """A value the same task gave before is its own: prefilled (and a script's value is the case's)."""
    api.deploy("shared_comment", _shared_field_flow())
    case = api.post("/api/v1/processes/shared_comment/instances", "clerk",
                    {"variables": {"comment": "escrito al iniciar"}}, expect=201)
    first = api.open_task(case, "first")
    page = web("clerk").get(f"/web/tasks/{first['id']}")
    assert "escrito al iniciar" in page.split('class="task-form"', 1)[1].split("</form>", 1)[0]


def test_an_answer_that_is_one_record_reads_as_its_labelled_fields_never_as_json(api, web):
    """The bid board's complaint (a record: who complained, the hearing, what was found) read as
    `{"complainant_id": …}` on the case page (issue 16): each field reads by the form's label."""
    xml = b.diagram("one_record", lanes={"test_clerk": ["start", "first", "end"]},
                    nodes=[b.start(), b.user("first", "Anotar la querella"), b.end()],
                    flows=b.chain("start", "first", "end"))
    complaint = b.form(optional={"complaint": {
        "type": ["object", "null"], "title": "Querella", "default": None,
        "properties": {"complainant_id": {"type": "string", "title": "Licitador querellante"},
                       "hearing_date": {"type": ["string", "null"], "format": "date", "title": "Fecha de la vista"},
                       "malicious": {"type": "boolean", "title": "Fue maliciosa"}}}})
    api.deploy("one_record", {"one.bpmn": xml, "first.schema.json": complaint})
    case = api.post("/api/v1/processes/one_record/instances", "clerk", {"variables": {}}, expect=201)
    first = api.open_task(case, "first")
    api.post(f"/api/v1/tasks/{first['id']}/complete", "clerk", {"data": {"complaint": {
        "complainant_id": "RL-4103", "hearing_date": "2024-04-22", "malicious": True}}})

    said = _answer(web("boss").get(f"/web/cases/{case['id']}"), "first")
    assert "Licitador querellante: RL-4103" in said and "Fue maliciosa: Sí" in said
    assert "Fecha de la vista: 22 abr 2024" in said
    assert "complainant_id" not in said and "{" not in said
