"""Decision rules of the surplus property disposition cascade (SUR-nn, FAR-14/17–26, AMB-02…16).

Families, one module each: the transfer stage and its order (`transfer`), which stage a request
counts in (`categories`), prices and funds (`pricing`), payment at the collector (`payment`),
delivery, the Hacienda copy and retention (`delivery`); `hooks` holds what the engine refuses.
Each script function returns a Decision, recorded in the case history with its rule ids.
"""
from engine.rules.surplus_disposition.cascade import lot_candidates, lots_for, next_stage, window_action
from engine.rules.surplus_disposition.categories import (
    government_order, has_producer_utility, producer_types_for, request_category,
)
from engine.rules.surplus_disposition.common import SUR
from engine.rules.surplus_disposition.delivery import (
    hacienda_copy, invoice_amount, retention_dates, retention_obligation,
)
from engine.rules.surplus_disposition.disposition import final_disposition, sale_round
from engine.rules.surplus_disposition.hooks import COMPLETION_RULES, LANE_REFUSALS, MESSAGE_RULES
from engine.rules.surplus_disposition.payment import payment_check
from engine.rules.surplus_disposition.pricing import discount_pct, fund_split, sale_price
from engine.rules.surplus_disposition.requests import (
    close_unreached, register_request, request_refused, select_for, set_status,
)
from engine.rules.surplus_disposition.transfer import transfer_candidates, transfer_route, transferee_choice

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
    "surplus_register_request": register_request,
    "surplus_transfer_route": transfer_route,
    "surplus_next_stage": next_stage,
    "surplus_window_action": window_action,
    "surplus_lots": lots_for,
    "surplus_lot_candidates": lot_candidates,
    "surplus_sale_round": sale_round,
    "surplus_final_disposition": final_disposition,
    # list helpers, no decision of their own
    "surplus_set_status": set_status,
    "surplus_close_unreached": close_unreached,
    "surplus_select": select_for,
    "surplus_producer_types": producer_types_for,
}

__all__ = [
    "COMPLETION_RULES",
    "LANE_REFUSALS",
    "MESSAGE_RULES",
    "SCRIPT_FUNCTIONS",
    "SUR",
    "discount_pct",
    "has_producer_utility",
    "producer_types_for",
    "request_refused",
    "transfer_candidates",
]
