"""Process owner pages: versions with their running cases, deploying from the modeler, previews, diffs."""
from __future__ import annotations

import json

from tests.web.conftest import text_of
from tests.web.diagrams import EVALUATE, web_flow


def test_the_processes_page_lists_each_version_with_its_running_cases(web, web_case):
    html = web("owner").get("/web/processes")
    assert 'data-process="test_web"' in html and 'data-version="1"' in html
    assert "Abrir en el modelador" in html
    assert '<td class="num" data-running>1</td>' in html


def test_deploying_an_edited_diagram_makes_version_two_and_keeps_the_forms(web, web_case):
    owner = web("owner")
    assert 'data-base-version="1"' in owner.get("/web/processes/test_web/versions/1/edit")
    xml = owner.get("/web/processes/test_web/versions/1/bpmn")
    edited = xml.replace('name="Evaluar solicitud"', 'name="Evaluar la solicitud"')
    answer = owner.post_json("/web/processes/test_web/deploy", {"xml": edited, "forms": {}, "base_version": 1},
                             expect=201).get_json()
    assert answer["version"] == 2 and answer["created"] is True
    again = owner.post_json("/web/processes/test_web/deploy", {"xml": edited, "forms": {}, "base_version": 2},
                            expect=200).get_json()
    assert again == {**answer, "created": False, "edit_url": answer["edit_url"]}
    page = owner.get("/web/processes")
    assert 'data-version="2"' in page and "Evaluar la solicitud" in owner.get("/web/processes/test_web/versions/2/bpmn")
    assert "Evaluar solicitud" in owner.get("/web/processes/test_web/versions/1/bpmn")


def test_engine_refusals_name_the_offending_element(web, web_case):
    owner = web("owner")
    xml = owner.get("/web/processes/test_web/versions/1/bpmn")
    broken = xml.replace('<bpmn:userTask id="evaluate"', '<bpmn:userTask id="evaluate_new"') \
        .replace('"evaluate"', '"evaluate_new"').replace(">evaluate<", ">evaluate_new<")
    answer = owner.post_json("/web/processes/test_web/deploy", {"xml": broken, "base_version": 1},
                             expect=400).get_json()
    assert "USER_TASK_WITHOUT_FORM" in " ".join(answer["engine_errors"]["evaluate_new"])
    # The page's words: Spanish, the code left to `engine_errors`.
    assert answer["errors"]["evaluate_new"] == ["La tarea de usuario no tiene formulario."]
    assert answer["message"] == "No se pudo desplegar «test_web»: revise los elementos marcados."
    form = json.dumps(EVALUATE)
    fixed = owner.post_json("/web/processes/test_web/deploy",
                            {"xml": broken, "base_version": 1, "forms": {"evaluate_new.schema.json": form}},
                            expect=201).get_json()
    assert fixed["version"] == 2


def test_form_files_are_checked_by_name(web, web_case):
    owner = web("owner")
    xml = owner.get("/web/processes/test_web/versions/1/bpmn")
    answer = owner.post_json("/web/processes/test_web/deploy",
                             {"xml": xml, "forms": {"../evil.schema.json": "{}"}}, expect=400).get_json()
    assert answer["engine_errors"] == {"../evil.schema.json": ["UNSUPPORTED_FILE"]}
    assert answer["errors"] == {"../evil.schema.json": ["Solo se aceptan archivos .bpmn, .dmn y los formularios .json."]}


def test_the_form_preview_uses_the_task_form_renderer(web, web_case):
    owner = web("owner")
    html = owner.post_json("/web/forms/preview", {"schema": json.dumps(EVALUATE), "ui": "{}"}).get_data(as_text=True)
    assert 'name="recommendation"' in html and 'data-add-row' in html
    html = owner.post_json("/web/forms/preview", {"schema": "{nope", "ui": ""}).get_data(as_text=True)
    assert "field-errors" in html


def test_the_diff_lists_elements_added_removed_and_changed(web, engine, web_case):
    from engine.commands.deploy import deploy
    from tests.web.conftest import actor
    files = web_flow("Evaluar con cuidado")
    files["web.bpmn"] = files["web.bpmn"].replace("outcome = 'TIMED_OUT'", "outcome = 'LATE'")
    engine.execute(deploy, actor("owner"), "test_web", files)
    page = text_of(web("owner").get("/web/processes/test_web/diff?from=1&to=2"))
    assert "v1 frente a v2" in page and "cambiados: 2" in page
    assert "evaluate cambiado: nombre" in page and "late cambiado: script" in page


def test_the_diff_counts_a_changed_branch_condition(web, engine):
    """Issue 16: a changed condition showed "cambiados: 0 … Los elementos son iguales"."""
    from engine.commands.deploy import deploy
    from tests.procedures.farmer_registry.conftest import ADMISSION, MEMBERSHIP, farmer_files
    from tests.web.conftest import actor
    files = farmer_files()
    for key in (MEMBERSHIP, ADMISSION):
        engine.execute(deploy, actor("owner"), key, files)
    name = next(n for n in files if n.endswith("farmer_registry_admission.bpmn"))
    files[name] = files[name].replace("recommendation == 'admit'</", "recommendation in ('admit', 'admitir')</")
    engine.execute(deploy, actor("owner"), ADMISSION, files)
    page = text_of(web("owner").get(f"/web/processes/{ADMISSION}/diff?from=1&to=2"))
    assert "cambiados: 1" in page and "Los elementos son iguales" not in page
    assert "flow_recommend_admit cambiado: condición" in page


def test_the_owner_pages_are_for_owners(web, web_case):
    assert web("clerk").get("/web/processes/test_web/versions/1/edit", expect=403)
    web("boss").post_json("/web/forms/preview", {}, expect=403)
