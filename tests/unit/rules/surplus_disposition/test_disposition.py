"""Direct tests of engine/rules/surplus_disposition/disposition.py (SUR-04, 19, 22, 23; FAR-21, FAR-24).

After each round: a case with every unit sold is DISPOSED; a non-vehicle transfer whose assignee did
not collect goes back to the waiting transfer claims (SUR-04, SUR-23); otherwise the next stage.
FAR-21: units sold one by one (FAR-S16: U1 → F-31, U2 → F-32, U3 → F-31, $1,200.00 each); FAR-24:
processing costs to the Secretario de Hacienda's fund, the rest of the producers' proceeds to the
Fondo General.
"""
from __future__ import annotations

import pytest

from engine.rules.surplus_disposition.disposition import final_disposition, sale_round

UNITS = [{"unit_id": u, "use_category": "riego"} for u in ("U1", "U2", "U3")]


def sold(lot_id, buyer, price="1200.00", pricing="PRODUCER_FMV", costs="100.00", delivered="2024-09-20", **extra):
    return {"lot_id": lot_id, "units": lot_id.split("+"), "status": "SOLD", "buyer": buyer, "buyer_kind": "productor",
            "price": price, "receipt_number": f"R-{lot_id}", "disposition": "SOLD_PRODUCER", "delivered_on": delivered,
            "pricing": pricing, "processing_costs": costs, **extra}


@pytest.mark.parametrize(("stage", "results", "requests", "vehicle", "route", "unsold"), [
    pytest.param("CATEGORY_2", [sold("U1", "F-31"), sold("U2", "F-32"), sold("U3", "F-31")], [], False, "DISPOSED",
                 [], id="FAR-21-FAR-S16-every-unit-sold"),
    pytest.param("CATEGORY_2", [sold("U1", "F-31"), {"lot_id": "U2", "units": ["U2"], "status": "UNSOLD"}], [],
                 False, "NEXT_STAGE", ["U2", "U3"], id="SUR-23-FAR-21-units-left-next-stage"),
    pytest.param("TRANSFER", [], [{"request_id": "COMP-A", "status": "PENDING", "category": "TRANSFER"}], False,
                 "TRANSFER_AGAIN", ["U1", "U2", "U3"], id="SUR-04-SUR-23-next-transfer-claim"),
    pytest.param("TRANSFER", [], [{"request_id": "COMP-A", "status": "PENDING", "category": "TRANSFER"}], True,
                 "NEXT_STAGE", ["U1", "U2", "U3"], id="SUR-05-vehicle-order-exhausted"),
    pytest.param("TRANSFER", [], [{"request_id": "COMP-A", "status": "NO_INTEREST", "category": "TRANSFER"},
                                  {"request_id": "MUN", "status": "PENDING", "category": 1}], False,
                 "NEXT_STAGE", ["U1", "U2", "U3"], id="SUR-08-no-transfer-claim-left"),
    pytest.param("CATEGORY_1", [sold("U1+U2+U3", "MUN-COAMO", "61.00", "GOV_NOMINAL")], [], False, "DISPOSED", [],
                 id="SUR-22-SUR-S07a-whole-item"),
])
def test_sale_round(stage, results, requests, vehicle, route, unsold):
    decision = sale_round(stage, results, UNITS, requests, vehicle)
    assert decision.outcome == route
    assert decision.rule_ids == ("SUR-22", "SUR-23", "FAR-21")
    assert decision.details["unsold_units"] == unsold
    assert decision.details["sold_lots"] == [r for r in results if r.get("status") == "SOLD"]


def test_sale_round_merges_per_unit_results():
    decision = sale_round("CATEGORY_2", [sold("U2", "F-32")], UNITS, [])
    u2 = decision.details["units"][1]
    assert u2 == {"unit_id": "U2", "use_category": "riego", "buyer": "F-32", "buyer_kind": "productor",
                  "price": "1200.00", "receipt_number": "R-U2", "disposition": "SOLD_PRODUCER",
                  "delivered_on": "2024-09-20"}
    assert "buyer" not in decision.details["units"][0]
    assert UNITS[1] == {"unit_id": "U2", "use_category": "riego"}


def test_final_disposition_far_s16_three_producer_sales():
    lots = [sold("U1", "F-31", delivered="2024-09-18"), sold("U2", "F-32", delivered="2024-09-20"),
            sold("U3", "F-31", delivered="2024-09-19")]
    decision = final_disposition(UNITS, lots)
    assert decision.outcome == "SOLD_PRODUCER"
    assert decision.rule_ids == ("SUR-19", "FAR-21", "FAR-24")
    assert decision.details["price"] == "3600.00"
    assert decision.details["buyers"] == ["F-31", "F-32"]
    assert decision.details["buyer"] == "F-31" and decision.details["receipt_number"] == "R-U1"
    assert decision.details["delivered_on"] == "2024-09-20"
    assert decision.details["fondo_general"] == "3300.00"
    assert decision.details["fondo_secretario_hacienda"] == "300.00"


@pytest.mark.parametrize(("lot", "disposition"), [
    pytest.param(sold("U1", "COMP-B", None, "TRANSFER", hacienda_copy_sent=True), "TRANSFERRED",
                 id="SUR-07-SUR-S01-transferred"),
    pytest.param(sold("U1", "MUN-COAMO", "61.00", "GOV_NOMINAL"), "SOLD_GOV", id="SUR-09-SUR-S07-sold-gov"),
    pytest.param(sold("U1", "HOGAR", "101.00", "NONPROFIT_NOMINAL"), "SOLD_NONPROFIT_NOMINAL",
                 id="SUR-13-SUR-S10-nonprofit-nominal"),
    pytest.param(sold("U1", "HOGAR", "450.00", "MARKET_VALUE"), "SOLD_NONPROFIT_MARKET_VALUE",
                 id="SUR-14-AMB-03-market-value"),
])
def test_final_disposition_other_sales_have_no_fund_split(lot, disposition):
    decision = final_disposition(UNITS[:1], [lot])
    assert decision.outcome == disposition
    assert decision.rule_ids == ("SUR-19", "FAR-21")
    assert "fondo_general" not in decision.details and "fondo_secretario_hacienda" not in decision.details
    assert decision.details["price"] == (None if lot["price"] is None else lot["price"])
    assert decision.details["hacienda_copy_sent"] is bool(lot.get("hacienda_copy_sent"))


def test_final_disposition_without_lots():
    decision = final_disposition(UNITS, [])
    assert decision.outcome is None
    assert decision.details["price"] is None and decision.details["delivered_on"] is None
    assert decision.details["buyers"] == []
