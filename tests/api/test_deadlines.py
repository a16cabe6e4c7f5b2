"""Legal deadlines: a 20-day boundary timer computed by the engine calendar, fired by clock moves."""
from tests.support.diagrams import deadline_flow, reminder_flow


def start_case(api):
    api.deploy("test_deadline", deadline_flow())
    return api.post("/api/v1/processes/test_deadline/instances", "clerk", {"variables": {}}, expect=201)


def test_day_20_on_a_sunday_rolls_to_monday_and_the_timer_fires_at_midnight_after(api):
    case = start_case(api)  # 2024-04-01, +20 days = Sunday 2024-04-21
    assert case["variables"]["review_last_day"] == "2024-04-22"
    assert case["deadlines"] == [{"name": "timeout", "element_id": "timeout",
                                  "due_at": "2024-04-23T04:00:00+00:00"}]
    review = api.open_task(case, "review")
    assert review["due_at"] == "2024-04-23T04:00:00+00:00"

    api.move_clock("2024-04-22T23:59:59-04:00")
    still = api.get(f"/api/v1/instances/{case['id']}", "boss")
    assert still["status"] == "active" and still["open_tasks"]

    api.move_clock("2024-04-23T00:00:00-04:00")
    late = api.get(f"/api/v1/instances/{case['id']}", "boss")
    assert late["outcome"] == "TIMED_OUT" and late["status"] == "completed"
    assert late["open_tasks"] == [] and late["deadlines"] == []
    fired = [e for e in api.get(f"/api/v1/instances/{case['id']}/history", "boss") if e["type"] == "timer_fired"]
    assert len(fired) == 1 and fired[0]["at"] == "2024-04-23T04:00:00+00:00"
    cancelled = api.get(f"/api/v1/tasks?scope=all&state=any&instance={case['id']}", "boss")
    assert [t["state"] for t in cancelled] == ["cancelled"]


def test_without_roll_forward_the_sunday_is_the_last_day(api):
    api.put("/api/v1/parameters/calendar.rollForwardNonBusinessDay", "admin", {"value": False})
    case = start_case(api)
    assert case["variables"]["review_last_day"] == "2024-04-21"
    assert case["deadlines"][0]["due_at"] == "2024-04-22T04:00:00+00:00"


def test_a_holiday_on_the_rolled_monday_rolls_again(api):
    api.put("/api/v1/parameters/calendar.holidays", "admin", {"value": ["2024-04-22"]})
    case = start_case(api)
    assert case["variables"]["review_last_day"] == "2024-04-23"


def test_review_done_in_time_cancels_the_deadline(api):
    case = start_case(api)
    api.move_clock("2024-04-22T10:00:00-04:00")
    review = api.open_task(case, "review")
    done = api.post(f"/api/v1/tasks/{review['id']}/complete", "reviewer", {"data": {}})
    assert done["instance"]["outcome"] == "REVIEWED" and done["instance"]["deadlines"] == []
    api.move_clock("2024-05-30T00:00:00-04:00")
    assert api.get(f"/api/v1/instances/{case['id']}", "boss")["outcome"] == "REVIEWED"


def test_the_clock_never_moves_backwards_and_only_admins_move_it(api):
    api.move_clock("2024-04-10T00:00:00-04:00")
    back = api.put("/api/v1/admin/clock", "admin", {"now": "2024-04-09T00:00:00-04:00"}, expect=409)
    assert back["errors"]["rule"] == ["CLOCK_BACKWARDS"]
    api.put("/api/v1/admin/clock", "boss", {"now": "2024-04-11T00:00:00-04:00"}, expect=403)
    api.put("/api/v1/admin/clock", "admin", {"now": "mañana"}, expect=422)
    clock = api.get("/api/v1/admin/clock", "clerk")
    assert clock == {"now": "2024-04-10T04:00:00+00:00", "mode": "manual"}


def test_overdue_filter_lists_cases_and_tasks_past_their_due_date(api):
    api.deploy("test_reminder", reminder_flow())
    late = api.post("/api/v1/processes/test_reminder/instances", "clerk", {"variables": {}}, expect=201)
    api.move_clock("2024-04-10T09:00:00-04:00")
    on_time = api.post("/api/v1/processes/test_reminder/instances", "clerk", {"variables": {}}, expect=201)
    assert api.get("/api/v1/instances?overdue=true", "boss") == []
    api.move_clock("2024-04-25T09:00:00-04:00")  # past the first case's deadline, not the second's
    assert [c["id"] for c in api.get("/api/v1/instances?overdue=true", "boss")] == [late["id"]]
    overdue = api.get("/api/v1/tasks?overdue=true", "reviewer")
    assert [t["instance_id"] for t in overdue] == [late["id"]]
    still = api.get(f"/api/v1/instances/{late['id']}", "boss")
    assert still["variables"]["reminder_sent"] is True and still["open_tasks"][0]["element_id"] == "review"
    assert on_time["id"] not in [c["id"] for c in api.get("/api/v1/instances?overdue=true", "boss")]
