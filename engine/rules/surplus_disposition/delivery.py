"""Delivery and after (SUR-16…21, AMB-05, 06, 13; TC-3c): the Hacienda copy, the invoice, the
three-year retention with its $300 strict threshold and scrap exclusion, and its dates."""
from __future__ import annotations

from datetime import timedelta

from engine.rules.calendar import add_years
from engine.rules.decision import Decision
from engine.rules.surplus_disposition.common import GOVERNMENT, STATE_AGENCIES, cents, day, text

# «transferidos o vendidos por valor nominal»: a category-1 price «valor nominal, más los
# gastos…» counts as nominal (AMB-13); FMV and market-value sales do not bind.
BOUND_DISPOSITIONS = ("TRANSFERRED", "SOLD_GOV", "SOLD_NONPROFIT_NOMINAL")
BOUND_KINDS = ("municipio", "sin_fines_de_lucro")  # only they are named in SUR-16 (AMB-13)


def hacienda_copy(is_vehicle, recipient_kind, rule="ALL_EXCEPT_VEHICLES_TO_STATE_AGENCIES") -> Decision:
    """SUR-19 / AMB-06: is a copy of the transfer form sent to the Departamento de Hacienda?
    Default reading (i): every delivery except vehicles to state agencies (municipalities are not
    «agencias del Gobierno»). Reading (ii) `ONLY_STATE_AGENCIES_EXCEPT_VEHICLES`: only deliveries
    to state agencies, vehicles excluded."""
    to_agency = recipient_kind in STATE_AGENCIES
    if rule == "ALL_EXCEPT_VEHICLES_TO_STATE_AGENCIES":
        sent = not (bool(is_vehicle) and to_agency)
    elif rule == "ONLY_STATE_AGENCIES_EXCEPT_VEHICLES":
        sent = to_agency and not bool(is_vehicle)
    else:
        raise ValueError(f"unknown surplus.haciendaCopyRule {rule!r}")
    return Decision(sent, ("SUR-19", "AMB-06"),
                    {"is_vehicle": bool(is_vehicle), "recipient_kind": recipient_kind, "rule": rule})


def invoice_amount(recipient_kind, under_commission_jurisdiction, price) -> Decision:
    """SUR-20: a government buyer outside the Comisión's jurisdiction receives an invoice for the price
    with the transfer form; none otherwise."""
    due = recipient_kind in GOVERNMENT and not under_commission_jurisdiction and cents(price) > 0
    return Decision(text(cents(price)) if due else None, ("SUR-20",),
                    {"recipient_kind": recipient_kind, "under_commission_jurisdiction": bool(under_commission_jurisdiction),
                     "price": text(cents(price))})


def retention_obligation(item, recipient_kind, disposition, threshold_scope="MUEBLES_ONLY",
                         muebles_meaning="ALL_MOVABLE_GOODS", threshold="300.00") -> Decision:
    """SUR-16/17, AMB-05, AMB-13: must the recipient keep and use the good for the retention years?"""
    value = cents(item.get("estimated_value"))
    limit = cents(threshold)
    inputs = {"is_vehicle": bool(item.get("is_vehicle")), "donated": bool(item.get("donated")),
              "scrap_for_vehicle_repair": bool(item.get("scrap_for_vehicle_repair")),
              "furniture": bool(item.get("furniture")), "estimated_value": text(value), "threshold": text(limit),
              "recipient_kind": recipient_kind, "disposition": disposition, "threshold_scope": threshold_scope,
              "muebles_meaning": muebles_meaning}
    if threshold_scope not in ("MUEBLES_ONLY", "ALL_ITEMS"):
        raise ValueError(f"unknown surplus.retentionThresholdScope {threshold_scope!r}")
    if muebles_meaning not in ("ALL_MOVABLE_GOODS", "FURNITURE_ONLY"):
        raise ValueError(f"unknown surplus.retentionMueblesMeaning {muebles_meaning!r}")
    if item.get("scrap_for_vehicle_repair"):
        return Decision(False, ("SUR-16", "SUR-17"), inputs, {"reason": "SCRAP_FOR_VEHICLE_REPAIR"})
    if recipient_kind not in BOUND_KINDS or disposition not in BOUND_DISPOSITIONS:
        return Decision(False, ("SUR-16", "AMB-13"), inputs, {"reason": "RECIPIENT_OR_SALE_NOT_BOUND"})
    above = value > limit  # «mayor de trescientos dólares»: strict (TC-4)
    mueble = muebles_meaning == "ALL_MOVABLE_GOODS" or bool(item.get("furniture"))
    vehicle_or_donated = bool(item.get("is_vehicle")) or bool(item.get("donated"))
    if threshold_scope == "MUEBLES_ONLY":
        covered = vehicle_or_donated or (mueble and above)
    else:
        covered = (vehicle_or_donated or mueble) and above
    reason = "COVERED" if covered else ("NOT_ABOVE_THRESHOLD" if not above else "NOT_A_COVERED_GOOD")
    return Decision(covered, ("SUR-16", "AMB-05", "AMB-13", "TC-4"), inputs, {"reason": reason})


def retention_dates(delivered_on, years=3, anchor="DELIVERY_DATE") -> Decision:
    """TC-3c / AMB-13: the obligation covers acts from the delivery day through the day before the
    anniversary; free from the anniversary (29 Feb → 28 Feb). Never rolls."""
    if anchor != "DELIVERY_DATE":
        raise ValueError(f"unknown surplus.retentionAnchor {anchor!r}")
    start = day(delivered_on)
    free = add_years(start, int(years))
    return Decision({"retention_active_through": (free - timedelta(days=1)).isoformat(),
                     "retention_free_from": free.isoformat()},
                    ("SUR-16", "TC-3c", "AMB-13"), {"delivered_on": start.isoformat(), "years": int(years),
                                                    "anchor": anchor},
                    {"retention_active_through": (free - timedelta(days=1)).isoformat(),
                     "retention_free_from": free.isoformat()})
