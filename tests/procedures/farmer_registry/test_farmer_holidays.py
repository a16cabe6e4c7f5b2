"""The managed holiday calendar and a denied farmer's 20-day review window (FAR-12, TC-2, issue 19):
a managed holiday rolls the window and is named in its explanation, the `calendar.holidays`
parameter still counts beside it, and a holiday declared while the window runs moves it."""
from __future__ import annotations

from tests.procedures.farmer_registry.test_farmer_registry_review import denied_on

ORDER = {"name_es": "Cierre por orden ejecutiva", "name_en": "Closure by executive order",
         "legal_source": "Orden Ejecutiva OE-2024-000 (de prueba)"}


def add(far, day, **extra):
    return far.api.post("/api/v1/holidays", "admin", {"date": day, **ORDER, **extra}, expect=201)


def test_a_managed_holiday_on_day_20_rolls_the_window_and_the_explanation_names_it(far):
    add(far, "2024-04-22")  # notified 2 April: day 20 is Monday 22 April
    far.api.put("/api/v1/parameters/calendar.holidays", "admin", {"value": ["2024-04-23"]})  # the parameter counts too
    case = denied_on(far, "2024-04-02")
    assert case["variables"]["review_deadline"] == "2024-04-24"
    words = far.case(case["id"])["deadlines"][0]["explanation"]
    assert words.startswith("Último día para actuar: miércoles 24 de abril de 2024.")
    assert ("El día 20, lunes 22 de abril de 2024, es feriado (Cierre por orden ejecutiva), y el martes 23 de abril "
            "de 2024 es feriado: el plazo pasa al siguiente día laborable, miércoles 24 de abril de 2024 (TC-2).") in words
    # The denial letter names the same last day: the letter counts with the same calendar.
    letters = [e for e in far.history(case["id"]) if e["type"] == "letter_generated"]
    assert [e["data"]["remedy_last_day"] for e in letters] == ["2024-04-24"]


def test_the_letter_preview_counts_the_managed_holidays(far):
    from engine.queries import letters

    def review_last_day():
        found = far.engine.read(lambda s: [letter.remedy.last_day for kind in letters.previews(s, far.engine.now())
                                           if kind["kind"] == "denial" for letter in kind["letters"] if letter.remedy])
        return found[0]
    assert str(review_last_day()) == "2024-04-22"  # 1 April + 20 = Sunday 21 → Monday 22
    add(far, "2024-04-22")
    assert str(review_last_day()) == "2024-04-23"


def test_a_holiday_declared_while_the_window_runs_moves_its_last_day(far):
    case = denied_on(far, "2024-04-02")
    assert case["variables"]["review_deadline"] == "2024-04-22"
    far.day("2024-04-10")
    added = add(far, "2024-04-22")
    assert [(m["case_number"], m["element_id"], m["before"], m["after"]) for m in added["deadlines_moved"]] == [
        (case["case_number"], "review_deadline_passed", "2024-04-23T04:00:00+00:00", "2024-04-24T04:00:00+00:00")]
    moved = far.case(case["id"])
    assert moved["variables"]["review_deadline"] == "2024-04-23"
    assert [d["due_at"] for d in moved["deadlines"]] == ["2024-04-24T04:00:00+00:00"]
    assert ("El lunes 22 de abril de 2024 se declaró feriado (Cierre por orden ejecutiva) después de fijarse el plazo: "
            "el último día pasó al siguiente día laborable, martes 23 de abril de 2024 (TC-2).") \
        in moved["deadlines"][0]["explanation"]
    event = [e for e in far.history(case["id"]) if e["type"] == "deadline_holiday"]
    assert event[0]["actor"] == "admin" and event[0]["data"]["deadlines"][0]["after"] == "2024-04-24T04:00:00+00:00"
    far.day("2024-04-23")  # the new last day: a review request is timely, and the window did not close
    accepted = far.message(case["id"], "review_requested", {"documents": []})
    assert accepted["variables"]["review_accepted"] is True and accepted["stage"] == "UNDER_REVIEW"


def test_a_holiday_on_another_day_or_removed_later_leaves_the_window_as_it_was(far):
    case = denied_on(far, "2024-04-02")
    assert add(far, "2024-04-15")["deadlines_moved"] == []  # a day inside the 20 counts as a calendar day (TC-1)
    add(far, "2024-04-22")
    removed = far.api.call("DELETE", "/api/v1/holidays/2024-04-22", "admin", expect=200).get_json()
    assert removed["date"] == "2024-04-22"
    # Removing the day never shortens a last day already given: it stays Tuesday 23 April.
    assert far.case(case["id"])["variables"]["review_deadline"] == "2024-04-23"


def test_a_suspended_case_is_left_for_its_resumption(far):
    case = denied_on(far, "2024-04-02")
    far.day("2024-04-10")
    far.api.post(f"/api/v1/instances/{case['id']}/suspend", "boss",
                 {"reason": "Certificación pendiente", "legal_basis": "LPAU, sección 3.13"})
    assert add(far, "2024-04-22")["deadlines_moved"] == []
    add(far, "2024-05-02")
    far.day("2024-04-20")  # 10 days: 22 April + 10 = Thursday 2 May, now a holiday → Friday 3 May
    resumed = far.api.post(f"/api/v1/instances/{case['id']}/resume", "boss")
    assert [d["due_at"] for d in resumed["deadlines"]] == ["2024-05-04T04:00:00+00:00"]
    assert "al jueves 2 de mayo de 2024, que es feriado (Cierre por orden ejecutiva), y de ahí al viernes 3 de mayo" \
        in far.case(case["id"])["deadlines"][0]["explanation"]
