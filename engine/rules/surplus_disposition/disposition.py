"""After each round of sales (SUR-16…23, FAR-21, FAR-24): per-unit results, what is left unsold,
where the case goes next, and the case-level disposition once every unit has found its buyer."""
from __future__ import annotations

from decimal import Decimal

from engine.rules.decision import Decision
from engine.rules.surplus_disposition.common import cents, text

DISPOSITIONS = {"TRANSFER": "TRANSFERRED", "GOV_NOMINAL": "SOLD_GOV", "PRODUCER_FMV": "SOLD_PRODUCER",
                "NONPROFIT_NOMINAL": "SOLD_NONPROFIT_NOMINAL", "MARKET_VALUE": "SOLD_NONPROFIT_MARKET_VALUE"}
UNIT_FIELDS = ("buyer", "buyer_kind", "price", "receipt_number", "disposition", "delivered_on")


def sale_round(stage, lot_results, units, requests, is_vehicle=False) -> Decision:
    """Merge the round's lots into `units`; route DISPOSED (nothing left), TRANSFER_AGAIN (a
    non-vehicle transfer whose assignee did not collect while other claims wait, SUR-04) or
    NEXT_STAGE (the category is exhausted, SUR-23)."""
    merged = [dict(u) for u in units or []]
    sold = [r for r in lot_results or [] if r.get("status") == "SOLD"]
    for result in sold:
        for unit in merged:
            if unit["unit_id"] in result["units"]:
                unit.update({k: result.get(k) for k in UNIT_FIELDS})
    unsold = [u["unit_id"] for u in merged if not u.get("buyer")]
    waiting_transfer = [r["request_id"] for r in requests or [] if r.get("status") == "PENDING"
                        and r.get("category") == "TRANSFER"]
    if not unsold:
        route = "DISPOSED"
    elif stage == "TRANSFER" and not is_vehicle and waiting_transfer:
        route = "TRANSFER_AGAIN"
    else:
        route = "NEXT_STAGE"
    return Decision(route, ("SUR-22", "SUR-23", "FAR-21"),
                    {"stage": stage, "lots": [{k: r.get(k) for k in ("lot_id", "status", "buyer")}
                                              for r in lot_results or []], "unsold_units": unsold},
                    {"units": merged, "unsold_units": unsold, "sold_lots": sold})


def final_disposition(units, sold_lots) -> Decision:
    """The case's result once every unit is delivered: the disposition, buyer and price of the sale
    (the sum of the units' prices when units went to several producers), the funds of FAR-24."""
    lots = list(sold_lots or [])
    first = lots[0] if lots else {}
    total = sum((cents(l.get("price")) for l in lots if l.get("price") is not None), Decimal("0.00"))
    producer_lots = [l for l in lots if l.get("pricing") == "PRODUCER_FMV"]
    costs = sum((cents(l.get("processing_costs")) for l in producer_lots), Decimal("0.00"))
    result = {"disposition": DISPOSITIONS.get(first.get("pricing")), "buyer": first.get("buyer"),
              "buyer_kind": first.get("buyer_kind"),
              "price": text(total) if any(l.get("price") is not None for l in lots) else None,
              "receipt_number": first.get("receipt_number"),
              "delivered_on": max((str(l["delivered_on"]) for l in lots if l.get("delivered_on")), default=None),
              "hacienda_copy_sent": any(bool(l.get("hacienda_copy_sent")) for l in lots),
              "buyers": sorted({str(l.get("buyer")) for l in lots})}
    rules = ["SUR-19", "FAR-21"]
    if producer_lots:
        result.update({"fondo_general": text(sum((cents(l.get("price")) for l in producer_lots), Decimal("0.00"))
                                             - costs),
                       "fondo_secretario_hacienda": text(costs)})
        rules.append("FAR-24")
    return Decision(result["disposition"], tuple(rules),
                    {"lots": [{k: l.get(k) for k in ("lot_id", "buyer", "price", "pricing")} for l in lots],
                     "units": [u.get("unit_id") for u in units or []]}, result)
