"""The process owner's migration pages (issue 20): preview which cases move and which cannot, run
it, read the summary; the preview is what the run does."""
from __future__ import annotations

from tests.web.conftest import text_of


def _version_two(owner):
    xml = owner.get("/web/processes/test_web/versions/1/bpmn")
    edited = xml.replace('name="Evaluar solicitud"', 'name="Evaluar la solicitud"')
    answer = owner.post_json("/web/processes/test_web/deploy", {"xml": edited, "forms": {}, "base_version": 1},
                             expect=201).get_json()
    return answer["version"]


def test_preview_then_run_moves_the_running_case_and_says_so(web, web_case):
    owner = web("owner")
    assert _version_two(owner) == 2
    processes = owner.get("/web/processes")
    assert "Migrar casos a v2" in processes
    page = owner.get("/web/processes/test_web/migrate?from=1&to=2")
    assert "Vista previa" in page and "1 caso en curso" in text_of(page)
    preview = owner.post("/web/processes/test_web/migrate", {"from": "1", "to": "2", "action": "preview"},
                         expect=200).get_data(as_text=True)
    assert "se migrarían: 1" in text_of(preview) and web_case["case_number"] in preview
    assert f'data-ids="{web_case["id"]}"' in preview
    done = owner.post("/web/processes/test_web/migrate", {"from": "1", "to": "2", "action": "run",
                                                          "reason": "Corrige el nombre de la tarea"},
                      expect=200).get_data(as_text=True)
    assert "migrados: 1" in text_of(done) and "bloqueados: 0" in text_of(done)
    again = owner.post("/web/processes/test_web/migrate", {"from": "1", "to": "2", "action": "preview"},
                       expect=200).get_data(as_text=True)
    assert "se migrarían: 0" in text_of(again)


def test_a_batch_from_the_page_runs_and_bad_mappings_are_refused(web, web_case):
    owner = web("owner")
    _version_two(owner)
    batch = owner.post_json("/web/processes/test_web/migrate/batch",
                            {"from": 1, "to": 2, "ids": [web_case["id"]], "mapping": ""}).get_json()
    assert batch["migrated"] == [{"id": web_case["id"], "case_number": web_case["case_number"]}]
    refused = owner.post("/web/processes/test_web/migrate", {"from": "1", "to": "2", "action": "preview",
                                                             "mapping": "solo-una-palabra"}, expect=422)
    assert "id_anterior = id_nuevo" in refused.get_data(as_text=True)
    web("clerk").get("/web/processes/test_web/migrate", expect=403)
    summary = owner.post("/web/processes/test_web/migrate", {
        "from": "1", "to": "2", "action": "summary", "summary_migrated": str(web_case["id"]),
        "summary_blocked": "[]"}, expect=200).get_data(as_text=True)
    assert "migrados: 1" in text_of(summary)


def test_a_supervisor_moves_a_case_from_its_page_and_a_refusal_says_why(web, web_case):
    boss = web("boss")
    page = boss.get(f"/web/cases/{web_case['id']}")
    assert "Mover el caso a otro paso" in page and 'name="from_element"' in page
    web("clerk").post(f"/web/cases/{web_case['id']}/move", {"from_element": "evaluate", "to_element": "evaluate",
                                                          "reason": "x"}, expect=403)
    boss.post(f"/web/cases/{web_case['id']}/move", {"from_element": "evaluate", "to_element": "start",
                                                   "reason": "x"})
    refused = boss.get(f"/web/cases/{web_case['id']}")
    assert "evento de inicio o de borde" in refused
    boss.post(f"/web/cases/{web_case['id']}/move", {"from_element": "evaluate", "to_element": "evaluate",
                                                   "reason": "Reabrir la evaluación"})
    moved = text_of(boss.get(f"/web/cases/{web_case['id']}"))
    assert "Caso movido" in moved and "Reabrir la evaluación" in moved
