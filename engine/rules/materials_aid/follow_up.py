"""The end of a materials-aid case: the follow-up visit's verdict (MAT-19, 20, 30, 34; AMB-28, AMB-36)."""
from __future__ import annotations

from engine.rules.decision import Decision
from engine.rules.calendar import add_years, as_local_date
from engine.rules.materials_aid.quotes import collection_amount

COMPLETED, NON_COMPLIANCE_COLLECTION = "COMPLETED", "NON_COMPLIANCE_COLLECTION"


def follow_up_result(work_done, materials_used_properly, completion_date, visit_date, misused_value,
                     delivered_total, collection_basis, wait_years) -> Decision:
    """COMPLETED when the work was done with the materials as agreed; otherwise the value is collected.

    The 2-year wait runs from the use of the materials (AMB-28): the completion the beneficiary
    notified, or the visit that found the work when there was no notice.
    """
    last_use = as_local_date(completion_date if completion_date is not None else visit_date, instants=False)
    proper = bool(work_done) and bool(materials_used_properly)
    details = {"last_use_date": last_use, "reapply_earliest": add_years(last_use, int(wait_years)),
               "collection_amount": None}
    rule_ids = ["MAT-19", "MAT-20", "MAT-30", "MAT-34", "AMB-28", "TC-3a"]
    if not proper:
        collection = collection_amount(misused_value, delivered_total, collection_basis)
        details["collection_amount"] = collection.outcome
        rule_ids.extend(r for r in collection.rule_ids if r not in rule_ids)
    return Decision(outcome=COMPLETED if proper else NON_COMPLIANCE_COLLECTION, rule_ids=tuple(rule_ids),
                    inputs={"work_done": bool(work_done), "materials_used_properly": bool(materials_used_properly),
                            "completion_date": completion_date, "visit_date": as_local_date(visit_date, instants=False),
                            "misused_value": misused_value, "delivered_total": delivered_total,
                            "collection_basis": collection_basis, "wait_years": int(wait_years)},
                    details=details)
