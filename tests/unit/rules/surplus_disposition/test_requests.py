"""Direct tests of engine/rules/surplus_disposition/requests.py (SUR-01, 05, 12; FAR-19, 21; contract).

Contract: a requester has one request per case (a second answers 409 `DUPLICATE_REQUEST`); a request
that can never count is refused with 422 and not kept; an accepted one is kept PENDING for its stage,
or NOT_REACHED when its stage has passed or the good went to an earlier category (SUR-12). `units`
defaults to every unit of the item. For vehicles any body may be placed in the transfer order (SUR-05).
"""
from __future__ import annotations

import pytest

from engine.rules.decision import Refusal, RuleViolation
from engine.rules.surplus_disposition.requests import (
    close_unreached, register_request, request_refused, select_for, set_status,
)

UTILITIES = ("agricola", "industrial", "manual", "pesca")
PUMPS = {"inventory_number": "A-4010", "utility": "agricola", "is_vehicle": False,
         "units": [{"unit_id": "U1", "use_category": "riego"}, {"unit_id": "U2", "use_category": "riego"},
                   {"unit_id": "U3", "use_category": "riego"}]}
CAR = {"inventory_number": "V-2001", "utility": "none", "is_vehicle": True, "units": [{"unit_id": "U1"}]}
AT = "2024-09-03T10:00:00-04:00"


def payload(rid, kind, units=None, **extra):
    body = {"requester": {"id": rid, "name": rid, "kind": kind, "obliged_to_dispose_through_commission": False,
                          **extra}}
    if units is not None:
        body["units"] = units
    return body


CATEGORY_RULES = {"GOV_NOMINAL": ("SUR-09", "SUR-10"), "TRANSFER": ("SUR-07",),
                  "PRODUCER_FMV": ("SUR-11", "SUR-12", "FAR-17"), "NONPROFIT_NOMINAL": ("SUR-13",),
                  "MARKET_VALUE": ("SUR-14", "AMB-03"), "PUBLIC_AUCTION": ("SUR-14", "AMB-03")}


def register(body, item=PUMPS, stage="CATEGORY_1", **kwargs):
    return register_request(body, item, stage, AT, UTILITIES, **kwargs)


@pytest.mark.parametrize(("body", "item", "stage", "kwargs", "status", "category", "pricing", "passed"), [
    pytest.param(payload("MUN-AIBONITO", "municipio"), PUMPS, "TRANSFER", {}, "PENDING", 1, "GOV_NOMINAL", False,
                 id="SUR-01-FAR-19-held-for-category-1"),
    pytest.param(payload("MUN-AIBONITO", "municipio"), PUMPS, "CATEGORY_1", {}, "PENDING", 1, "GOV_NOMINAL", False,
                 id="SUR-09-in-its-stage"),
    pytest.param(payload("MUN-AIBONITO", "municipio"), PUMPS, "CATEGORY_2", {}, "NOT_REACHED", 1, "GOV_NOMINAL",
                 True, id="SUR-12-stage-passed"),
    pytest.param(payload("COMP-A", "agencia_componente"), PUMPS, "TRANSFER", {}, "PENDING", "TRANSFER", "TRANSFER",
                 False, id="SUR-07-transfer-claim"),
    pytest.param(payload("COMP-A", "agencia_componente"), PUMPS, "CATEGORY_1", {}, "NOT_REACHED", "TRANSFER",
                 "TRANSFER", True, id="SUR-07-claim-after-window"),
    pytest.param(payload("F-17", "productor", registry_id="F-17"), PUMPS, "CATEGORY_1",
                 {"registry_status": "ACTIVE", "registry_type": "agricultor"}, "PENDING", 2, "PRODUCER_FMV", False,
                 id="FAR-17-held-for-category-2"),
    pytest.param(payload("HOGAR", "sin_fines_de_lucro", endorsement={"regulating_body": "Familia"}), PUMPS,
                 "CATEGORY_3", {}, "PENDING", 3, "NONPROFIT_NOMINAL", False, id="SUR-13-category-3"),
    pytest.param(payload("HOGAR", "sin_fines_de_lucro"), PUMPS, "CATEGORY_1", {}, "NOT_REACHED", 4, "PUBLIC_AUCTION",
                 True, id="SUR-14-AMB-03-treat-as-public-never-reached"),
    pytest.param(payload("HOGAR", "sin_fines_de_lucro"), PUMPS, "CATEGORY_1",
                 {"nonprofit_without_certification": "MARKET_VALUE_SALE"}, "PENDING", 3, "MARKET_VALUE", False,
                 id="SUR-14-AMB-03-market-value"),
    pytest.param(payload("MUN-AIBONITO", "municipio"), CAR, "TRANSFER", {}, "PENDING", 1, "GOV_NOMINAL", False,
                 id="SUR-05-AMB-09-vehicle-order-any-body"),
    pytest.param(payload("MUN-AIBONITO", "municipio"), PUMPS, "PUBLIC_AUCTION", {}, "NOT_REACHED", 1,
                 "GOV_NOMINAL", True, id="SUR-15-auction-under-way"),
    pytest.param(payload("MUN-AIBONITO", "municipio"), PUMPS, "DISPOSED", {}, "NOT_REACHED", 1, "GOV_NOMINAL", True,
                 id="SUR-12-already-disposed"),
])
def test_register_request(body, item, stage, kwargs, status, category, pricing, passed):
    decision = register(body, item, stage, **kwargs)
    entry = decision.details["entry"]
    assert decision.outcome == status
    assert entry["status"] == status and entry["category"] == category and entry["pricing"] == pricing
    assert entry["request_id"] == body["requester"]["id"] and entry["received_at"] == AT
    expected = ("SUR-01", "FAR-19") + CATEGORY_RULES[pricing] + (("SUR-12",) if passed else ())
    assert decision.rule_ids == tuple(dict.fromkeys(expected))
    assert decision.inputs["stage"] == stage


@pytest.mark.parametrize(("units", "expected"), [
    pytest.param(None, ["U1", "U2", "U3"], id="FAR-21-units-default-to-all"),
    pytest.param(["U2"], ["U2"], id="FAR-21-FAR-S16-one-unit"),
])
def test_register_request_units(units, expected):
    body = payload("F-31", "productor", units)
    entry = register(body, registry_status="ACTIVE").details["entry"]
    assert entry["units"] == expected


EXISTING = [{"request_id": "MUN-AIBONITO", "status": "PENDING"}]


@pytest.mark.parametrize(("body", "kwargs", "code", "rules"), [
    pytest.param({"requester": {"id": " ", "kind": "municipio"}}, {}, "REQUESTER_ID_REQUIRED", ["SUR-01"],
                 id="SUR-01-id-required"),
    pytest.param(payload("MUN-X", "municipio", ["U9"]), {}, "UNKNOWN_UNIT", ["FAR-21"], id="FAR-21-unknown-unit"),
    pytest.param(payload("MUN-X", "municipio", obliged_to_dispose_through_commission=True), {},
                 "NOT_ELIGIBLE_CATEGORY", ["SUR-10"], id="SUR-10-obliged"),
    pytest.param(payload("RAUL", "productor"), {}, "NOT_REGISTERED", ["FAR-14", "FAR-17", "FAR-18"],
                 id="FAR-17-FAR-S22-not-registered"),
])
def test_request_refused_422(body, kwargs, code, rules):
    with pytest.raises(RuleViolation) as caught:
        request_refused(body, EXISTING, PUMPS, UTILITIES, "TREAT_AS_PUBLIC", **kwargs)
    assert not isinstance(caught.value, Refusal)
    assert caught.value.code == code and caught.value.rule_ids == rules and caught.value.status == 422


def test_second_request_of_a_requester_is_409():
    with pytest.raises(Refusal) as caught:
        request_refused(payload("MUN-AIBONITO", "municipio"), EXISTING, PUMPS, UTILITIES, "TREAT_AS_PUBLIC")
    assert caught.value.code == "DUPLICATE_REQUEST" and caught.value.status == 409
    assert caught.value.rule_ids == ["SUR-01", "FAR-19"]


def test_request_accepted():
    assert request_refused(payload("F-23", "productor", ["U1"]), EXISTING, PUMPS, UTILITIES, "TREAT_AS_PUBLIC",
                           "ACTIVE", "agricultor") is None


REQS = [{"request_id": "A", "status": "PENDING"}, {"request_id": "B", "status": "SELECTED", "selected_units": ["U1"]},
        {"request_id": "C", "status": "NO_INTEREST"}]


def test_set_status_only_from():
    out = set_status(REQS, ["A", "B", "C"], "NO_INTEREST", only_from=("SELECTED",))
    assert [r["status"] for r in out] == ["PENDING", "NO_INTEREST", "NO_INTEREST"]
    assert [r["status"] for r in set_status(REQS, ["A"], "SKIPPED")] == ["SKIPPED", "SELECTED", "NO_INTEREST"]
    assert REQS[0]["status"] == "PENDING"  # a new list, the old one untouched


def test_close_unreached_marks_only_pending():
    assert [r["status"] for r in close_unreached(REQS)] == ["NOT_REACHED", "SELECTED", "NO_INTEREST"]
    assert close_unreached([]) == []


def test_select_for_notes_the_units():
    out = select_for(REQS, "B", ["U3", "U1"])
    assert out[1] == {"request_id": "B", "status": "SELECTED", "selected_units": ["U1", "U3"]}
    assert select_for(REQS, "A", ["U2"])[0]["selected_units"] == ["U2"]
