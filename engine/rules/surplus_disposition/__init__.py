"""Decision rules of the surplus property disposition cascade (SUR-nn, FAR-14/17–26, AMB-02…16).

Families, one module each: the transfer stage and its order (`transfer`), which stage a request
counts in (`categories`), prices and funds (`pricing`), payment at the collector (`payment`),
delivery, the Hacienda copy and retention (`delivery`); `hooks` holds what the engine refuses.
Each script function returns a Decision, recorded in the case history with its rule ids.
"""
from .categories import government_order, has_producer_utility, producer_types_for, request_category
from .common import SUR
from .delivery import hacienda_copy, invoice_amount, retention_dates, retention_obligation
from .hooks import COMPLETION_RULES
from .payment import payment_check
from .pricing import discount_pct, fund_split, sale_price
from .transfer import transfer_candidates, transferee_choice

SCRIPT_FUNCTIONS = {
    "surplus_request_category": request_category,
    "surplus_government_order": government_order,
    "surplus_transferee_choice": transferee_choice,
    "surplus_sale_price": sale_price,
    "surplus_fund_split": fund_split,
    "surplus_payment_check": payment_check,
    "surplus_hacienda_copy": hacienda_copy,
    "surplus_invoice_amount": invoice_amount,
    "surplus_retention_obligation": retention_obligation,
    "surplus_retention_dates": retention_dates,
}

__all__ = ["COMPLETION_RULES", "SCRIPT_FUNCTIONS", "SUR", "discount_pct", "has_producer_utility",
           "producer_types_for", "transfer_candidates"]
