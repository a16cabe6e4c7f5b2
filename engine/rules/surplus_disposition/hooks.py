"""What the engine refuses before a surplus case moves (task completions of the contract).

The hooks read the case's variables as the diagram keeps them (a step inside the per-lot sale sees
its lot's scope first): `requests`, `item`, `lot`, `candidates`, `pricing` (the basis of the current
sale), `buyer`, `buyer_kind`, `price`, `receipts` (data object), `vehicle_order_approved`,
`audit_report`, `buyer_profile` ({household_size, annual_income} for FAR-26) and `surplus_rules`
(the frozen parameters the checks need: `criteria_mode`, `discount_table`, `allowed_instruments`).
"""
from __future__ import annotations

from engine.rules.surplus_disposition.common import PAYING_KINDS, SUR, refuse
from engine.rules.surplus_disposition.payment import payment_check
from engine.rules.surplus_disposition.pricing import sale_price
from engine.rules.surplus_disposition.transfer import transferee_choice


def _rules(case) -> dict:
    return case.get("surplus_rules") or {}


def transferee_selected(data: dict, facts: Facts) -> None:
    case = facts.case
    transferee_choice(case.get("requests") or [], data["request_id"], data.get("skipped") or [],
                      _rules(case).get("criteria_mode", "SCREEN"))


def price_set(data: dict, facts: Facts) -> None:
    case = facts.case
    profile = case.get("buyer_profile") or {}
    sale_price(case.get("pricing"), data, _rules(case).get("discount_table"),
               profile.get("household_size"), profile.get("annual_income"))


def payment_recorded(data: dict, facts: Facts) -> None:
    case = facts.case
    payment_check(data.get("instruments") or [], case.get("price"), case.get("buyer_kind"),
                  _rules(case).get("allowed_instruments", ("cheque_certificado", "giro_postal", "cheque_gerente")))


def _receipt_of_sale(case: dict) -> str | None:
    """The Recaudador's receipt for this lot's current buyer (kept in the `receipts` data object)."""
    issued = (case.get("receipts") or {}).get(str((case.get("lot") or {}).get("lot_id"))) or {}
    return str(issued["receipt_number"]) if issued.get("buyer") == case.get("buyer") and \
        issued.get("receipt_number") else None


def item_delivered(data: dict, facts: Facts) -> None:
    case = facts.case
    item = case.get("item") or {}
    if item.get("is_vehicle") and case.get("stage") == "TRANSFER" and not case.get("vehicle_order_approved"):
        refuse("VEHICLE_ORDER_NOT_APPROVED", "a vehicle is assigned only along an order the Comisionado consented to",
               "SUR-05")
    if case.get("buyer_kind") in PAYING_KINDS:
        receipt = str(data.get("payment_receipt_number") or "").strip()
        expected = _receipt_of_sale(case)
        if not receipt or not expected or receipt != expected:
            refuse("DELIVERY_REQUIRES_PAYMENT_RECEIPT", "the buyer must hand the custodian the Recaudador's receipt",
                   "SUR-21", "FAR-25")


def return_decided(_data: dict, facts: Facts) -> None:
    case = facts.case
    if not case.get("audit_report"):
        refuse("AUDIT_REPORT_REQUIRED", "a return can be required only after an informe de fiscalización", "SUR-18")


def vehicle_order_set(data: dict, facts: Facts) -> None:
    case = facts.case
    live = {r["request_id"] for r in case.get("requests") or [] if r.get("status") in ("PENDING", "SELECTED")}
    order = [str(i) for i in data.get("order") or []]
    if not order:
        refuse("VEHICLE_ORDER_EMPTY", "the order lists at least one request", "SUR-05")
    unknown = [i for i in order if i not in live]
    if unknown or len(set(order)) != len(order):
        refuse("UNKNOWN_REQUEST", f"not pending requests (or repeated): {', '.join(unknown) or 'repeated ids'}",
               "SUR-05")


def lottery_drawn(data: dict, facts: Facts) -> None:
    case = facts.case
    lot = case.get("lot") or {}
    if str(data.get("unit_id")) not in [str(u) for u in lot.get("units") or []]:
        refuse("UNKNOWN_UNIT", f"this lottery is for unit {', '.join(lot.get('units') or [])}, not "
               f"{data.get('unit_id')}", "FAR-20", "FAR-21")
    witnessed = data.get("witnessed_result")
    if witnessed not in (None, "") and str(witnessed) not in (case.get("candidates") or []):
        refuse("LOTTERY_RESULT_INVALID", f"{witnessed} did not ask for this unit", "FAR-20", "AMB-15")


COMPLETION_RULES = {
    (SUR, "set_vehicle_order"): vehicle_order_set,
    (SUR, "draw_lottery"): lottery_drawn,
    (SUR, "select_transferee"): transferee_selected,
    (SUR, "set_price"): price_set,
    (SUR, "record_payment"): payment_recorded,
    (SUR, "deliver_item"): item_delivered,
    (SUR, "decide_return"): return_decided,
}

def request_received(payload: dict, facts: Facts) -> None:
    """The contract's refusals for `request`: 409 DUPLICATE_REQUEST, 422 NOT_ELIGIBLE_CATEGORY /
    NOT_REGISTERED. A producer's status and type come from the farmer registry as it stands when the
    request arrives (`facts.reference`, read by the procedure's lookup)."""
    case = facts.case
    frozen = case.get("surplus_rules") or {}  # frozen by `publish_listing` in the start's own command
    request_refused(payload, case.get("requests") or [], case.get("item") or {},
                    frozen.get("producer_utility_types") or ("agricola",),
                    frozen.get("nonprofit_without_certification") or "TREAT_AS_PUBLIC",
                    facts.reference.get("registry_status"), facts.reference.get("producer_type"))


MESSAGE_RULES = {(SUR, "request"): request_received}

# SUR-05: a vehicle goes nowhere without the Comisionado's anuencia; nobody else can give it.
LANE_REFUSALS = {(SUR, "approve_vehicle_order"): ("VEHICLE_ORDER_NOT_APPROVED", ("SUR-05",))}
from engine.rules.facts import Facts
from engine.rules.surplus_disposition.requests import request_refused
