"""Decision rules of the housing materials aid programme (MAT-nn, AMB-23…37 in RULES.md).

Four families, one module each: who qualifies and with which papers (`eligibility`), the dates of
a case (`periods`), quotes, maximum aid and collection (`quotes`, `follow_up`), and the office
that serves a town (`offices`). `hooks` holds what the engine refuses before a case moves.
Names are unique across procedures: every procedure's functions share one script whitelist.
"""
from engine.rules.materials_aid.eligibility import (
    assess_eligibility, eligibility_summary, income_within_limit, required_documents,
)
from engine.rules.materials_aid.follow_up import follow_up_result
from engine.rules.materials_aid.hooks import (
    COMPLETION_RULES, LANE_REFUSALS, MATERIALS, MESSAGE_RULES, application_filed,
)
from engine.rules.materials_aid.periods import (
    application_validity, documents_deadline, extended_use_deadline, priority_rank, reapply_bar,
    use_deadline, visit_not_before,
)
from engine.rules.materials_aid.quotes import aid_within_maximum, collection_amount, select_quote

SCRIPT_FUNCTIONS = {
    "priority_rank": priority_rank,
    "reapply_bar": reapply_bar,
    "documents_deadline": documents_deadline,
    "materials_checklist": required_documents,
    "application_validity": application_validity,
    "assess_materials_eligibility": assess_eligibility,
    "materials_eligibility_summary": eligibility_summary,
    "income_within_limit": income_within_limit,
    "select_quote": select_quote,
    "aid_within_maximum": aid_within_maximum,
    "use_period_deadline": use_deadline,
    "extended_use_deadline": extended_use_deadline,
    "first_visit_day": visit_not_before,
    "amount_to_collect": collection_amount,
    "follow_up_result": follow_up_result,
}

__all__ = ["COMPLETION_RULES", "LANE_REFUSALS", "MATERIALS", "MESSAGE_RULES", "SCRIPT_FUNCTIONS",
           "application_filed"]
