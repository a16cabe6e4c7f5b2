"""Direct tests of engine/rules/surplus_disposition/delivery.py (SUR-16, 17, 19, 20; AMB-05, 06, 13; TC-3c, TC-4).

SUR-19/AMB-06 (i): a copy of the transfer form goes to Hacienda for every delivery except vehicles to
state agencies (municipalities are not «agencias del Gobierno»). SUR-20: an invoice for government
buyers outside the Comisión's jurisdiction. SUR-16/AMB-05/AMB-13: vehicles, donated goods and movable
goods valued strictly above $300.00, transferred or sold at nominal value to municipalities or
non-profits, are retained 3 years from delivery; SUR-17: not scrap bought to repair vehicles.
TC-3c: the obligation covers delivery … anniversary − 1 day; free from the anniversary.
"""
from __future__ import annotations

import pytest

from engine.rules.surplus_disposition.delivery import hacienda_copy, invoice_amount, retention_dates, retention_obligation


@pytest.mark.parametrize(("vehicle", "kind", "rule", "sent"), [
    pytest.param(False, "agencia_componente", "ALL_EXCEPT_VEHICLES_TO_STATE_AGENCIES", True,
                 id="SUR-19-AMB-06-SUR-S01-transfer-to-component"),
    pytest.param(True, "municipio", "ALL_EXCEPT_VEHICLES_TO_STATE_AGENCIES", True,
                 id="SUR-19-AMB-06-SUR-S16-vehicle-to-municipality"),
    pytest.param(True, "agencia_ejecutiva", "ALL_EXCEPT_VEHICLES_TO_STATE_AGENCIES", False,
                 id="SUR-19-vehicle-to-state-agency-excluded"),
    pytest.param(True, "agencia_componente", "ALL_EXCEPT_VEHICLES_TO_STATE_AGENCIES", False,
                 id="SUR-19-vehicle-to-component-excluded"),
    pytest.param(False, "productor", "ALL_EXCEPT_VEHICLES_TO_STATE_AGENCIES", True, id="SUR-19-producer-sale"),
    pytest.param(True, "sin_fines_de_lucro", "ALL_EXCEPT_VEHICLES_TO_STATE_AGENCIES", True,
                 id="SUR-19-vehicle-to-nonprofit"),
    pytest.param(False, "agencia_ejecutiva", "ONLY_STATE_AGENCIES_EXCEPT_VEHICLES", True, id="AMB-06-reading-ii-agency"),
    pytest.param(True, "agencia_ejecutiva", "ONLY_STATE_AGENCIES_EXCEPT_VEHICLES", False,
                 id="AMB-06-reading-ii-vehicle"),
    pytest.param(False, "municipio", "ONLY_STATE_AGENCIES_EXCEPT_VEHICLES", False,
                 id="AMB-06-reading-ii-municipality"),
])
def test_hacienda_copy(vehicle, kind, rule, sent):
    decision = hacienda_copy(vehicle, kind, rule)
    assert decision.outcome is sent
    assert decision.rule_ids == ("SUR-19", "AMB-06")
    assert decision.inputs == {"is_vehicle": vehicle, "recipient_kind": kind, "rule": rule}


def test_hacienda_copy_unknown_rule():
    with pytest.raises(ValueError):
        hacienda_copy(False, "municipio", "NEVER")


@pytest.mark.parametrize(("kind", "under", "price", "invoice"), [
    pytest.param("agencia_ejecutiva", False, "61.00", "61.00", id="SUR-20-agency-outside-jurisdiction"),
    pytest.param("municipio", False, "61.00", "61.00", id="SUR-20-SUR-S07-municipality-outside-jurisdiction"),
    pytest.param("agencia_ejecutiva", True, "61.00", None, id="SUR-20-under-jurisdiction-no-invoice"),
    pytest.param("agencia_componente", True, "0.00", None, id="SUR-20-free-transfer"),
    pytest.param("municipio", False, "0.00", None, id="SUR-20-cuando-proceda-nothing-to-invoice"),
    pytest.param("sin_fines_de_lucro", False, "101.00", None, id="SUR-21-nonprofit-pays-the-collector"),
    pytest.param("productor", False, "1200.00", None, id="FAR-23-producer-pays-the-collector"),
])
def test_invoice_amount(kind, under, price, invoice):
    decision = invoice_amount(kind, under, price)
    assert decision.outcome == invoice
    assert decision.rule_ids == ("SUR-20",)
    assert decision.inputs == {"recipient_kind": kind, "under_commission_jurisdiction": under, "price": price}


def item(value, **flags):
    return {"estimated_value": value, "is_vehicle": False, "donated": False, "scrap_for_vehicle_repair": False,
            **flags}


COVERED_RULES = ("SUR-16", "AMB-05", "AMB-13", "TC-4")


@pytest.mark.parametrize(("the_item", "kind", "disposition", "kwargs", "bound", "reason", "rules"), [
    pytest.param(item("180.00"), "agencia_componente", "TRANSFERRED", {}, False, "RECIPIENT_OR_SALE_NOT_BOUND",
                 ("SUR-16", "AMB-13"), id="SUR-16-AMB-13-SUR-S01-agency-not-bound"),
    pytest.param(item("450.00"), "sin_fines_de_lucro", "SOLD_NONPROFIT_NOMINAL", {}, True, "COVERED", COVERED_RULES,
                 id="SUR-16-SUR-S10-desk-set-to-nonprofit"),
    pytest.param(item("650.00"), "municipio", "SOLD_GOV", {}, True, "COVERED", COVERED_RULES,
                 id="SUR-16-AMB-13-nominal-plus-costs-counts-as-nominal"),
    pytest.param(item("650.00"), "agencia_ejecutiva", "SOLD_GOV", {}, False, "RECIPIENT_OR_SALE_NOT_BOUND",
                 ("SUR-16", "AMB-13"), id="AMB-13-state-agency-not-bound"),
    pytest.param(item("300.00"), "municipio", "SOLD_GOV", {}, False, "NOT_ABOVE_THRESHOLD", COVERED_RULES,
                 id="SUR-16-AMB-05-TC-4-exactly-300-not-covered"),
    pytest.param(item("300.01"), "municipio", "SOLD_GOV", {}, True, "COVERED", COVERED_RULES,
                 id="SUR-16-AMB-05-TC-4-300.01-covered"),
    pytest.param(item("299.99"), "sin_fines_de_lucro", "SOLD_NONPROFIT_NOMINAL", {}, False, "NOT_ABOVE_THRESHOLD",
                 COVERED_RULES, id="SUR-16-below-300"),
    pytest.param(item("250.00", donated=True), "sin_fines_de_lucro", "SOLD_NONPROFIT_NOMINAL", {}, True, "COVERED",
                 COVERED_RULES, id="SUR-16-AMB-05-SUR-S19-donated-whatever-value"),
    pytest.param(item("250.00", donated=True), "sin_fines_de_lucro", "SOLD_NONPROFIT_NOMINAL",
                 {"threshold_scope": "ALL_ITEMS"}, False, "NOT_ABOVE_THRESHOLD", COVERED_RULES,
                 id="AMB-05-SUR-S19-ALL_ITEMS-donated-below-300"),
    pytest.param(item("100.00", is_vehicle=True), "municipio", "SOLD_GOV", {}, True, "COVERED", COVERED_RULES,
                 id="SUR-16-AMB-05-vehicle-whatever-value"),
    pytest.param(item("450.00", is_vehicle=True, scrap_for_vehicle_repair=True), "municipio", "SOLD_GOV", {}, False,
                 "SCRAP_FOR_VEHICLE_REPAIR", ("SUR-16", "SUR-17"), id="SUR-17-SUR-S16-scrap-exempt"),
    pytest.param(item("9000.00"), "sin_fines_de_lucro", "SOLD_NONPROFIT_MARKET_VALUE", {}, False,
                 "RECIPIENT_OR_SALE_NOT_BOUND", ("SUR-16", "AMB-13"), id="AMB-13-market-value-sale-not-bound"),
    pytest.param(item("9000.00"), "productor", "SOLD_PRODUCER", {}, False, "RECIPIENT_OR_SALE_NOT_BOUND",
                 ("SUR-16", "AMB-13"), id="AMB-13-producer-fmv-not-bound"),
    pytest.param(item("500.00"), "municipio", "SOLD_GOV", {"muebles_meaning": "FURNITURE_ONLY"}, False,
                 "NOT_A_COVERED_GOOD", COVERED_RULES, id="AMB-05-furniture-only-other-goods"),
    pytest.param(item("500.00", furniture=True), "municipio", "SOLD_GOV", {"muebles_meaning": "FURNITURE_ONLY"},
                 True, "COVERED", COVERED_RULES, id="AMB-05-furniture-only-furniture"),
    pytest.param(item("500.00"), "municipio", "TRANSFERRED", {"threshold": "600.00"}, False, "NOT_ABOVE_THRESHOLD",
                 COVERED_RULES, id="SUR-16-threshold-parameter"),
])
def test_retention_obligation(the_item, kind, disposition, kwargs, bound, reason, rules):
    decision = retention_obligation(the_item, kind, disposition, **kwargs)
    assert decision.outcome is bound
    assert decision.details == {"reason": reason}
    assert decision.rule_ids == rules
    assert decision.inputs["estimated_value"] == the_item["estimated_value"]


@pytest.mark.parametrize("kwargs", [pytest.param({"threshold_scope": "SOME"}, id="AMB-05-unknown-scope"),
                                    pytest.param({"muebles_meaning": "SOME"}, id="AMB-05-unknown-meaning")])
def test_retention_obligation_unknown_parameters(kwargs):
    with pytest.raises(ValueError):
        retention_obligation(item("450.00"), "municipio", "SOLD_GOV", **kwargs)


@pytest.mark.parametrize(("delivered", "through", "free"), [
    pytest.param("2024-09-10", "2027-09-09", "2027-09-10", id="TC-3c-AMB-13-SUR-S10"),
    pytest.param("2024-10-15", "2027-10-14", "2027-10-15", id="TC-3c-SUR-S19"),
    pytest.param("2024-02-29", "2027-02-27", "2027-02-28", id="TC-3-29feb-to-28feb"),
    pytest.param("2024-04-22T15:30:00-04:00", "2027-04-21", "2027-04-22", id="TC-3c-delivery-instant-its-day"),
])
def test_retention_dates(delivered, through, free):
    decision = retention_dates(delivered, 3)
    expected = {"retention_active_through": through, "retention_free_from": free}
    assert decision.outcome == expected and decision.details == expected
    assert decision.rule_ids == ("SUR-16", "TC-3c", "AMB-13")
    assert decision.inputs == {"delivered_on": delivered[:10], "years": 3, "anchor": "DELIVERY_DATE"}


def test_retention_runs_from_the_puerto_rico_day_of_a_utc_delivery():
    # 02:00 UTC on 1 March is 22:00 on 29 February in Puerto Rico: delivered on the 29th.
    decision = retention_dates("2024-03-01T02:00:00+00:00", 3)
    assert decision.outcome == {"retention_active_through": "2027-02-27", "retention_free_from": "2027-02-28"}
    assert decision.inputs["delivered_on"] == "2024-02-29"


def test_retention_dates_unknown_anchor():
    with pytest.raises(ValueError):
        retention_dates("2024-09-10", 3, "SALE_DATE")
