"""Each running deadline's arithmetic in words on the staff case page (issue 19), in the page's
language: Spanish on the Spanish page, English on the English one, holidays by their name in that
language. The API's deadlines keep the contract's shape, `explanation` in Spanish."""
from __future__ import annotations

from tests.procedures.farmer_registry.test_farmer_holidays import ORDER
from tests.web.conftest import text_of
from tests.web.farmer_fixture import far  # noqa: F401  (the fixture)


def _denied(far):
    case = far.complete(far.apply(name="Elena Ruiz", documents=[]), "evaluate_application",
                        {"recommendation": "deny", "findings": "Sin certificación"}, "far_evaluator")
    far.day("2024-04-02")
    return far.notify(case)


def _deadlines(browser, case_id) -> str:
    page = browser.get(f"/web/cases/{case_id}")
    return text_of(page.split('id="h-deadlines"', 1)[1].split("</section>", 1)[0])


def test_a_denial_window_rolled_past_a_holiday_is_explained_in_each_language(far, web):
    far.api.post("/api/v1/holidays", "admin", {"date": "2024-04-22", **ORDER}, expect=201)
    case = _denied(far)  # day 20 is Monday 22 April, a holiday: the last day is Tuesday 23 April
    boss = web("boss")
    spanish = _deadlines(boss, case["id"])
    assert ("Último día para actuar: martes 23 de abril de 2024. Se cuentan 20 días naturales desde el martes 2 de "
            "abril de 2024: ese día no cuenta y el último sí (TC-1). El día 20, lunes 22 de abril de 2024, es feriado "
            "(Cierre por orden ejecutiva): el plazo pasa al siguiente día laborable, martes 23 de abril de 2024 "
            "(TC-2).") in spanish
    boss.client.get("/web/lang/en")
    english = _deadlines(boss, case["id"])
    assert ("Last day to act: Tuesday, April 23, 2024. 20 calendar days are counted from Tuesday, April 2, 2024: that "
            "day does not count and the last one does (TC-1). Day 20, Monday, April 22, 2024, is a holiday (Closure by "
            "executive order): the term moves to the next business day, Tuesday, April 23, 2024 (TC-2).") in english
    assert "Se cuentan" not in english and "Cierre por orden" not in english
    # The API is the contract's shape, whichever language the page was read in: Spanish words, no other key.
    deadline = far.case(case["id"])["deadlines"][0]
    assert set(deadline) == {"name", "element_id", "due_at", "explanation"}
    assert deadline["explanation"].startswith("Último día para actuar: martes 23 de abril de 2024.")


def test_a_suspended_and_resumed_case_explains_the_move_in_each_language(far, web):
    case = _denied(far)  # last day Monday 22 April
    far.day("2024-04-10")
    far.api.post(f"/api/v1/instances/{case['id']}/suspend", "boss",
                 {"reason": "Certificación pendiente", "legal_basis": "LPAU, sección 3.13"})
    far.day("2024-04-15")  # 5 days: 22 April + 5 = Saturday 27 April → Monday 29 April
    far.api.post(f"/api/v1/instances/{case['id']}/resume", "boss")
    boss = web("boss")
    spanish = _deadlines(boss, case["id"])
    assert ("El caso estuvo suspendido 5 días naturales (reanudado el lunes 15 de abril de 2024): el último día pasó "
            "del lunes 22 de abril de 2024 al sábado 27 de abril de 2024, que cae en sábado, y de ahí al lunes 29 de "
            "abril de 2024 (TC-2).") in spanish
    boss.client.get("/web/lang/en")
    english = _deadlines(boss, case["id"])
    assert ("The case was suspended for 5 calendar days (resumed on Monday, April 15, 2024): the last day moved from "
            "Monday, April 22, 2024 to Saturday, April 27, 2024, which falls on a Saturday, and from there to Monday, "
            "April 29, 2024 (TC-2).") in english
    assert "suspendido" not in english


def test_the_parameter_page_says_how_many_running_deadlines_a_new_holiday_moves(far, web):
    case = _denied(far)  # last day Monday 22 April
    admin = web("admin")
    confirm = text_of(admin.post("/web/admin/parameters", {"name": "calendar.holidays", "value": '["2024-04-22"]'},
                                 expect=200).get_data(as_text=True))
    assert "1 caso en curso tiene un plazo que termina en un día añadido" in confirm
    assert [d["due_at"] for d in far.case(case["id"])["deadlines"]] == ["2024-04-23T04:00:00+00:00"]  # not yet
    saved = text_of(admin.post("/web/admin/parameters", {"name": "calendar.holidays", "value": '["2024-04-22"]',
                                                          "confirm": "1"}, expect=200, follow_redirects=True).get_data(as_text=True))
    assert "aplica ya, también a los casos en curso" in saved and "casos que empiecen desde ahora" not in saved
    assert [d["due_at"] for d in far.case(case["id"])["deadlines"]] == ["2024-04-24T04:00:00+00:00"]
    again = text_of(admin.post("/web/admin/parameters", {"name": "calendar.holidays", "value": '["2024-04-22"]'},
                               expect=200).get_data(as_text=True))
    assert "un plazo que termina en un día añadido" not in again
