"""A deadline shows the last day to act (issue 16, item 10): the review window of a denial
notified on 2 April 2024 ends with 22 April, though its timer is due 23 April 00:00."""
from __future__ import annotations

import re

from tests.web.conftest import text_of
from tests.web.farmer_fixture import far  # noqa: F401  (the fixture)


def test_the_case_page_shows_the_last_day_of_the_review_window_not_the_next_midnight(far, web):
    case = far.complete(far.apply(name="Elena Ruiz", documents=[]), "evaluate_application",
                        {"recommendation": "deny", "findings": "Sin certificación"}, "far_evaluator")
    far.day("2024-04-02")
    case = far.notify(case)
    assert case["deadlines"][0]["due_at"] == "2024-04-23T04:00:00+00:00"
    far.day("2024-04-20")
    page = web("boss").get(f"/web/cases/{case['id']}")
    deadlines = text_of(page.split('id="h-deadlines"', 1)[1].split("</section>", 1)[0])
    assert "último día 22 abr 2024" in deadlines and "23 abr" not in deadlines
    assert "quedan 2 días" in deadlines
    far.day("2024-04-22")
    deadlines = text_of(web("boss").get(f"/web/cases/{case['id']}").split('id="h-deadlines"', 1)[1])
    assert "vence hoy" in deadlines.split("</section>", 1)[0]


def test_a_deadline_with_an_hour_names_it(app):
    from api.web import deadlines
    with app.test_request_context("/web/"):
        assert deadlines.last_day("2024-04-23T04:00:00+00:00") == "22 abr 2024"
        assert deadlines.last_day("2024-04-22T19:30:00+00:00") == "22 abr 2024, hasta las 15:30"
        assert re.fullmatch(r"vence hoy", deadlines.days_to_act("2024-04-23T04:00:00+00:00",
                                                                 "2024-04-22T23:00:00-04:00"))
