"""A holiday typed into the `calendar.holidays` parameter while a denied farmer's 20-day review window
runs moves it as a holiday added to the managed calendar does (issue 19, TC-2): once, with the
history's before and after, and taking the day out again never makes the last day earlier."""
from __future__ import annotations

from tests.procedures.farmer_registry.test_farmer_registry_review import denied_on

WINDOW = "review_deadline_passed"


def put_holidays(far, days):
    return far.api.put("/api/v1/parameters/calendar.holidays", "admin", {"value": days})


def moves(far, case_id):
    return [(m["element_id"], m["before"], m["after"]) for e in far.history(case_id) if e["type"] == "deadline_holiday"
            for m in e["data"]["deadlines"]]


def test_a_day_added_to_the_parameter_moves_the_running_window_once(far):
    case = denied_on(far, "2024-04-02")  # day 20 is Monday 22 April
    assert [d["due_at"] for d in far.case(case["id"])["deadlines"]] == ["2024-04-23T04:00:00+00:00"]
    far.day("2024-04-10")
    put_holidays(far, ["2024-04-22"])
    moved = far.case(case["id"])
    assert [d["due_at"] for d in moved["deadlines"]] == ["2024-04-24T04:00:00+00:00"]
    assert moved["variables"]["review_deadline"] == "2024-04-23"
    assert moves(far, case["id"]) == [(WINDOW, "2024-04-23T04:00:00+00:00", "2024-04-24T04:00:00+00:00")]
    event = [e for e in far.history(case["id"]) if e["type"] == "deadline_holiday"][0]
    assert event["actor"] == "admin" and event["data"]["source"] == "calendar.holidays"
    assert ("El lunes 22 de abril de 2024 se declaró feriado después de fijarse el plazo: el último día pasó al "
            "siguiente día laborable, martes 23 de abril de 2024 (TC-2).") in moved["deadlines"][0]["explanation"]
    # The same value again, or another day beside it, does not move the window a second time.
    put_holidays(far, ["2024-04-22"])
    put_holidays(far, ["2024-04-22", "2024-07-04"])
    assert len(moves(far, case["id"])) == 1
    assert [d["due_at"] for d in far.case(case["id"])["deadlines"]] == ["2024-04-24T04:00:00+00:00"]
    # Taken out again, the day leaves the last day as it was given: never earlier.
    put_holidays(far, [])
    assert [d["due_at"] for d in far.case(case["id"])["deadlines"]] == ["2024-04-24T04:00:00+00:00"]
    assert len(moves(far, case["id"])) == 1
    far.day("2024-04-23")  # the new last day: a review request is timely, the window did not close
    accepted = far.message(case["id"], "review_requested", {"documents": []})
    assert accepted["variables"]["review_accepted"] is True


def test_a_parameter_day_already_in_the_managed_calendar_or_inside_the_count_moves_nothing(far):
    case = denied_on(far, "2024-04-02")
    put_holidays(far, ["2024-04-15"])  # a day inside the 20 counts as a calendar day (TC-1)
    assert moves(far, case["id"]) == []
    far.api.post("/api/v1/holidays", "admin", {"date": "2024-04-22", "name_es": "Cierre", "legal_source": "OE"},
                 expect=201)
    assert len(moves(far, case["id"])) == 1  # the calendar moved it
    put_holidays(far, ["2024-04-15", "2024-04-22"])  # the same day typed in the parameter too
    assert len(moves(far, case["id"])) == 1
    assert [d["due_at"] for d in far.case(case["id"])["deadlines"]] == ["2024-04-24T04:00:00+00:00"]


def test_the_parameter_change_records_the_deadlines_it_moved(far):
    case = denied_on(far, "2024-04-02")
    put_holidays(far, ["2024-04-22"])
    changed = far.engine.read(lambda s: [e.data for e in s.scalars(_parameter_changes())])
    assert changed[-1]["deadlines_moved"] == [{"case_number": case["case_number"], "element_id": WINDOW,
                                               "name": "Vence el plazo de revisión", "before": "2024-04-23T04:00:00+00:00",
                                               "after": "2024-04-24T04:00:00+00:00"}]


def _parameter_changes():
    from sqlalchemy import select

    from engine.persistence.models import AuditEvent
    return select(AuditEvent).where(AuditEvent.type == "parameter_changed").order_by(AuditEvent.id)
