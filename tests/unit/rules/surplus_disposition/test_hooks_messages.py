"""Direct tests of the message rule, the lane refusal and the tables of
engine/rules/surplus_disposition/hooks.py (surplus_disposition.md "Requests"; RULES.md SUR-01, 05, 07,
10, 11, 13, 14; FAR-02, 14, 17, 21; AMB-02, 03, 17; §5; SUR-S10, FAR-S22).

`request` is accepted at any time; a second request of the same requester → 409 DUPLICATE_REQUEST; a
request that can never count → 422: a body obliged to dispose through the Comisión or a producer for
an item without producer utility (NOT_ELIGIBLE_CATEGORY), a producer not ACTIVE in the registry
(NOT_REGISTERED). The registry's word comes through `facts.reference` (`registry_status`,
`producer_type`); the frozen parameters through the case's `surplus_rules`.
"""
from __future__ import annotations

from datetime import date

import pytest

from engine.rules.facts import Facts
from engine.rules.surplus_disposition import hooks
from tests.unit.rules.hook_checks import ACCEPT, check, conflict, table_entries, unprocessable

SUR = "surplus_disposition"

TRACTOR = {"inventory_number": "A-4004", "description": "Tractor", "is_vehicle": False, "utility": "agricola",
           "estimated_value": "9000.00", "donated": False, "scrap_for_vehicle_repair": False,
           "units": [{"unit_id": "U1", "use_category": "riego"}]}
DESK_SET = {**TRACTOR, "inventory_number": "P-5002", "description": "juego de escritorio", "utility": "none",
            "estimated_value": "450.00"}
NETS = {**TRACTOR, "inventory_number": "N-7001", "description": "redes de pesca", "utility": "pesca"}
# RULES.md §1.5 defaults, frozen by publish_listing when the case starts.
FROZEN = {"producer_utility_types": ["agricola", "industrial", "manual", "pesca"],
          "nonprofit_without_certification": "TREAT_AS_PUBLIC"}
AIBONITO = {"id": "MUN-AIBONITO", "name": "Municipio de Aibonito", "kind": "municipio",
            "obliged_to_dispose_through_commission": False, "under_commission_jurisdiction": True,
            "endorsement": {"regulating_body": None}, "registry_id": None}
EARLIER = [{"request_id": "MUN-AIBONITO", "requester": AIBONITO, "units": ["U1"],
            "received_at": "2024-10-01T09:00:00-04:00", "status": "PENDING"}]
ACTIVE_FARMER = {"registry_status": "ACTIVE", "producer_type": "agricultor"}
NOT_REGISTERED = unprocessable("NOT_REGISTERED", cites=("FAR-14", "FAR-17"))


def producer(rid="F-23"):
    return {"id": rid, "name": rid, "kind": "productor", "obliged_to_dispose_through_commission": False,
            "registry_id": rid}


def nonprofit(endorsed):
    return {"id": "HOGAR-SANTA-ANA", "name": "Hogar Santa Ana, Inc.", "kind": "sin_fines_de_lucro",
            "endorsement": {"regulating_body": "Depto. de la Familia" if endorsed else None}}


@pytest.mark.parametrize(("requester", "units", "item", "requests", "reference", "verdict"), [
    pytest.param(AIBONITO, ["U1"], TRACTOR, [], {}, ACCEPT, id="SUR-10-municipio-not-obliged-accepted"),
    pytest.param({**AIBONITO, "obliged_to_dispose_through_commission": True}, ["U1"], TRACTOR, [], {},
                 unprocessable("NOT_ELIGIBLE_CATEGORY", ("SUR-10",)), id="SUR-10-body-obliged-to-dispose-refused"),
    pytest.param({**AIBONITO, "id": "AGC-A", "kind": "agencia_componente"}, None, DESK_SET, [], {}, ACCEPT,
                 id="SUR-07-component-agency-claim-accepted"),
    pytest.param(AIBONITO, ["U1"], TRACTOR, EARLIER, {},
                 conflict("DUPLICATE_REQUEST", ("SUR-01", "FAR-19")), id="SUR-01-second-request-of-requester-409"),
    pytest.param({**AIBONITO, "id": "  "}, ["U1"], TRACTOR, [], {},
                 unprocessable("REQUESTER_ID_REQUIRED", ("SUR-01",)), id="SUR-01-request-without-requester-id-refused"),
    pytest.param(AIBONITO, ["U9"], TRACTOR, [], {}, unprocessable("UNKNOWN_UNIT", ("FAR-21",)),
                 id="FAR-21-request-for-unknown-unit-refused"),
    pytest.param({**AIBONITO, "kind": "empresa"}, ["U1"], TRACTOR, [], {},
                 unprocessable("NOT_ELIGIBLE_CATEGORY", ("SUR-08",)), id="SUR-08-unknown-requester-kind-refused"),
    pytest.param(producer("F-17"), ["U1"], DESK_SET, [], ACTIVE_FARMER,
                 unprocessable("NOT_ELIGIBLE_CATEGORY", cites=("SUR-11",)),
                 id="SUR-11-S10-producer-for-item-without-utility-refused"),
    pytest.param(producer(), ["U1"], TRACTOR, EARLIER, ACTIVE_FARMER, ACCEPT,
                 id="FAR-17-S22-active-agricultor-accepted"),
    pytest.param(producer("RAUL-MENDEZ"), ["U1"], TRACTOR, [], {"registry_status": None}, NOT_REGISTERED,
                 id="FAR-14-S22-not-in-the-registry-refused"),
    pytest.param(producer(), ["U1"], TRACTOR, [], {"registry_status": "RENEWAL_OVERDUE", "producer_type": "agricultor"},
                 NOT_REGISTERED, id="FAR-14-AMB-17-renewal-overdue-refused"),
    pytest.param(producer(), ["U1"], TRACTOR, [], {"registry_status": "REMOVED", "producer_type": "agricultor"},
                 NOT_REGISTERED, id="FAR-16-removed-from-registry-refused"),
    pytest.param(producer(), ["U1"], TRACTOR, [], {}, NOT_REGISTERED, id="FAR-14-no-registry-word-refused"),
    pytest.param(producer(), ["U1"], TRACTOR, [], {"registry_status": "ACTIVE", "producer_type": "pescador"},
                 unprocessable("NOT_ELIGIBLE_CATEGORY", ("FAR-02", "AMB-02")),
                 id="FAR-02-AMB-02-fisherman-for-agricultural-item-refused"),
    pytest.param(producer(), ["U1"], TRACTOR, [], {"registry_status": "ACTIVE", "producer_type": "acuicultor"},
                 ACCEPT, id="AMB-02-aquaculture-counts-as-agriculture-accepted"),
    pytest.param(producer(), ["U1"], NETS, [], {"registry_status": "ACTIVE", "producer_type": "pescador"}, ACCEPT,
                 id="FAR-02-AMB-02-fisherman-for-fishing-item-accepted"),
    pytest.param(nonprofit(True), None, DESK_SET, [], {}, ACCEPT, id="SUR-13-S10-endorsed-nonprofit-accepted"),
    pytest.param(nonprofit(False), None, DESK_SET, [], {}, ACCEPT,
                 id="SUR-14-AMB-03-unendorsed-nonprofit-treated-as-public-not-refused"),
])
def test_request_received(requester, units, item, requests, reference, verdict):
    payload = {"requester": requester, **({"units": units} if units is not None else {})}
    case = {"item": item, "requests": requests, "surplus_rules": FROZEN}
    check(hooks.request_received, payload, Facts(case=case, today=date(2024, 10, 2), actor="officer",
                                                 reference=reference), verdict)


@pytest.mark.xfail(strict=True, reason="RULES.md §1.5 / AMB-02: surplus.producerUtilityTypes defaults to "
                   "[AGRICOLA, INDUSTRIAL, MANUAL, PESCA], but without frozen `surplus_rules` the hook falls "
                   "back to ('agricola',), the 000-only profile, and refuses a fisherman's request for nets")
def test_request_without_frozen_rules_uses_the_documented_producer_utility_types():
    case = {"item": NETS, "requests": []}
    check(hooks.request_received, {"requester": producer(), "units": ["U1"]},
          Facts(case=case, reference={"registry_status": "ACTIVE", "producer_type": "pescador"}), ACCEPT)


# --- the tables --------------------------------------------------------------------------------

EXPECTED_COMPLETION = {
    (SUR, "set_vehicle_order"): hooks.vehicle_order_set,
    (SUR, "draw_lottery"): hooks.lottery_drawn,
    (SUR, "select_transferee"): hooks.transferee_selected,
    (SUR, "set_price"): hooks.price_set,
    (SUR, "record_payment"): hooks.payment_recorded,
    (SUR, "deliver_item"): hooks.item_delivered,
    (SUR, "decide_return"): hooks.return_decided,
}
EXPECTED_MESSAGES = {(SUR, "request"): hooks.request_received}


@pytest.mark.parametrize("table", ["COMPLETION_RULES", "MESSAGE_RULES", "LANE_REFUSALS"])
def test_every_key_belongs_to_surplus_disposition(table):
    assert getattr(hooks, table) and {process for process, _ in getattr(hooks, table)} == {SUR}


@pytest.mark.parametrize(("table", "key", "rule"), table_entries(COMPLETION_RULES=EXPECTED_COMPLETION,
                                                                 MESSAGE_RULES=EXPECTED_MESSAGES))
def test_each_table_points_to_the_tested_rule(table, key, rule):
    assert getattr(hooks, table).get(key) is rule


def test_SUR_05_only_the_comisionado_consents_to_the_vehicle_order():
    assert hooks.LANE_REFUSALS == {(SUR, "approve_vehicle_order"): ("VEHICLE_ORDER_NOT_APPROVED", ("SUR-05",))}


def test_tables_hold_nothing_else():
    assert hooks.COMPLETION_RULES == EXPECTED_COMPLETION
    assert hooks.MESSAGE_RULES == EXPECTED_MESSAGES
