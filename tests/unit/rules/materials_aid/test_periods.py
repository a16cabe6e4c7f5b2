"""Direct tests of engine/rules/materials_aid/periods.py (MAT-11, 19, 28, 30, 36, 37; AMB-24, 27…30, 37).

TC-1: E+N is the last timely day (30 days for documents, 120 of use, extensions from the deadline
they extend); TC-2: the engine calendar hands in the rolled day. TC-3b: valid E … E+1y−1 day.
TC-3a: the reapply bar lifts on the anniversary. AMB-37: the priority exemption needs a new event.
"""
from __future__ import annotations

from datetime import date

import pytest

from engine.rules.materials_aid.periods import (
    application_validity, documents_deadline, extended_use_deadline, priority_rank, reapply_bar, use_deadline,
    visit_not_before,
)

D = date.fromisoformat
USE_RULES = ("MAT-36", "AMB-27", "TC-1", "TC-2")


@pytest.mark.parametrize(("requested", "last", "nominal", "rolled"), [
    pytest.param("2024-01-08", "2024-02-07", "2024-02-07", False, id="MAT-11-TC-1-MAT-S01"),
    pytest.param("2024-05-06", "2024-06-05", "2024-06-05", False, id="MAT-11-MAT-S04-day-30"),
    pytest.param("2024-03-08", "2024-04-08", "2024-04-07", True, id="MAT-11-TC-2-sunday-rolls"),
])
def test_documents_deadline(requested, last, nominal, rolled):
    decision = documents_deadline(requested, 30, last)
    assert decision.outcome == D(last)
    assert decision.rule_ids == ("MAT-09", "MAT-11", "AMB-24", "TC-1", "TC-2")
    assert decision.inputs == {"docs_requested_on": D(requested), "days": 30}
    assert decision.details == {"nominal_last_day": D(nominal), "rolled_forward": rolled}


@pytest.mark.parametrize("function", [documents_deadline, use_deadline, extended_use_deadline])
def test_a_last_day_before_the_nominal_day_is_refused(function):
    with pytest.raises(ValueError):
        function("2024-01-08", 30, "2024-02-06")


@pytest.mark.parametrize(("delivered", "last", "nominal", "rolled"), [
    pytest.param("2024-03-28", "2024-07-26", "2024-07-26", False, id="MAT-36-AMB-27-MAT-S01-120-days"),
    pytest.param("2024-04-01", "2024-07-30", "2024-07-30", False, id="MAT-36-MAT-S13-original"),
    pytest.param("2024-03-09", "2024-07-08", "2024-07-07", True, id="MAT-36-TC-2-sunday-rolls"),
])
def test_use_deadline(delivered, last, nominal, rolled):
    decision = use_deadline(delivered, 120, last)
    assert decision.outcome == D(last)
    assert decision.rule_ids == USE_RULES
    assert decision.inputs == {"delivered_on": D(delivered), "days": 120}
    assert decision.details == {"nominal_last_day": D(nominal), "rolled_forward": rolled}


@pytest.mark.parametrize(("current", "days", "last", "rolled"), [
    pytest.param("2024-07-30", 45, "2024-09-13", False, id="MAT-36-AMB-27-MAT-S13-45-days"),
    pytest.param("2024-07-30", 46, "2024-09-16", True, id="MAT-36-TC-2-saturday-rolls"),
    pytest.param("2024-07-30", 365, "2025-07-30", False, id="MAT-36-AMB-27-no-cap"),
])
def test_extended_use_deadline(current, days, last, rolled):
    decision = extended_use_deadline(current, days, last)
    assert decision.outcome == D(last)
    assert decision.rule_ids == USE_RULES
    assert decision.inputs == {"current_use_deadline": D(current), "days": days}
    assert decision.details["rolled_forward"] is rolled


@pytest.mark.parametrize(("filed", "through", "expires"), [
    pytest.param("2024-01-22", "2025-01-21", "2025-01-22", id="MAT-37-TC-3b-MAT-S01"),
    pytest.param("2024-03-04", "2025-03-03", "2025-03-04", id="MAT-37-AMB-29-MAT-S16"),
    pytest.param("2024-02-29", "2025-02-27", "2025-02-28", id="MAT-37-TC-3-29feb"),
    pytest.param("2023-03-01", "2024-02-29", "2024-03-01", id="MAT-37-leap-day-inside"),
])
def test_application_validity(filed, through, expires):
    decision = application_validity(filed, 1)
    assert decision.outcome == D(through)
    assert decision.details == {"expires_on": D(expires)}
    assert decision.rule_ids == ("MAT-37", "AMB-29", "TC-3b")
    assert decision.inputs == {"filing_date": D(filed), "years": 1}


@pytest.mark.parametrize(("deadline", "first"), [
    pytest.param("2024-07-26", "2024-07-27", id="MAT-19-MAT-S01"),
    pytest.param("2024-09-13", "2024-09-14", id="MAT-19-MAT-S13-after-extension"),
    pytest.param("2024-12-31", "2025-01-01", id="MAT-19-year-end"),
])
def test_visit_not_before(deadline, first):
    decision = visit_not_before(deadline)
    assert decision.outcome == D(first)
    assert decision.rule_ids == ("MAT-19", "MAT-36")
    assert decision.inputs == {"use_deadline": D(deadline), "visit_on_completion_notice": False}


ORDER = [["disaster", "structural_risk"], ["none"]]


@pytest.mark.parametrize(("kind", "order", "rank"), [
    pytest.param("disaster", ORDER, 1, id="MAT-28-AMB-30-disaster"),
    pytest.param("structural_risk", ORDER, 1, id="MAT-28-AMB-30-structural-risk-equal"),
    pytest.param("none", ORDER, 0, id="MAT-28-none"),
    pytest.param("unknown", ORDER, 0, id="MAT-28-unlisted-ranks-last"),
    pytest.param("structural_risk", [["disaster"], ["structural_risk"], ["none"]], 1, id="AMB-30-three-groups"),
    pytest.param("disaster", [["disaster"], ["structural_risk"], ["none"]], 2, id="AMB-30-three-groups-first"),
])
def test_priority_rank(kind, order, rank):
    decision = priority_rank(kind, order)
    assert decision.outcome == rank
    assert decision.rule_ids == ("MAT-28", "AMB-30")
    assert decision.inputs == {"priority_kind": kind, "priority_order": order}


def test_priority_queue_of_mat_s19():
    cases = [("C-101", "none", "2024-05-01"), ("C-104", "none", "2024-05-03"),
             ("C-102", "structural_risk", "2024-05-10"), ("C-103", "disaster", "2024-05-12")]
    queue = sorted(cases, key=lambda c: (-priority_rank(c[1], ORDER).outcome, c[2]))
    assert [c[0] for c in queue] == ["C-102", "C-103", "C-101", "C-104"]


REAPPLY_RULES = ("MAT-30", "MAT-28", "AMB-28", "AMB-37", "TC-3a")
NO_PRIORITY = {"kind": "none", "event_date": None}


@pytest.mark.parametrize(("last_use", "applied", "priority", "kwargs", "barred", "earliest", "exempt"), [
    pytest.param(None, "2024-05-01", NO_PRIORITY, {}, False, None, False, id="MAT-30-never-a-beneficiary"),
    pytest.param("2024-07-10", "2026-07-09", NO_PRIORITY, {}, True, "2026-07-10", False,
                 id="MAT-30-TC-3a-day-before-anniversary"),
    pytest.param("2024-07-10", "2026-07-10", NO_PRIORITY, {}, False, "2026-07-10", False,
                 id="MAT-30-TC-3a-anniversary-allowed"),
    pytest.param("2024-07-10", "2026-07-10", NO_PRIORITY, {"anniversary_allowed": False}, True, "2026-07-11", False,
                 id="TC-3a-anniversary-not-allowed"),
    pytest.param("2024-07-10", "2026-07-11", NO_PRIORITY, {"anniversary_allowed": False}, False, "2026-07-11",
                 False, id="TC-3a-day-after-anniversary"),
    pytest.param("2024-02-29", "2026-02-27", NO_PRIORITY, {}, True, "2026-02-28", False, id="MAT-30-TC-3-29feb"),
    pytest.param("2024-07-10", "2025-03-01", {"kind": "disaster", "event_date": "2025-02-10"}, {}, False,
                 "2026-07-10", True, id="MAT-30-MAT-28-AMB-37-new-disaster"),
    pytest.param("2024-07-10", "2025-03-01", {"kind": "structural_risk", "event_date": "2024-07-11"}, {}, False,
                 "2026-07-10", True, id="MAT-30-AMB-37-risk-day-after-use"),
    pytest.param("2024-07-10", "2025-03-01", {"kind": "disaster", "event_date": "2024-07-10"}, {}, True,
                 "2026-07-10", False, id="MAT-30-AMB-37-event-on-use-day-not-new"),
    pytest.param("2024-07-10", "2025-03-01", {"kind": "disaster", "event_date": "2024-05-01"}, {}, True,
                 "2026-07-10", False, id="MAT-30-AMB-37-old-event"),
    pytest.param("2024-07-10", "2025-03-01", {"kind": "disaster", "event_date": None}, {}, True,
                 "2026-07-10", False, id="MAT-30-AMB-37-no-event-date"),
    pytest.param("2024-07-10", "2025-03-01", {"kind": "disaster", "event_date": "2024-05-01"},
                 {"exemption_requires_new_event": False}, False, "2026-07-10", True,
                 id="AMB-37-old-event-when-parameter-off"),
    pytest.param("2024-07-10", "2026-08-01", {"kind": "disaster", "event_date": "2026-07-20"}, {}, False,
                 "2026-07-10", False, id="MAT-30-after-wait-no-exemption-needed"),
])
def test_reapply_bar(last_use, applied, priority, kwargs, barred, earliest, exempt):
    decision = reapply_bar(last_use, applied, priority, 2, **kwargs)
    assert decision.outcome is barred
    assert decision.rule_ids == REAPPLY_RULES
    assert decision.details == {"reapply_earliest": D(earliest) if earliest else None, "exempt": exempt}
    assert decision.inputs["applied_on"] == D(applied) and decision.inputs["wait_years"] == 2
