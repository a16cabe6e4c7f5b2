"""The price of a sale by its basis (SUR-09, 11, 13, 14; FAR-21, 22, 24, 26; AMB-03, 13, 16, 19).

Bases: GOV_NOMINAL (category 1: nominal + custody + maintenance + repair + habilitation),
PRODUCER_FMV (category 2: the price fixed by the Encargado, never above fair market value, less
a configured discount), NONPROFIT_NOMINAL (category 3: nominal + maintenance + storage + repair),
MARKET_VALUE (an unendorsed non-profit under `MARKET_VALUE_SALE`).
"""
from __future__ import annotations

from decimal import Decimal

from engine.rules.decision import Decision
from engine.rules.money import money
from engine.rules.surplus_disposition.common import cents, refuse, text

COMPONENTS = {
    "GOV_NOMINAL": ("nominal_value", ("custody_costs", "maintenance_costs", "repair_costs", "habilitation_costs"),
                    ("SUR-09",)),
    "NONPROFIT_NOMINAL": ("nominal_value", ("maintenance_costs", "storage_costs", "repair_costs"), ("SUR-13",)),
    "MARKET_VALUE": ("market_value", (), ("SUR-14", "AMB-03")),
}


def _table_rows(table) -> list[dict]:
    if not table:
        return []
    if isinstance(table, dict):
        table = table.get("rows") or []
    return list(table)


def discount_pct(table, household_size, annual_income) -> Decimal:
    """FAR-26 / AMB-19: the first row whose household minimum and income maximum fit; no table, no
    discount. Rows: {min_household, max_income, pct} (camelCase accepted)."""
    if household_size is None or annual_income is None:
        return Decimal(0)
    for row in _table_rows(table):
        minimum = int(row.get("min_household", row.get("minHousehold", 0)) or 0)
        maximum = row.get("max_income", row.get("maxIncome"))
        if int(household_size) >= minimum and (maximum is None or cents(annual_income) <= cents(maximum)):
            return money(row["pct"])
    return Decimal(0)


def sale_price(basis, data, discount_table=None, household_size=None, annual_income=None) -> Decision:
    """The price of one sale; refuses `UNITS_MUST_BE_SOLD_INDIVIDUALLY`, `PRICE_EXCEEDS_FMV`,
    `PRICE_COMPONENT_REQUIRED`."""
    units = data.get("units") or []
    if len(units) > 1:
        refuse("UNITS_MUST_BE_SOLD_INDIVIDUALLY", "units of equipment are sold one by one: one unit per sale",
               "FAR-21", "AMB-16")
    if basis == "PRODUCER_FMV":
        if data.get("fair_market_value") in (None, "") or data.get("price") in (None, ""):
            refuse("PRICE_COMPONENT_REQUIRED", "a producer sale needs the fair market value and the price",
                   "SUR-11", "FAR-22")
        fmv, asked = cents(data["fair_market_value"]), cents(data["price"])
        if asked > fmv:
            refuse("PRICE_EXCEEDS_FMV", f"the price {asked} exceeds the fair market value {fmv}", "FAR-22", "SUR-11",
                   values={"price": text(asked), "fair_market_value": text(fmv)})
        pct = discount_pct(discount_table, household_size, annual_income) if data.get("discount_requested") \
            else Decimal(0)
        discount = cents(asked * pct / 100)  # half-up to the cent (TC-5)
        price = asked - discount
        rules = ("SUR-11", "FAR-22") + (("FAR-26", "AMB-19") if data.get("discount_requested") else ())
        return Decision(text(price), rules,
                        {"basis": basis, "fair_market_value": text(fmv), "price": text(asked),
                         "discount_requested": bool(data.get("discount_requested")),
                         "household_size": household_size, "annual_income": annual_income,
                         "discount_table": _table_rows(discount_table)},
                        {"price": text(price), "discount_pct": str(pct), "discount_applied": text(discount),
                         "fair_market_value": text(fmv),
                         "processing_costs": text(cents(data.get("processing_costs")))})
    if basis not in COMPONENTS:
        raise ValueError(f"unknown pricing basis {basis!r}")
    base, extras, rules = COMPONENTS[basis]
    if data.get(base) in (None, ""):
        refuse("PRICE_COMPONENT_REQUIRED", f"the price needs {base}", *rules)
    parts = {name: text(cents(data.get(name))) for name in (base, *extras)}
    price = sum((Decimal(v) for v in parts.values()), Decimal("0.00"))
    return Decision(text(price), rules, {"basis": basis, **parts}, {"price": text(price), "components": parts})


def fund_split(price, processing_costs) -> Decision:
    """FAR-24: the General Fund receives the proceeds less the Comisión's processing costs, which go
    to the fund the Secretario de Hacienda designates."""
    total, costs = cents(price), cents(processing_costs)
    if costs < 0 or costs > total:
        refuse("PROCESSING_COSTS_INVALID", f"processing costs {costs} must be between 0 and the price {total}",
               "FAR-24")
    return Decision({"fondo_general": text(total - costs), "fondo_secretario_hacienda": text(costs)},
                    ("FAR-24",), {"price": text(total), "processing_costs": text(costs)},
                    {"fondo_general": text(total - costs), "fondo_secretario_hacienda": text(costs)})
