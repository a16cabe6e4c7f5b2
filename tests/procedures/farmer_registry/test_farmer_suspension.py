"""A denied farmer's 20-day review window (FAR-12) does not close while the case is suspended, and
after the resumption it closes the suspended days later (issue 19)."""
from __future__ import annotations

from tests.procedures.farmer_registry.test_farmer_registry_review import denied_on

ORDER = {"reason": "Certificación del Departamento de Hacienda pendiente",
         "legal_basis": "Sección 3.13 de la LPAU (Ley 38-2017)"}


def test_the_review_window_stays_open_while_suspended_and_closes_the_days_later(far):
    case = denied_on(far, "2024-04-02")  # window: through 22 April (timer at 00:00 on the 23rd)
    far.day("2024-04-10")
    far.api.post(f"/api/v1/instances/{case['id']}/suspend", "boss", ORDER)
    far.day("2024-05-10")  # the 20 days would long be over
    held = far.case(case["id"])
    assert held["status"] == "active" and held["outcome"] is None and held["suspension"]["reason"] == ORDER["reason"]
    resumed = far.api.post(f"/api/v1/instances/{case['id']}/resume", "boss")
    # 30 days suspended (10 April → 10 May): 22 April + 30 = 22 May, a Wednesday.
    assert [d["due_at"] for d in resumed["deadlines"]] == ["2024-05-23T04:00:00+00:00"]
    far.day("2024-05-22")
    accepted = far.message(case["id"], "review_requested", {"documents": []})
    assert accepted["variables"]["review_accepted"] is True and accepted["stage"] == "UNDER_REVIEW"


def test_after_the_moved_window_a_review_request_is_untimely(far):
    case = denied_on(far, "2024-04-02")
    far.day("2024-04-10")
    far.api.post(f"/api/v1/instances/{case['id']}/suspend", "boss", {**ORDER, "until": "2024-04-14"})
    far.day("2024-04-29")  # resumed by itself at 00:00 on the 15th: 5 days → window through 27 April (Sat) → 29
    assert far.case(case["id"])["status"] == "active"
    far.day("2024-04-30")
    refused = far.message(case["id"], "review_requested", {"documents": []}, expect=409)
    assert refused["errors"]["rule"] == ["UNTIMELY_REVIEW_REQUEST"]


def test_each_deadline_explains_its_arithmetic_with_the_suspension(far):
    far.api.put("/api/v1/parameters/calendar.holidays", "admin", {"value": ["2024-05-27"]})
    case = denied_on(far, "2024-04-02")
    first = far.case(case["id"])["deadlines"][0]["explanation"]
    assert first.startswith("Último día para actuar: lunes 22 de abril de 2024.")
    assert "Se cuentan 20 días naturales desde el martes 2 de abril de 2024" in first and "(TC-1)" in first
    far.day("2024-04-10")
    far.api.post(f"/api/v1/instances/{case['id']}/suspend", "boss", ORDER)
    far.day("2024-05-15")  # 35 days: 22 April + 35 = Monday 27 May, a holiday → Tuesday 28 May
    far.api.post(f"/api/v1/instances/{case['id']}/resume", "boss")
    words = far.case(case["id"])["deadlines"][0]["explanation"]
    assert words.startswith("Último día para actuar: martes 28 de mayo de 2024.")
    assert "suspendido 35 días naturales (reanudado el miércoles 15 de mayo de 2024)" in words
    assert "al lunes 27 de mayo de 2024, que es feriado, y de ahí al martes 28 de mayo de 2024 (TC-2)" in words
