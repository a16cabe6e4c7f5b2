"""Direct tests of engine/rules/farmer_registry/periods.py (FAR-08, 12, 13, 15; AMB-14, 17; TC-1…3d).

TC-1: the last timely day of "within N days of E" is E+N; TC-2: a last day on a weekend rolls to the
next business day (the engine calendar hands it in). TC-3d: renewal due = admission + 2 years, a fixed
cycle, timely on the due day itself. AMB-17: a lapse sets RENEWAL_OVERDUE by default.
"""
from __future__ import annotations

from datetime import date

import pytest

from engine.rules.farmer_registry.periods import (
    FILING_DATE, FIXED_CYCLE, extra_documents_window, first_renewal_due, next_renewal_due, renewal_lapse,
    review_request_timely, review_window,
)

D = date.fromisoformat
REVIEW_RULES = ("FAR-12", "FAR-13", "AMB-14", "TC-1", "TC-2")
RENEWAL_RULES = ("FAR-15", "AMB-17", "TC-3", "TC-3d")


@pytest.mark.parametrize(("notified", "last", "nominal", "rolled"), [
    pytest.param("2024-04-02", "2024-04-22", "2024-04-22", False, id="FAR-12-TC-1-FAR-S07-day-20-monday"),
    pytest.param("2024-04-07", "2024-04-29", "2024-04-27", True, id="FAR-12-TC-2-saturday-rolls-to-monday"),
    pytest.param(date(2024, 4, 2), date(2024, 4, 22), "2024-04-22", False, id="FAR-12-date-objects"),
])
def test_review_window(notified, last, nominal, rolled):
    decision = review_window(notified, 20, last)
    assert decision.outcome == D(str(last))
    assert decision.rule_ids == REVIEW_RULES
    assert decision.details == {"review_deadline": D(str(last)), "nominal_last_day": D(nominal),
                                "rolled_forward": rolled}
    assert decision.inputs == {"denial_notified_on": D(str(notified)), "days": 20}


def test_review_window_refuses_a_last_day_before_day_20():
    with pytest.raises(ValueError):
        review_window("2024-04-02", 20, "2024-04-21")


@pytest.mark.parametrize(("filed", "deadline", "timely"), [
    pytest.param("2024-04-21", "2024-04-22", True, id="FAR-12-day-19"),
    pytest.param("2024-04-22", "2024-04-22", True, id="FAR-12-AMB-14-day-20-timely"),
    pytest.param("2024-04-23", "2024-04-22", False, id="FAR-13-AMB-14-FAR-S10-day-21-late"),
    pytest.param("2024-04-29", "2024-04-29", True, id="FAR-12-TC-2-rolled-deadline-itself"),
    pytest.param("2024-04-30", "2024-04-29", False, id="FAR-13-day-after-rolled-deadline"),
])
def test_review_request_timely(filed, deadline, timely):
    decision = review_request_timely(filed, deadline)
    assert decision.outcome is timely
    assert decision.rule_ids == ("FAR-12", "FAR-13", "AMB-14")
    assert decision.inputs == {"filed_on": D(filed), "review_deadline": D(deadline)}


@pytest.mark.parametrize(("requested", "last", "nominal", "rolled"), [
    pytest.param("2024-01-29", "2024-02-28", "2024-02-28", False, id="FAR-08-TC-1-30-days"),
    pytest.param("2024-03-08", "2024-04-08", "2024-04-07", True, id="FAR-08-TC-2-sunday-rolls"),
])
def test_extra_documents_window(requested, last, nominal, rolled):
    decision = extra_documents_window(requested, 30, last)
    assert decision.outcome == D(last)
    assert decision.rule_ids == ("FAR-08", "TC-1", "TC-2")
    assert decision.details == {"extra_docs_deadline": D(last), "nominal_last_day": D(nominal),
                                "rolled_forward": rolled}
    assert decision.inputs == {"requested_on": D(requested), "days": 30}


def test_extra_documents_window_refuses_a_short_window():
    with pytest.raises(ValueError):
        extra_documents_window("2024-01-29", 30, "2024-02-27")


@pytest.mark.parametrize(("admitted", "due"), [
    pytest.param("2024-02-05", "2026-02-05", id="FAR-15-TC-3d-FAR-S01"),
    pytest.param("2024-02-29", "2026-02-28", id="FAR-15-TC-3-29feb-to-28feb"),
    pytest.param("2023-12-31", "2025-12-31", id="FAR-15-year-end"),
])
def test_first_renewal_due(admitted, due):
    decision = first_renewal_due(admitted, 2)
    assert decision.outcome == D(due)
    assert decision.details == {"renewal_due": D(due)}
    assert decision.rule_ids == RENEWAL_RULES
    assert decision.inputs == {"admission_date": D(admitted), "renewal_years": 2}


@pytest.mark.parametrize(("registered", "due", "filed", "anchor", "new_due", "late"), [
    pytest.param("2024-02-05", "2026-02-05", "2026-02-05", FIXED_CYCLE, "2028-02-05", False,
                 id="FAR-15-TC-3d-FAR-S13a-filed-on-due-day"),
    pytest.param("2024-02-05", "2026-02-05", "2026-03-10", FIXED_CYCLE, "2028-02-05", True,
                 id="FAR-15-AMB-17-FAR-S13b-late-keeps-cycle"),
    pytest.param("2024-02-05", "2026-02-05", "2025-11-01", FIXED_CYCLE, "2028-02-05", False,
                 id="FAR-15-early-filing-keeps-cycle"),
    pytest.param("2024-02-05", "2028-02-05", "2028-01-15", FIXED_CYCLE, "2030-02-05", False,
                 id="FAR-15-TC-3d-second-renewal"),
    pytest.param("2024-02-29", "2026-02-28", "2026-02-20", FIXED_CYCLE, "2028-02-29", False,
                 id="FAR-15-TC-3d-29feb-admission-back-to-29feb-in-leap-year"),
    pytest.param("2024-02-29", "2028-02-29", "2028-02-29", FIXED_CYCLE, "2030-02-28", False,
                 id="FAR-15-TC-3d-29feb-admission-28feb-in-common-year"),
    pytest.param("2024-02-05", "2026-03-01", "2026-02-20", FIXED_CYCLE, "2028-03-01", False,
                 id="FAR-15-due-moved-off-cycle-advances-by-period"),
    pytest.param("2024-02-05", "2026-02-05", "2026-03-10", FILING_DATE, "2028-03-10", True,
                 id="FAR-15-AMB-17-filing-date-anchor"),
])
def test_next_renewal_due(registered, due, filed, anchor, new_due, late):
    decision = next_renewal_due(registered, due, 2, filed, anchor)
    assert decision.outcome == D(new_due)
    assert decision.rule_ids == RENEWAL_RULES
    assert decision.details == {"renewal_due": D(new_due), "filed_late": late}
    assert decision.inputs == {"registered_on": D(registered), "renewal_due": D(due), "renewal_years": 2,
                               "filed_on": D(filed), "anchor": anchor}


def test_next_renewal_due_refuses_an_unknown_anchor():
    with pytest.raises(ValueError):
        next_renewal_due("2024-02-05", "2026-02-05", 2, "2026-02-05", "PREVIOUS_DUE")


@pytest.mark.parametrize(("on_lapse", "status", "today", "overdue"), [
    pytest.param("SUSPEND_NOTIFICATIONS", "RENEWAL_OVERDUE", "2026-02-06", 1, id="FAR-15-AMB-17-FAR-S13b-default"),
    pytest.param("SUSPEND_NOTIFICATIONS", "RENEWAL_OVERDUE", "2026-03-02", 25, id="FAR-14-AMB-17-still-overdue"),
    pytest.param("NONE", "ACTIVE", "2026-02-06", 1, id="FAR-15-AMB-17-lapse-none"),
    pytest.param("REMOVE", "REMOVED", "2026-02-06", 1, id="FAR-15-AMB-17-lapse-remove"),
])
def test_renewal_lapse(on_lapse, status, today, overdue):
    decision = renewal_lapse("2026-02-05", today, on_lapse)
    assert decision.outcome == status
    assert decision.rule_ids == ("FAR-15", "FAR-14", "AMB-17")
    assert decision.details == {"registry_status": status, "days_overdue": overdue}
    assert decision.inputs == {"renewal_due": D("2026-02-05"), "today": D(today), "on_renewal_lapse": on_lapse}


def test_renewal_lapse_refuses_an_unknown_policy():
    with pytest.raises(ValueError):
        renewal_lapse("2026-02-05", "2026-02-06", "WITHDRAW")
