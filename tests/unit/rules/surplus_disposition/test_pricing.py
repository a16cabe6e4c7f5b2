"""Direct tests of engine/rules/surplus_disposition/pricing.py (SUR-09, 11, 13, 14; FAR-21, 22, 24, 26;
AMB-03, 16, 19).

SUR-09: category 1 = nominal + custody + maintenance + repair + habilitation. SUR-13: category 3 =
nominal + maintenance + storage + repair. SUR-11/FAR-22: producers pay the price fixed, never above
FMV. FAR-26/AMB-19: a discount only from a configured table. FAR-21: one unit per sale. FAR-24: the
Comisión's costs go to the Secretario de Hacienda's fund, the rest to the Fondo General.
"""
from __future__ import annotations

from decimal import Decimal

import pytest

from engine.rules.decision import RuleViolation
from engine.rules.surplus_disposition.pricing import discount_pct, fund_split, sale_price

TABLE = [{"minHousehold": 5, "maxIncome": "19999.99", "pct": 25}]


@pytest.mark.parametrize(("table", "household", "income", "pct"), [
    pytest.param(TABLE, 5, "18000.00", "25", id="FAR-26-AMB-19-FAR-S19-test-table"),
    pytest.param(TABLE, 5, "19999.99", "25", id="FAR-26-income-at-maximum"),
    pytest.param(TABLE, 5, "20000.00", "0", id="FAR-26-income-one-cent-above"),
    pytest.param(TABLE, 4, "18000.00", "0", id="FAR-26-household-below-minimum"),
    pytest.param(TABLE, 7, "18000.00", "25", id="FAR-26-larger-household"),
    pytest.param([], 5, "18000.00", "0", id="AMB-19-FAR-S19-default-no-table"),
    pytest.param(None, 5, "18000.00", "0", id="AMB-19-table-none"),
    pytest.param({"rows": TABLE}, 5, "18000.00", "25", id="AMB-19-table-with-rows"),
    pytest.param([{"min_household": 1, "max_income": "10000.00", "pct": "10"}, {"min_household": 1, "pct": 5}], 2,
                 "12000.00", "5", id="FAR-26-first-fitting-row-snake-case"),
    pytest.param(TABLE, None, "18000.00", "0", id="FAR-26-household-unknown"),
    pytest.param(TABLE, 5, None, "0", id="FAR-26-income-unknown"),
])
def test_discount_pct(table, household, income, pct):
    assert discount_pct(table, household, income) == Decimal(pct)


def producer(price="9000.00", fmv="9000.00", discount=False, **extra):
    return {"fair_market_value": fmv, "price": price, "discount_requested": discount, "processing_costs": "150.00",
            **extra}


@pytest.mark.parametrize(("data", "table", "price", "applied", "pct", "rules"), [
    pytest.param(producer(), [], "9000.00", "0.00", "0", ("SUR-11", "FAR-22"), id="SUR-11-FAR-22-price-is-fmv"),
    pytest.param(producer(discount=True), [], "9000.00", "0.00", "0", ("SUR-11", "FAR-22", "FAR-26", "AMB-19"),
                 id="FAR-26-AMB-19-FAR-S19-default-no-discount"),
    pytest.param(producer(discount=True), TABLE, "6750.00", "2250.00", "25", ("SUR-11", "FAR-22", "FAR-26", "AMB-19"),
                 id="FAR-26-FAR-S19-test-table-6750"),
    pytest.param(producer(), TABLE, "9000.00", "0.00", "0", ("SUR-11", "FAR-22"), id="FAR-26-discount-not-requested"),
    pytest.param(producer("8999.99"), [], "8999.99", "0.00", "0", ("SUR-11", "FAR-22"), id="FAR-22-below-fmv"),
    pytest.param(producer("1200.00", "1200.00", units=["U2"]), [], "1200.00", "0.00", "0", ("SUR-11", "FAR-22"),
                 id="FAR-21-FAR-S16-one-unit"),
    pytest.param(producer("100.20", "100.20", True), [{"minHousehold": 1, "pct": "12.5"}], "87.67", "12.53",
                 "12.5", ("SUR-11", "FAR-22", "FAR-26", "AMB-19"), id="TC-5-discount-rounded-half-up"),
])
def test_producer_price(data, table, price, applied, pct, rules):
    decision = sale_price("PRODUCER_FMV", data, table, 5, "18000.00")
    assert decision.outcome == price
    assert decision.rule_ids == rules
    assert decision.details["price"] == price
    assert decision.details["discount_applied"] == applied and decision.details["discount_pct"] == pct
    assert decision.details["fair_market_value"] == data["fair_market_value"]
    assert decision.details["processing_costs"] == "150.00"


@pytest.mark.parametrize(("basis", "data", "code", "rules"), [
    pytest.param("PRODUCER_FMV", producer("9000.01"), "PRICE_EXCEEDS_FMV", ["FAR-22", "SUR-11"],
                 id="FAR-22-one-cent-above-fmv"),
    pytest.param("PRODUCER_FMV", producer(units=["U1", "U3"]), "UNITS_MUST_BE_SOLD_INDIVIDUALLY", ["FAR-21", "AMB-16"],
                 id="FAR-21-AMB-16-FAR-S16-U1-plus-U3-refused"),
    pytest.param("GOV_NOMINAL", {"nominal_value": "1.00", "units": ["U1", "U2"]}, "UNITS_MUST_BE_SOLD_INDIVIDUALLY",
                 ["FAR-21", "AMB-16"], id="FAR-21-lot-refused-whatever-the-basis"),
    pytest.param("PRODUCER_FMV", producer(fmv=None), "PRICE_COMPONENT_REQUIRED", ["SUR-11", "FAR-22"],
                 id="SUR-11-fmv-required"),
    pytest.param("PRODUCER_FMV", producer(price=""), "PRICE_COMPONENT_REQUIRED", ["SUR-11", "FAR-22"],
                 id="SUR-11-price-required"),
    pytest.param("GOV_NOMINAL", {"custody_costs": "60.00"}, "PRICE_COMPONENT_REQUIRED", ["SUR-09"],
                 id="SUR-09-nominal-required"),
    pytest.param("NONPROFIT_NOMINAL", {"nominal_value": ""}, "PRICE_COMPONENT_REQUIRED", ["SUR-13"],
                 id="SUR-13-nominal-required"),
    pytest.param("MARKET_VALUE", {}, "PRICE_COMPONENT_REQUIRED", ["SUR-14", "AMB-03"], id="SUR-14-market-value-required"),
])
def test_sale_price_refuses(basis, data, code, rules):
    with pytest.raises(RuleViolation) as caught:
        sale_price(basis, data)
    assert caught.value.code == code and caught.value.rule_ids == rules


GOV = {"nominal_value": "1.00", "custody_costs": "60.00", "maintenance_costs": "0", "repair_costs": None,
       "habilitation_costs": "", "storage_costs": "999.00"}
NONPROFIT = {"nominal_value": "1.00", "maintenance_costs": "40.00", "storage_costs": "60.00", "repair_costs": "0.00",
             "custody_costs": "999.00", "habilitation_costs": "999.00"}


@pytest.mark.parametrize(("basis", "data", "price", "components", "rules"), [
    pytest.param("GOV_NOMINAL", GOV, "61.00",
                 {"nominal_value": "1.00", "custody_costs": "60.00", "maintenance_costs": "0.00",
                  "repair_costs": "0.00", "habilitation_costs": "0.00"}, ("SUR-09",),
                 id="SUR-09-SUR-S07-nominal-plus-custody-61"),
    pytest.param("GOV_NOMINAL", {"nominal_value": "25.00", "custody_costs": "0.10", "maintenance_costs": "0.20",
                                 "repair_costs": "0.30", "habilitation_costs": "0.40"}, "26.00",
                 {"nominal_value": "25.00", "custody_costs": "0.10", "maintenance_costs": "0.20",
                  "repair_costs": "0.30", "habilitation_costs": "0.40"}, ("SUR-09",), id="SUR-09-TC-4-exact-cents"),
    pytest.param("NONPROFIT_NOMINAL", NONPROFIT, "101.00",
                 {"nominal_value": "1.00", "maintenance_costs": "40.00", "storage_costs": "60.00",
                  "repair_costs": "0.00"}, ("SUR-13",), id="SUR-13-SUR-S10-nominal-plus-costs-101"),
    pytest.param("NONPROFIT_NOMINAL", {"nominal_value": "1.00", "storage_costs": "10.00"}, "11.00",
                 {"nominal_value": "1.00", "maintenance_costs": "0.00", "storage_costs": "10.00",
                  "repair_costs": "0.00"}, ("SUR-13",), id="SUR-13-SUR-S19-laptop-11"),
    pytest.param("MARKET_VALUE", {"market_value": "450.00", "storage_costs": "60.00"}, "450.00",
                 {"market_value": "450.00"}, ("SUR-14", "AMB-03"), id="SUR-14-AMB-03-market-value"),
])
def test_nominal_and_market_prices(basis, data, price, components, rules):
    decision = sale_price(basis, data)
    assert decision.outcome == price
    assert decision.rule_ids == rules
    assert decision.details == {"price": price, "components": components}
    assert decision.inputs == {"basis": basis, **components}


def test_sale_price_unknown_basis():
    with pytest.raises(ValueError):
        sale_price("TRANSFER", {"nominal_value": "1.00"})


@pytest.mark.parametrize(("price", "costs", "general", "hacienda"), [
    pytest.param("1200.00", "150.00", "1050.00", "150.00", id="FAR-24-proceeds-less-costs"),
    pytest.param("1200.00", "0", "1200.00", "0.00", id="FAR-24-no-costs"),
    pytest.param("1200.00", None, "1200.00", "0.00", id="FAR-24-costs-not-given"),
    pytest.param("1200.00", "1200.00", "0.00", "1200.00", id="FAR-24-costs-equal-price"),
    pytest.param("0.30", "0.10", "0.20", "0.10", id="FAR-24-TC-4-exact-cents"),
])
def test_fund_split(price, costs, general, hacienda):
    decision = fund_split(price, costs)
    expected = {"fondo_general": general, "fondo_secretario_hacienda": hacienda}
    assert decision.outcome == expected and decision.details == expected
    assert decision.rule_ids == ("FAR-24",)


@pytest.mark.parametrize("costs", [pytest.param("1200.01", id="FAR-24-costs-above-price"),
                                   pytest.param("-1.00", id="FAR-24-negative-costs")])
def test_fund_split_refuses(costs):
    with pytest.raises(RuleViolation) as caught:
        fund_split("1200.00", costs)
    assert caught.value.code == "PROCESSING_COSTS_INVALID" and caught.value.rule_ids == ["FAR-24"]
