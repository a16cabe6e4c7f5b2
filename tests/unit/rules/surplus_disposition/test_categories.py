"""Direct tests of engine/rules/surplus_disposition/categories.py (SUR-07, 09…14; FAR-02, 14, 17; AMB-02…04).

SUR-10: category 1 is government bodies NOT obliged to dispose through the Comisión. SUR-11/AMB-02:
producers only for goods of producer utility (agrícola, industrial, manual, pesca) and of their type.
FAR-14/17, AMB-17: only ACTIVE registry members buy. SUR-13: endorsed non-profits are category 3;
AMB-03: without endorsement TREAT_AS_PUBLIC (the auction) or MARKET_VALUE_SALE. AMB-04: for producer-
utility goods, agencies before municipalities, each in arrival order; others by arrival.
"""
from __future__ import annotations

import pytest

from engine.rules.decision import RuleViolation
from engine.rules.surplus_disposition.categories import (
    government_order, has_producer_utility, producer_types_for, request_category,
)

UTILITIES = ("agricola", "industrial", "manual", "pesca")
TRACTOR = {"inventory_number": "A-4001", "utility": "agricola", "is_vehicle": False}
DESK = {"inventory_number": "P-5002", "utility": "none", "is_vehicle": False}


@pytest.mark.parametrize(("utility", "types", "has", "producers"), [
    pytest.param("agricola", UTILITIES, True, ["agricultor", "acuicultor", "avicultor"], id="AMB-02-agricola"),
    pytest.param("pesca", UTILITIES, True, ["pescador"], id="AMB-02-pesca"),
    pytest.param("manual", UTILITIES, True, ["artesano"], id="AMB-02-manual"),
    pytest.param("industrial", UTILITIES, True, ["artesano"], id="AMB-02-industrial"),
    pytest.param("AGRICOLA", UTILITIES, True, ["agricultor", "acuicultor", "avicultor"], id="AMB-02-uppercase"),
    pytest.param("none", UTILITIES, False, [], id="SUR-11-no-utility"),
    pytest.param(None, UTILITIES, False, [], id="SUR-11-utility-missing"),
    pytest.param("pesca", ("agricola",), False, [], id="AMB-02-000-profile-agricola-only"),
])
def test_producer_utility(utility, types, has, producers):
    item = {"utility": utility}
    assert has_producer_utility(item, types) is has
    assert producer_types_for(item, types) == producers


def requester(kind, **extra):
    return {"id": f"R-{kind}", "name": kind, "kind": kind, "obliged_to_dispose_through_commission": False, **extra}


ENDORSED = {"endorsement": {"regulating_body": "Depto. de la Familia"}}


@pytest.mark.parametrize(("req", "item", "kwargs", "category", "rules", "pricing"), [
    pytest.param(requester("agencia_componente"), DESK, {}, "TRANSFER", ("SUR-07",), None, id="SUR-07-component"),
    pytest.param(requester("agencia_ejecutiva"), DESK, {}, 1, ("SUR-09", "SUR-10"), None, id="SUR-10-agency"),
    pytest.param(requester("municipio"), TRACTOR, {}, 1, ("SUR-09", "SUR-10"), None, id="SUR-10-municipality"),
    pytest.param(requester("productor"), TRACTOR, {"registry_status": "ACTIVE", "registry_type": "agricultor"}, 2,
                 ("SUR-11", "SUR-12", "FAR-17"), None, id="SUR-11-FAR-17-active-farmer"),
    pytest.param(requester("productor"), TRACTOR, {"registry_status": "ACTIVE", "registry_type": "avicultor"}, 2,
                 ("SUR-11", "SUR-12", "FAR-17"), None, id="AMB-02-poultry-counts-as-agriculture"),
    pytest.param(requester("productor"), TRACTOR, {"registry_status": "ACTIVE"}, 2,
                 ("SUR-11", "SUR-12", "FAR-17"), None, id="FAR-17-type-unknown"),
    pytest.param(requester("sin_fines_de_lucro", **ENDORSED), DESK, {}, 3, ("SUR-13",), "NONPROFIT_NOMINAL",
                 id="SUR-13-SUR-S10-endorsed-nonprofit"),
    pytest.param(requester("sin_fines_de_lucro"), DESK, {}, 4, ("SUR-14", "AMB-03"), "PUBLIC_AUCTION",
                 id="SUR-14-AMB-03-treat-as-public"),
    pytest.param(requester("sin_fines_de_lucro", endorsement={"regulating_body": ""}), DESK, {}, 4,
                 ("SUR-14", "AMB-03"), "PUBLIC_AUCTION", id="SUR-13-blank-endorsement"),
    pytest.param(requester("sin_fines_de_lucro"), DESK, {"nonprofit_without_certification": "MARKET_VALUE_SALE"},
                 3, ("SUR-14", "AMB-03"), "MARKET_VALUE", id="SUR-14-AMB-03-market-value-sale"),
])
def test_request_category(req, item, kwargs, category, rules, pricing):
    decision = request_category(req, item, UTILITIES, **kwargs)
    assert decision.outcome == category
    assert decision.rule_ids == rules
    assert decision.details.get("pricing") == pricing
    assert decision.inputs["kind"] == req["kind"] and decision.inputs["utility"] == item["utility"]


@pytest.mark.parametrize(("req", "item", "kwargs", "code", "rules"), [
    pytest.param(requester("municipio", obliged_to_dispose_through_commission=True), DESK, {},
                 "NOT_ELIGIBLE_CATEGORY", ["SUR-10"], id="SUR-10-obliged-body"),
    pytest.param(requester("agencia_ejecutiva", obliged_to_dispose_through_commission=True), TRACTOR, {},
                 "NOT_ELIGIBLE_CATEGORY", ["SUR-10"], id="SUR-10-obliged-agency"),
    pytest.param(requester("productor"), DESK, {"registry_status": "ACTIVE"}, "NOT_ELIGIBLE_CATEGORY",
                 ["SUR-11", "AMB-02"], id="SUR-11-SUR-S10-farmer-no-utility"),
    pytest.param(requester("productor"), TRACTOR, {"registry_status": None}, "NOT_REGISTERED",
                 ["FAR-14", "FAR-17", "FAR-18"], id="FAR-14-FAR-17-FAR-S22-not-in-registry"),
    pytest.param(requester("productor"), TRACTOR, {"registry_status": "RENEWAL_OVERDUE"}, "NOT_REGISTERED",
                 ["FAR-14", "FAR-17", "FAR-18"], id="FAR-15-AMB-17-overdue-may-not-buy"),
    pytest.param(requester("productor"), TRACTOR, {"registry_status": "REMOVED"}, "NOT_REGISTERED",
                 ["FAR-14", "FAR-17", "FAR-18"], id="FAR-16-removed"),
    pytest.param(requester("productor"), TRACTOR, {"registry_status": "ACTIVE", "registry_type": "pescador"},
                 "NOT_ELIGIBLE_CATEGORY", ["FAR-02", "AMB-02"], id="FAR-02-AMB-02-fisherman-for-tractor"),
    pytest.param(requester("productor"), {"utility": "pesca"}, {"registry_status": "ACTIVE",
                                                                "registry_type": "agricultor"},
                 "NOT_ELIGIBLE_CATEGORY", ["FAR-02", "AMB-02"], id="FAR-02-farmer-for-fishing-gear"),
    pytest.param(requester("empresa_privada"), DESK, {}, "NOT_ELIGIBLE_CATEGORY", ["SUR-08"], id="SUR-08-unknown-kind"),
])
def test_request_category_refuses(req, item, kwargs, code, rules):
    with pytest.raises(RuleViolation) as caught:
        request_category(req, item, UTILITIES, **kwargs)
    assert caught.value.code == code and caught.value.rule_ids == rules


def test_request_category_unknown_parameter_value():
    with pytest.raises(ValueError):
        request_category(requester("sin_fines_de_lucro"), DESK, UTILITIES, "GIVE_AWAY")


def gov(rid, kind, at, status="PENDING"):
    return {"request_id": rid, "requester": {"id": rid, "kind": kind}, "received_at": at, "status": status}


GOV_REQUESTS = [gov("MUN-COAMO", "municipio", "2024-07-01T09:00:00-04:00"),
                gov("AG-X", "agencia_ejecutiva", "2024-07-02T10:00:00-04:00"),
                gov("MUN-SALINAS", "municipio", "2024-07-03T15:00:00-04:00"),
                gov("AG-Y", "agencia_ejecutiva", "2024-07-04T08:00:00-04:00"),
                gov("AG-Z", "agencia_ejecutiva", "2024-07-01T08:00:00-04:00", "NO_INTEREST"),
                gov("COMP-A", "agencia_componente", "2024-06-30T08:00:00-04:00")]


@pytest.mark.parametrize(("item", "order_param", "order", "rules"), [
    pytest.param(TRACTOR, "AGENCIES_THEN_MUNICIPALITIES", ["AG-X", "AG-Y", "MUN-COAMO", "MUN-SALINAS"],
                 ("SUR-09", "SUR-10", "SUR-12", "AMB-04"), id="SUR-12-AMB-04-agencies-then-municipalities"),
    pytest.param(DESK, "AGENCIES_THEN_MUNICIPALITIES", ["MUN-COAMO", "AG-X", "MUN-SALINAS", "AG-Y"],
                 ("SUR-09", "SUR-10", "SUR-12"), id="AMB-04-SUR-S07-other-goods-by-arrival"),
    pytest.param(TRACTOR, "ARRIVAL_ORDER", ["MUN-COAMO", "AG-X", "MUN-SALINAS", "AG-Y"],
                 ("SUR-09", "SUR-10", "SUR-12"), id="AMB-04-arrival-order-parameter"),
])
def test_government_order(item, order_param, order, rules):
    decision = government_order(GOV_REQUESTS, item, UTILITIES, order_param)
    assert decision.outcome == order
    assert decision.rule_ids == rules


def test_government_order_same_instant_by_request_id():
    requests = [gov("MUN-B", "municipio", "2024-07-01T09:00:00-04:00"), gov("MUN-A", "municipio",
                                                                          "2024-07-01T09:00:00-04:00")]
    assert government_order(requests, DESK, UTILITIES).outcome == ["MUN-A", "MUN-B"]
    assert government_order([], DESK, UTILITIES).outcome == []
