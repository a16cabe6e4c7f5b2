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


def test_dates_and_days_left_follow_each_requests_language_and_show_puerto_rico_time(app):
    # The words are worked out once per process (api/web/i18n.py): what one language filled in
    # must not come back in another, and one instant written in two zones reads as one PR time.
    from flask_babel import force_locale

    from api.web import i18n
    due, now = "2024-04-26T04:00:00+00:00", "2024-04-22T12:00:00-04:00"
    with app.test_request_context("/web/"):
        seen = {}
        for language in ("es", "en", "es", "en"):
            with force_locale(language):
                words = (i18n.day("2024-04-22"), i18n.instant("2024-04-22T19:30:00+00:00"),
                         i18n.instant("2024-04-22T15:30:59.5-04:00"), i18n.days_left_text(due, now),
                         i18n.days_left_text("2024-04-20T04:00:00+00:00", now))
            assert seen.setdefault(language, words) == words
    assert seen["es"] == ("22 abr 2024", "22 abr 2024, 15:30", "22 abr 2024, 15:30", "quedan 4 días",
                          "vencida hace 2 días")
    assert seen["en"] == ("22 Apr 2024", "22 Apr 2024, 15:30", "22 Apr 2024, 15:30", "4 days left",
                          "overdue by 2 days")
