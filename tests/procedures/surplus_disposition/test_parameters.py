"""Parameters that switch the cascade's behaviour (AMB-04, AMB-06, AMB-16) and the refusals of
requests that can never count (SUR-10, AMB-02)."""
from __future__ import annotations

import pytest

from .conftest import item, requester

AGENCY = requester("DEPTO-AGRICULTURA", "agencia_ejecutiva", "Departamento de Agricultura")
MUNICIPALITY = requester("MUN-CIDRA", "municipio", "Municipio de Cidra")


@pytest.mark.parametrize("order, buyer_on_arrival, buyer", [
    ("AGENCIES_THEN_MUNICIPALITIES", None, "DEPTO-AGRICULTURA"), ("ARRIVAL_ORDER", "MUN-CIDRA", "MUN-CIDRA")])
def test_amb_04_government_order_for_goods_of_producer_utility(surplus, order, buyer_on_arrival, buyer):
    surplus.param("surplus.govOrder", order)
    surplus.at("2024-04-01 12:30")
    case = surplus.start(item("A-4200", "5000.00", utility="agricola"))
    surplus.at("2024-04-18 09:00")
    surplus.request(case, MUNICIPALITY)
    surplus.at("2024-04-20 09:00")
    surplus.request(case, AGENCY)
    assert surplus.v(case).get("buyer") == buyer_on_arrival
    surplus.at("2024-05-03 09:00")  # category 1 closed 05-02
    assert surplus.v(case)["buyer"] == buyer
    order_decision = surplus.decisions(case, "surplus_lot_candidates")[0]
    assert ("AMB-04" in order_decision["rule_ids"]) and order_decision["data"]["candidates"][0] == buyer


def test_amb_06_copy_to_hacienda_only_for_state_agencies_under_the_alternative(surplus):
    surplus.param("surplus.haciendaCopyRule", "ONLY_STATE_AGENCIES_EXCEPT_VEHICLES")
    surplus.at("2024-04-01 12:30")
    case = surplus.start(item("P-2000", "100.00"))
    surplus.at("2024-04-17 09:00")
    surplus.request(case, MUNICIPALITY)
    surplus.complete(case, "set_price", {"nominal_value": "5.00"}, "encargado")
    case = surplus.complete(case, "deliver_item", {"transfer_form_number": "TF-H"}, "custodio")
    assert case["variables"]["hacienda_copy_sent"] is False
    assert "Departamento de Hacienda" not in [n["recipient"] for n in surplus.notices(case)]


def test_amb_16_a_cap_per_producer_passes_a_capped_producer_over(surplus, producers):
    surplus.param("farmer.maxUnitsPerProducerPerCategory", 1)
    surplus.at("2024-04-01 12:30")
    case = surplus.start(item("A-4300", "2400.00", utility="agricola", units=("U1", "U2")))
    surplus.at("2024-05-06 09:00")
    surplus.request(case, requester("F-31", "productor", "F-31", registry_id="F-31"), units=["U1", "U2"])
    surplus.request(case, requester("F-32", "productor", "F-32", registry_id="F-32"), units=["U2"])
    surplus.at("2024-05-14 09:00")
    assert not surplus.tasks(case, "draw_lottery")  # F-31 holds U1 already: U2 goes to F-32 alone
    selected = {r["request_id"]: r.get("selected_units") for r in surplus.v(case)["requests"]}
    assert selected == {"F-31": ["U1"], "F-32": ["U2"]}


def test_requests_that_can_never_count_are_refused_and_recorded(surplus, producers):
    surplus.at("2024-04-01 12:30")
    case = surplus.start(item("A-4400", "900.00", utility="agricola"))
    obliged = requester("AEE", "agencia_ejecutiva", "Autoridad obligada", obliged_to_dispose_through_commission=True)
    assert surplus.request(case, obliged, expect=422)["errors"]["rule"] == ["NOT_ELIGIBLE_CATEGORY"]
    fisher = requester("F-40", "productor", "F-40", registry_id="F-40")
    assert surplus.request(case, fisher, expect=422)["errors"]["rule"] == ["NOT_ELIGIBLE_CATEGORY"]
    unknown_unit = surplus.request(case, MUNICIPALITY, units=["U9"], expect=422)
    assert unknown_unit["errors"]["rule"] == ["UNKNOWN_UNIT"]
    surplus.api.post(f"/api/v1/instances/{case['id']}/messages/request", "custodio",
                     {"payload": {"requester": MUNICIPALITY}}, expect=403)
    assert surplus.v(case)["requests"] == []
    refused = [e for e in surplus.history(case) if e["type"] == "message_refused"]
    assert [e["data"]["code"] for e in refused] == ["NOT_ELIGIBLE_CATEGORY", "NOT_ELIGIBLE_CATEGORY", "UNKNOWN_UNIT"]
    assert "SUR-10" in refused[0]["rule_ids"]


def test_a_late_transfer_request_is_kept_as_not_reached(surplus):
    surplus.at("2024-04-01 12:30")
    case = surplus.start(item("P-2100", "100.00"))
    surplus.at("2024-04-20 09:00")  # the claim window closed on 04-16
    case = surplus.request(case, requester("AC-C", "agencia_componente", "Agencia Componente C"))
    assert case["variables"]["requests"][0]["status"] == "NOT_REACHED"
