"""The dates of a materials-aid case: documents, validity, use of materials, visit and the reapply bar.

Day periods (30 days for documents, 120 days of use, extensions) are counted by the engine calendar
(TC-1/TC-2), which hands these rules the last timely day; year periods (1-year validity, 2-year
wait) never roll (TC-3) and are computed here.
"""
from __future__ import annotations

from datetime import timedelta

from engine.rules.calendar import add_years, as_local_date
from engine.rules.decision import Decision

NONE, DISASTER, STRUCTURAL_RISK = "none", "disaster", "structural_risk"


def _window(start, days, last_timely_day) -> dict:
    opened, last = as_local_date(start, instants=False), as_local_date(last_timely_day, instants=False)
    nominal = opened + timedelta(days=int(days))
    if last < nominal:
        raise ValueError(f"last timely day {last} is before the nominal day {nominal}")
    return {"start": opened, "days": int(days), "nominal_last_day": nominal, "last_timely_day": last,
            "rolled_forward": last != nominal}


def _period(rule_ids, start_name, start, days, last_timely_day) -> Decision:
    window = _window(start, days, last_timely_day)
    return Decision(outcome=window["last_timely_day"], rule_ids=rule_ids,
                    inputs={start_name: window["start"], "days": window["days"]},
                    details={"nominal_last_day": window["nominal_last_day"],
                             "rolled_forward": window["rolled_forward"]})


def documents_deadline(requested_on, days, last_timely_day) -> Decision:
    """MAT-11: the applicant has 30 days from the Department's request to supply the documents."""
    return _period(("MAT-09", "MAT-11", "AMB-24", "TC-1", "TC-2"), "docs_requested_on", requested_on, days,
                   last_timely_day)


def use_deadline(delivered_on, days, last_timely_day) -> Decision:
    """MAT-36 / AMB-27: 120 days to use the materials, counted from the delivery."""
    return _period(("MAT-36", "AMB-27", "TC-1", "TC-2"), "delivered_on", delivered_on, days, last_timely_day)


def extended_use_deadline(current_deadline, days_granted, last_timely_day) -> Decision:
    """MAT-36 / AMB-27: the Director Regional's extension runs on from the deadline it extends, no cap."""
    return _period(("MAT-36", "AMB-27", "TC-1", "TC-2"), "current_use_deadline", current_deadline,
                   days_granted, last_timely_day)


def application_validity(filing_date, years) -> Decision:
    """MAT-37 / AMB-29: valid on the filing date … the day before its anniversary; a purchase order stops it."""
    filed = as_local_date(filing_date, instants=False)
    valid_through = add_years(filed, int(years)) - timedelta(days=1)
    return Decision(outcome=valid_through, rule_ids=("MAT-37", "AMB-29", "TC-3b"),
                    inputs={"filing_date": filed, "years": int(years)},
                    details={"expires_on": valid_through + timedelta(days=1)})


def visit_not_before(current_use_deadline, visit_on_completion_notice=False) -> Decision:
    """MAT-19: the follow-up visit comes once the period to rehabilitate has run (not on an early notice)."""
    deadline = as_local_date(current_use_deadline, instants=False)
    return Decision(outcome=deadline + timedelta(days=1), rule_ids=("MAT-19", "MAT-36"),
                    inputs={"use_deadline": deadline, "visit_on_completion_notice": bool(visit_on_completion_notice)})


def priority_rank(kind, priority_order) -> Decision:
    """MAT-28 / AMB-30: the inbox rank of a case; groups listed first rank higher, equal within a group."""
    groups = [list(g) if isinstance(g, (list, tuple)) else [g] for g in (priority_order or [])]
    index = next((i for i, group in enumerate(groups) if kind in group), len(groups) - 1)
    return Decision(outcome=max(len(groups) - 1 - index, 0), rule_ids=("MAT-28", "AMB-30"),
                    inputs={"priority_kind": kind, "priority_order": groups})


def reapply_bar(last_use_date, applied_on, priority, wait_years, anniversary_allowed=True,
                exemption_requires_new_event=True) -> Decision:
    """MAT-30 / AMB-28 / AMB-37 / TC-3a: a beneficiary waits 2 years after using the materials,
    unless a disaster or a structural risk (MAT-28) has happened since."""
    inputs = {"last_use_date": last_use_date, "applied_on": as_local_date(applied_on, instants=False),
              "priority": dict(priority or {}),
              "wait_years": int(wait_years), "anniversary_allowed": bool(anniversary_allowed),
              "exemption_requires_new_event": bool(exemption_requires_new_event)}
    rule_ids = ("MAT-30", "MAT-28", "AMB-28", "AMB-37", "TC-3a")
    if last_use_date is None:
        return Decision(outcome=False, rule_ids=rule_ids, inputs=inputs,
                        details={"reapply_earliest": None, "exempt": False})
    last_use = as_local_date(last_use_date, instants=False)
    earliest = add_years(last_use, int(wait_years))
    if not anniversary_allowed:
        earliest += timedelta(days=1)
    within_wait = inputs["applied_on"] < earliest
    kind = (priority or {}).get("kind") or NONE
    event = (priority or {}).get("event_date")
    exempt = kind != NONE and (not exemption_requires_new_event
                               or (event is not None and as_local_date(event, instants=False) > last_use))
    return Decision(outcome=within_wait and not exempt, rule_ids=rule_ids, inputs=inputs,
                    details={"reapply_earliest": earliest, "exempt": within_wait and exempt})
