"""The legal periods of a registry file: review and documents windows, the two-year renewal cycle.

Day windows (TC-1/TC-2) are counted by the engine calendar, which knows the holidays and the
roll-forward parameter; these rules receive its last timely day and record what it means (the
nominal day, whether it rolled). Year periods (TC-3) never roll and are computed here.
"""
from __future__ import annotations

from datetime import timedelta

from engine.rules.calendar import add_years, as_local_date
from engine.rules.decision import Decision

FIXED_CYCLE = "FIXED_CYCLE"
FILING_DATE = "FILING_DATE"
LAPSE_STATUS = {"SUSPEND_NOTIFICATIONS": "RENEWAL_OVERDUE", "NONE": "ACTIVE", "REMOVE": "REMOVED"}


def _window(opened_on, days, last_timely_day) -> dict:
    opened, last = as_local_date(opened_on, instants=False), as_local_date(last_timely_day, instants=False)
    nominal = opened + timedelta(days=int(days))
    if last < nominal:
        raise ValueError(f"last timely day {last} is before the nominal day {nominal}")
    return {"opened_on": opened, "days": int(days), "nominal_last_day": nominal,
            "last_timely_day": last, "rolled_forward": last != nominal}


def review_window(notified_on, days, last_timely_day) -> Decision:
    """FAR-12 / FAR-13 / AMB-14: review may be asked until the 20th day after the denial was notified."""
    window = _window(notified_on, days, last_timely_day)
    return Decision(outcome=window["last_timely_day"], rule_ids=("FAR-12", "FAR-13", "AMB-14", "TC-1", "TC-2"),
                    inputs={"denial_notified_on": window["opened_on"], "days": window["days"]},
                    details={"review_deadline": window["last_timely_day"],
                             "nominal_last_day": window["nominal_last_day"],
                             "rolled_forward": window["rolled_forward"]})


def review_request_timely(filed_on, review_deadline) -> Decision:
    """FAR-12 / FAR-13 / AMB-14: day 20 is timely, day 21 is late and closes judicial review."""
    filed, deadline = as_local_date(filed_on, instants=False), as_local_date(review_deadline, instants=False)
    return Decision(outcome=filed <= deadline, rule_ids=("FAR-12", "FAR-13", "AMB-14"),
                    inputs={"filed_on": filed, "review_deadline": deadline})


def extra_documents_window(requested_on, days, last_timely_day) -> Decision:
    """FAR-08 (deadline [SILENT], `farmer.extraDocsDays`): the documents the evaluator asked for."""
    window = _window(requested_on, days, last_timely_day)
    return Decision(outcome=window["last_timely_day"], rule_ids=("FAR-08", "TC-1", "TC-2"),
                    inputs={"requested_on": window["opened_on"], "days": window["days"]},
                    details={"extra_docs_deadline": window["last_timely_day"],
                             "nominal_last_day": window["nominal_last_day"],
                             "rolled_forward": window["rolled_forward"]})


def first_renewal_due(admission_date, renewal_years) -> Decision:
    """FAR-15 / TC-3d: the first notice of continued interest is due two years after admission."""
    admitted, years = as_local_date(admission_date, instants=False), int(renewal_years)
    due = add_years(admitted, years)
    return Decision(outcome=due, rule_ids=("FAR-15", "AMB-17", "TC-3", "TC-3d"),
                    inputs={"admission_date": admitted, "renewal_years": years},
                    details={"renewal_due": due})


def next_renewal_due(registered_on, renewal_due, renewal_years, filed_on, anchor=FIXED_CYCLE) -> Decision:
    """FAR-15 / AMB-17 / TC-3d: the due date after a renewal, in a fixed cycle from admission.

    The cycle is counted from the admission day itself, not from the previous due date, so an
    admission on 29 Feb is due on 28 Feb in common years and on 29 Feb again in leap years. A
    late filing does not move the cycle. A due date that an administrator moved off the cycle is
    simply advanced by the period.
    """
    registered, due, filed = (as_local_date(v, instants=False) for v in (registered_on, renewal_due, filed_on))
    years = int(renewal_years)
    if anchor == FILING_DATE:
        new_due = add_years(filed, years)
    elif anchor == FIXED_CYCLE:
        elapsed = due.year - registered.year
        on_cycle = elapsed > 0 and elapsed % years == 0 and add_years(registered, elapsed) == due
        new_due = add_years(registered, elapsed + years) if on_cycle else add_years(due, years)
    else:
        raise ValueError(f"unknown farmer.renewalAnchor {anchor!r}")
    return Decision(outcome=new_due, rule_ids=("FAR-15", "AMB-17", "TC-3", "TC-3d"),
                    inputs={"registered_on": registered, "renewal_due": due, "renewal_years": years,
                            "filed_on": filed, "anchor": anchor},
                    details={"renewal_due": new_due, "filed_late": filed > due})


def renewal_lapse(renewal_due, today, on_lapse) -> Decision:
    """FAR-15 / AMB-17: no renewal by the due date; by default notices stop (RENEWAL_OVERDUE)."""
    if on_lapse not in LAPSE_STATUS:
        raise ValueError(f"unknown farmer.onRenewalLapse {on_lapse!r}")
    due, day = as_local_date(renewal_due, instants=False), as_local_date(today, instants=False)
    return Decision(outcome=LAPSE_STATUS[on_lapse], rule_ids=("FAR-15", "FAR-14", "AMB-17"),
                    inputs={"renewal_due": due, "today": day, "on_renewal_lapse": on_lapse},
                    details={"registry_status": LAPSE_STATUS[on_lapse], "days_overdue": (day - due).days})
