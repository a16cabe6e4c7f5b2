"""Direct tests of engine/rules/materials_aid/quotes.py (MAT-15, 20, 21, 22, 34; AMB-26, 31, 36; TC-4).

Fixtures of EXAMPLES.md: the registered stores RL-1001…RL-1004 (Ferretería La Esquina is not
registered); `materials.maxAidAmount = 5,000.00`. AMB-26: three distinct registered stores, the
lowest total wins. AMB-36: misuse costs the misused value, at most the delivered total.
"""
from __future__ import annotations

from decimal import Decimal

import pytest

from engine.rules.materials_aid.quotes import (
    ALL_DELIVERED, MISUSED_VALUE, QUOTE_STORE_NOT_REGISTERED, QUOTES_NOT_THREE_DISTINCT, aid_within_maximum,
    collection_amount, items_not_indispensable, quote_problems, registered_store, select_quote,
)

STORES = [{"id": "RL-1001", "name": "Ferretería Borinquen"}, {"id": "RL-1002", "name": "Ferretería El Coquí"},
          {"id": "RL-1003", "name": "Materiales del Este"}, {"id": "RL-1004", "name": "Ferretería Central"}]


def q(store_id, name, total):
    return {"store_id": store_id, "store_name": name, "total": total}


BORINQUEN = q("RL-1001", "Ferretería Borinquen", "4150.00")
COQUI = q("RL-1002", "Ferretería El Coquí", "4310.00")
ESTE = q("RL-1003", "Materiales del Este", "4395.00")
ESQUINA = q(None, "Ferretería La Esquina", "3900.00")


@pytest.mark.parametrize(("quote", "store"), [
    pytest.param(BORINQUEN, "RL-1001", id="MAT-15-by-registry-id"),
    pytest.param(q(None, "ferreteria el coqui", "1"), "RL-1002", id="MAT-15-by-name-accents-case"),
    pytest.param(q("rl-1003", "otro nombre", "1"), "RL-1003", id="MAT-15-id-wins-over-name"),
    pytest.param(ESQUINA, None, id="MAT-15-not-registered"),
])
def test_registered_store(quote, store):
    entry = registered_store(quote, STORES)
    assert (entry or {}).get("id") == store


@pytest.mark.parametrize(("quotes", "codes"), [
    pytest.param([BORINQUEN, COQUI, ESTE], [], id="MAT-15-AMB-26-MAT-S01-three-distinct"),
    pytest.param([BORINQUEN, COQUI, ESTE, q("RL-1004", "Ferretería Central", "5000")], [], id="MAT-15-four"),
    pytest.param([BORINQUEN, COQUI], [QUOTES_NOT_THREE_DISTINCT], id="MAT-15-only-two"),
    pytest.param([BORINQUEN, COQUI, q("RL-1001", "Ferretería Borinquen", "4000.00")], [QUOTES_NOT_THREE_DISTINCT],
                 id="MAT-15-same-store-twice"),
    pytest.param([BORINQUEN, COQUI, ESQUINA], [QUOTE_STORE_NOT_REGISTERED, QUOTES_NOT_THREE_DISTINCT],
                 id="MAT-15-unregistered-store"),
    pytest.param([BORINQUEN, COQUI, ESTE, ESQUINA], [QUOTE_STORE_NOT_REGISTERED],
                 id="MAT-15-unregistered-fourth"),
    pytest.param([], [QUOTES_NOT_THREE_DISTINCT], id="MAT-15-no-quotes"),
])
def test_quote_problems(quotes, codes):
    assert [code for code, _ in quote_problems(quotes, STORES, 3)] == codes


@pytest.mark.parametrize(("quotes", "store", "total"), [
    pytest.param([BORINQUEN, COQUI, ESTE], "RL-1001", "4150.00", id="MAT-15-AMB-26-MAT-S01-lowest-borinquen"),
    pytest.param([ESTE, COQUI, BORINQUEN], "RL-1001", "4150.00", id="AMB-26-order-irrelevant"),
    pytest.param([BORINQUEN, COQUI, ESTE, ESQUINA], "RL-1001", "4150.00",
                 id="MAT-15-unregistered-lower-quote-ignored"),
    pytest.param([q("RL-1001", "Ferretería Borinquen", "4150.01"), q("RL-1002", "Ferretería El Coquí", "4150.00"),
                  ESTE], "RL-1002", "4150.00", id="AMB-26-TC-4-one-cent-decides"),
    pytest.param([q("RL-1001", "Ferretería Borinquen", 4150), COQUI, ESTE], "RL-1001", "4150.00",
                 id="TC-4-integer-total"),
])
def test_select_quote(quotes, store, total):
    decision = select_quote(quotes, STORES)
    names = {s["id"]: s["name"] for s in STORES}
    assert decision.outcome == {"store_id": store, "store_name": names[store]}
    assert decision.details == {"selected_total": Decimal(total)}
    assert decision.rule_ids == ("MAT-15", "AMB-26", "TC-4")
    assert decision.inputs["quote_selection"] == "LOWEST_TOTAL"


@pytest.mark.parametrize("quotes", [pytest.param([], id="MAT-15-none"), pytest.param([ESQUINA], id="MAT-15-only-unregistered")])
def test_select_quote_without_a_registered_store(quotes):
    with pytest.raises(ValueError):
        select_quote(quotes, STORES)


@pytest.mark.parametrize(("items", "extra"), [
    pytest.param([{"description": "Techo", "amount": "3000.00", "indispensable": True},
                  {"description": "Baño", "amount": "1150.00", "indispensable": True}], [], id="MAT-22-all-indispensable"),
    pytest.param([{"description": "Techo", "amount": "3000.00", "indispensable": True},
                  {"description": "Terraza", "amount": "800.00", "indispensable": False},
                  {"description": "Piscina", "amount": "900.00"}], ["Terraza", "Piscina"], id="MAT-22-not-indispensable"),
    pytest.param([], [], id="MAT-22-empty"),
    pytest.param(None, [], id="MAT-22-none"),
])
def test_items_not_indispensable(items, extra):
    assert items_not_indispensable(items) == extra


@pytest.mark.parametrize(("amount", "maximum", "within"), [
    pytest.param("4150.00", "5000.00", True, id="MAT-21-MAT-S01-below"),
    pytest.param("5000.00", "5000.00", True, id="MAT-21-TC-4-exactly-the-maximum"),
    pytest.param("5000.01", "5000.00", False, id="MAT-21-TC-4-one-cent-above"),
    pytest.param(Decimal("4999.99"), Decimal("5000"), True, id="MAT-21-decimal-inputs"),
])
def test_aid_within_maximum(amount, maximum, within):
    decision = aid_within_maximum(amount, maximum)
    assert decision.outcome is within
    assert decision.rule_ids == ("MAT-21", "AMB-31", "TC-4")
    assert decision.inputs == {"amount": Decimal(str(amount)).quantize(Decimal("0.01")),
                               "max_aid_amount": Decimal(str(maximum)).quantize(Decimal("0.01"))}


def test_aid_within_maximum_needs_the_secretarios_maximum():
    with pytest.raises(ValueError):
        aid_within_maximum("4150.00", None)


@pytest.mark.parametrize(("misused", "delivered", "basis", "amount"), [
    pytest.param("1200.00", "4150.00", MISUSED_VALUE, "1200.00", id="AMB-36-misused-value"),
    pytest.param("4150.01", "4150.00", MISUSED_VALUE, "4150.00", id="AMB-36-capped-one-cent-above"),
    pytest.param("4150.00", "4150.00", MISUSED_VALUE, "4150.00", id="AMB-36-equal"),
    pytest.param(None, "4150.00", MISUSED_VALUE, "4150.00", id="AMB-36-no-value-all-delivered"),
    pytest.param("0.00", "4150.00", MISUSED_VALUE, "0.00", id="AMB-36-zero"),
    pytest.param("1200.00", "4150.00", ALL_DELIVERED, "4150.00", id="AMB-36-ALL_DELIVERED"),
])
def test_collection_amount(misused, delivered, basis, amount):
    decision = collection_amount(misused, delivered, basis)
    assert decision.outcome == Decimal(amount)
    assert decision.rule_ids == ("MAT-20", "MAT-34", "MAT-35", "AMB-36", "TC-4")
    assert decision.inputs == {"misused_value": None if misused is None else Decimal(misused),
                               "delivered_total": Decimal(delivered), "collection_basis": basis}
