"""Why a case was decided, from the pages alone: every decision and refusal in Spanish sentences with
the values used, the threshold, and the rule's text and article on expand (issue 16 item 7)."""
from __future__ import annotations

import html as html_lib

from tests.procedures.farmer_registry.conftest import document, far  # noqa: F401  (far: the farmer scenario)
from tests.web.conftest import text_of

SHARE_30 = ("La actividad agrícola aporta 30 % del ingreso bruto anual ($12,000.00 de $40,000.00); "
            "el mínimo es 50 %.")


def page_text(html: str) -> str:
    return html_lib.unescape(text_of(html))


def open_task(far, case, element_id):
    return next(t for t in far.case(case["id"])["open_tasks"] if t["element_id"] == element_id)


def test_the_case_page_reads_a_denial_as_sentences_with_the_rule_text_on_expand(far, web):
    case = far.apply(activity="12000.00")
    html = web("boss").get(f"/web/cases/{case['id']}")
    page = page_text(html)
    assert "La solicitud no cumple todos los requisitos: procede denegar el ingreso al Registro." in page
    assert SHARE_30 in page
    assert "El solicitante es agricultor, un tipo de productor admitido" in page
    # The rule's article and the law's own words are one click away, from RULES.md's data.
    assert '<details class="rule-articles">' in html
    assert "FAR-04 — Reglamento de la Comisión (000); Ley de agricultores" in page
    assert "«siendo ella por lo menos el cincuenta (50) por ciento de su ingreso bruto anual»" in page
    assert "assess_eligibility: False" not in page
    why = html[html.index('id="h-why"'):html.index('id="h-history"')]
    assert SHARE_30 in page_text(why) and "Verificar los requisitos" in why


def test_the_case_page_in_english_reads_the_same_reasons_in_english(far, web):
    case = far.apply(activity="12000.00")
    boss = web("boss")
    boss.get("/web/lang/en", expect=302)
    page = page_text(boss.get(f"/web/cases/{case['id']}"))
    assert ("The farming activity brings only 30 % of the gross annual income ($12,000.00 of $40,000.00); "
            "the minimum is 50 %.") in page
    assert "FAR-04 — Regulation of the Comisión (000)" in page


def test_the_evaluator_sees_why_the_application_is_not_eligible_beside_the_form(far, web):
    case = far.apply(activity="12000.00")
    task = open_task(far, case, "evaluate_application")
    page = page_text(web("far_evaluator").get(f"/web/tasks/{task['id']}"))
    assert SHARE_30 in page


def test_a_refused_admission_shows_every_reason_in_words_not_only_the_first(far, web):
    case = far.apply(activity="12000.00", documents=[document("fomento_economico", issuer="Fomento")])
    task = open_task(far, case, "evaluate_application")
    evaluator = web("far_evaluator")
    response = evaluator.post(f"/web/tasks/{task['id']}", {"recommendation": "admit", "findings": "Revisado"},
                              expect=422)
    page = page_text(response.get_data(as_text=True))
    assert "Una regla rechazó la acción" in page
    assert "La actividad agrícola aporta 30 % del ingreso bruto anual ($12,000.00 de $40,000.00)." in page
    assert "La certificación presentada (Fomento) no vale para agricultor." in page
    # The refusal is in the history too, with all its reasons.
    history = page_text(web("boss").get(f"/web/cases/{case['id']}"))
    assert history.count("La certificación presentada (Fomento) no vale para agricultor") >= 2


def test_a_late_review_request_says_when_it_came_and_the_last_day_on_the_message_page(far, web):
    far.rewind_clock_to("2024-03-25")
    case = far.evaluate(far.apply(activity="12000.00"), "deny")
    far.day("2024-04-02")
    case = far.notify(case)
    far.day("2024-04-23")
    response = web("far_clerk").post(f"/web/cases/{case['id']}/messages/review_requested", {}, expect=409)
    page = page_text(response.get_data(as_text=True))
    assert ("La solicitud de revisión llegó el 23 de abril de 2024, fuera de plazo: el último día era el "
            "22 de abril de 2024") in page


def test_the_api_keeps_the_first_code_under_errors_rule_and_gives_every_reason_in_its_message(far):
    case = far.apply(activity="12000.00", documents=[document("fomento_economico", issuer="Fomento")])
    refused = far.evaluate(case, "admit", expect=422)
    assert refused["errors"]["rule"] == ["INCOME_SHARE_BELOW_THRESHOLD"]
    assert "The farming activity brings only 30 % of the gross annual income" in refused["message"]
    assert "does not count for a farmer" in refused["message"] and "(FAR-06, FAR-07, AMB-18)" in refused["message"]
    history = far.history(case["id"])
    [kept] = [e for e in history if e["type"] == "task_refused"]
    assert [r["code"] for r in kept["data"]["reasons"]] == ["INCOME_SHARE_BELOW_THRESHOLD",
                                                            "CERTIFICATION_INVALID_FOR_TYPE"]
    [decided] = [e for e in history if e["type"] == "decision" and e["data"]["rule"] == "assess_eligibility"]
    assert decided["message"] == "La solicitud no cumple todos los requisitos: procede denegar el ingreso al Registro."
    share = next(r for r in decided["data"]["why"]["reasons"] if r["code"] == "INCOME_SHARE_BELOW_THRESHOLD")
    assert share["values"]["min_share_pct"] == "50.00" and share["threshold"]["name"] == "min_share_pct"
