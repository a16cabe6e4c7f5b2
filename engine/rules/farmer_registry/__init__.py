"""Decision rules of the bona fide farmer registry (FAR-nn, AMB-nn in RULES.md).

Three families, one module each: who may enter the Registry (`eligibility`), the legal periods
of a file (`periods`: review and documents windows, the two-year renewal cycle) and the hooks the
engine runs before it accepts a task completion, a start or a message (`hooks`).
"""
from engine.rules.farmer_registry.eligibility import (
    assess_eligibility, certification_valid_for_type, documents_not_supplied, eligibility_summary,
    income_share_qualifies, producer_type_in_scope,
)
from engine.rules.farmer_registry.hooks import ADMISSION, COMPLETION_RULES, MEMBERSHIP, MESSAGE_RULES
from engine.rules.farmer_registry.periods import (
    extra_documents_window, first_renewal_due, next_renewal_due, renewal_lapse, review_request_timely,
    review_window,
)

SCRIPT_FUNCTIONS = {
    "income_share_qualifies": income_share_qualifies,
    "producer_type_in_scope": producer_type_in_scope,
    "certification_valid_for_type": certification_valid_for_type,
    "assess_eligibility": assess_eligibility,
    "eligibility_summary": eligibility_summary,
    "documents_not_supplied": documents_not_supplied,
    "review_window": review_window,
    "review_request_timely": review_request_timely,
    "extra_documents_window": extra_documents_window,
    "first_renewal_due": first_renewal_due,
    "next_renewal_due": next_renewal_due,
    "renewal_lapse": renewal_lapse,
}

__all__ = ["ADMISSION", "COMPLETION_RULES", "MEMBERSHIP", "MESSAGE_RULES", "SCRIPT_FUNCTIONS"]
