"""What the engine refuses before a surplus case moves (task completions of the contract).

The hooks read the case's variables as the diagram keeps them: `requests`, `item`, `pricing` (the
basis of the current sale), `buyer_kind`, `price`, `receipt_number`, `vehicle_order_approved`,
`audit_report`, `buyer_profile` ({household_size, annual_income} for FAR-26) and `surplus_rules`
(the frozen parameters the checks need: `criteria_mode`, `discount_table`,
`allowed_instruments`).
"""
from __future__ import annotations

from .common import PAYING_KINDS, SUR, refuse
from .payment import payment_check
from .pricing import sale_price
from .transfer import transferee_choice


def _rules(case) -> dict:
    return case.get("surplus_rules") or {}


def transferee_selected(data: dict, case: dict) -> None:
    transferee_choice(case.get("requests") or [], data["request_id"], data.get("skipped") or [],
                      _rules(case).get("criteria_mode", "SCREEN"))


def price_set(data: dict, case: dict) -> None:
    profile = case.get("buyer_profile") or {}
    sale_price(case.get("pricing"), data, _rules(case).get("discount_table"),
               profile.get("household_size"), profile.get("annual_income"))


def payment_recorded(data: dict, case: dict) -> None:
    payment_check(data.get("instruments") or [], case.get("price"), case.get("buyer_kind"),
                  _rules(case).get("allowed_instruments", ("cheque_certificado", "giro_postal", "cheque_gerente")))


def item_delivered(data: dict, case: dict) -> None:
    item = case.get("item") or {}
    if item.get("is_vehicle") and case.get("stage") == "TRANSFER" and not case.get("vehicle_order_approved"):
        refuse("VEHICLE_ORDER_NOT_APPROVED", "a vehicle is assigned only along an order the Comisionado consented to",
               "SUR-05")
    if case.get("buyer_kind") in PAYING_KINDS:
        receipt = str(data.get("payment_receipt_number") or "").strip()
        if not receipt or not case.get("receipt_number") or receipt != str(case["receipt_number"]):
            refuse("DELIVERY_REQUIRES_PAYMENT_RECEIPT", "the buyer must hand the custodian the Recaudador's receipt",
                   "SUR-21", "FAR-25")


def return_decided(_data: dict, case: dict) -> None:
    if not case.get("audit_report"):
        refuse("AUDIT_REPORT_REQUIRED", "a return can be required only after an informe de fiscalización", "SUR-18")


COMPLETION_RULES = {
    (SUR, "select_transferee"): transferee_selected,
    (SUR, "set_price"): price_set,
    (SUR, "record_payment"): payment_recorded,
    (SUR, "deliver_item"): item_delivered,
    (SUR, "decide_return"): return_decided,
}
