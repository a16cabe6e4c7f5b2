"""Surplus rules and hooks played through the HTTP API on the test harness diagram (not the real
procedure): SUR-S01, S07 (price), S10, S16, S19, FAR-S16, S19, S22 parts, the $300 edge, payment."""
from __future__ import annotations

import pytest

COMP_B = {"request_id": "AC-B", "received_at": "2024-04-02T14:00:00-04:00", "status": "PENDING", "units": ["U1"],
          "requester": {"id": "AC-B", "name": "Agencia Componente B", "kind": "agencia_componente"}}
COMP_A = {"request_id": "AC-A", "received_at": "2024-04-03T10:15:00-04:00", "status": "PENDING", "units": ["U1"],
          "requester": {"id": "AC-A", "name": "Agencia Componente A", "kind": "agencia_componente"}}
HOGAR = {"id": "HOGAR-SA", "name": "Hogar Santa Ana, Inc.", "kind": "sin_fines_de_lucro",
         "endorsement": {"regulating_body": "Depto. de la Familia"}}


def item(number, value, utility="none", **extra):
    return {"inventory_number": number, "description": f"bien {number}", "is_vehicle": False, "utility": utility,
            "estimated_value": value, "donated": False, "scrap_for_vehicle_repair": False,
            "units": [{"unit_id": "U1", "use_category": "general"}], **extra}


def test_sur_s01_transfer_by_arrival_skip_needs_reason_hacienda_copy_in_outbox(surplus, api):
    case = surplus.start(item("P-1001", "180.00"), stage="TRANSFER", requests=[COMP_A, COMP_B])
    surplus.day("2024-04-17")
    refused = surplus.complete(case, "select_transferee", {"request_id": "AC-A"}, "encargado", expect=422)
    assert refused["errors"]["rule"] == ["ORDER_OF_ARRIVAL"]
    refused = surplus.complete(case, "select_transferee", {"request_id": "AC-A", "skipped": [
        {"request_id": "AC-B", "criterion": "c", "reason": " "}]}, "encargado", expect=422)
    assert refused["errors"]["rule"] == ["REASON_REQUIRED"]
    assert surplus.history(case["id"])[-1]["type"] == "task_refused"
    case = surplus.complete(case, "select_transferee", {"request_id": "AC-B"}, "encargado")
    surplus.day("2024-04-22")
    case = surplus.complete(case, "deliver_item", {"transfer_form_number": "TF-1"}, "custodio")
    v = case["variables"]
    assert (case["outcome"], v["assignee"], v["hacienda_copy_sent"], v["retention_obligation"]) == \
        ("TRANSFERRED", "AC-B", True, False)
    assert v["delivered_on"] == "2024-04-22"
    notices = api.get(f"/api/v1/instances/{case['id']}/notifications", "boss")
    assert [(n["recipient"], n["status"], n["channel"]) for n in notices] == \
        [("Departamento de Hacienda", "pending", "correo")]
    assert "P-1001" in notices[0]["subject"]
    assert any(e["type"] == "notification" for e in surplus.history(case["id"]))
    api.get(f"/api/v1/instances/{case['id']}/notifications", "nobody", expect=403)
    decision = surplus.decisions(case["id"], "surplus_retention_obligation")[0]
    assert "SUR-16" in decision["rule_ids"] and decision["data"]["inputs"]["estimated_value"] == "180.00"


def test_skip_with_reason_lets_the_later_request_win(surplus):
    case = surplus.start(item("P-1002", "180.00"), stage="TRANSFER", requests=[COMP_A, COMP_B])
    case = surplus.complete(case, "select_transferee", {"request_id": "AC-A", "skipped": [
        {"request_id": "AC-B", "criterion": "c", "reason": "no puede cubrir el transporte"}]}, "encargado")
    assert case["variables"]["assignee"] == "AC-A"


def test_sur_s07_category_one_price_nominal_plus_costs(surplus):
    coamo = {"id": "MUN-COAMO", "name": "Municipio de Coamo", "kind": "municipio",
             "under_commission_jurisdiction": True}
    case = surplus.start(item("P-3010", "650.00"), requester=coamo)
    case = surplus.complete(case, "set_price", {"nominal_value": "1.00", "custody_costs": "60.00"}, "encargado")
    assert case["variables"]["price"] == "61.00"
    surplus.day("2024-07-18")
    case = surplus.complete(case, "deliver_item", {"transfer_form_number": "TF-2"}, "custodio")
    assert case["outcome"] == "SOLD_GOV" and case["variables"]["buyer"] == "MUN-COAMO"
    # A municipality buying at nominal + costs is bound (AMB-13); $650.00 > $300.
    assert case["variables"]["retention_obligation"] is True
    assert case["variables"]["retention_free_from"] == "2027-07-18"


def test_sur_s10_nonprofit_nominal_receipt_before_delivery_and_retention_dates(surplus):
    case = surplus.start(item("P-5002", "450.00"), requester=HOGAR)
    case = surplus.complete(case, "set_price", {"nominal_value": "1.00", "maintenance_costs": "40.00",
                                                "storage_costs": "60.00", "repair_costs": "0.00"}, "encargado")
    assert case["variables"]["price"] == "101.00"
    refused = surplus.complete(case, "record_payment", {"instruments": [
        {"type": "cheque_personal", "amount": "100.00", "payee": "Comisión", "number": "1"}]}, "recaudador",
        expect=422)
    assert refused["errors"]["rule"] == ["PAYMENT_AMOUNT_MISMATCH"]
    case = surplus.complete(case, "record_payment", {"instruments": [
        {"type": "cheque_personal", "amount": "101.00", "payee": "Comisión", "number": "1"}]}, "recaudador")
    surplus.day("2024-09-10")
    refused = surplus.complete(case, "deliver_item", {"transfer_form_number": "TF-3"}, "custodio", expect=422)
    assert refused["errors"]["rule"] == ["DELIVERY_REQUIRES_PAYMENT_RECEIPT"]
    receipt = case["variables"]["receipt_number"]
    case = surplus.complete(case, "deliver_item", {"transfer_form_number": "TF-3",
                                                   "payment_receipt_number": receipt}, "custodio")
    v = case["variables"]
    assert case["outcome"] == "SOLD_NONPROFIT_NOMINAL"
    assert (v["retention_obligation"], v["retention_active_through"], v["retention_free_from"]) == \
        (True, "2027-09-09", "2027-09-10")


def test_sur_s10_producer_refused_for_item_without_producer_utility(surplus):
    f17 = {"id": "F-17", "name": "F-17", "kind": "productor", "registry_id": "F-17"}
    case = surplus.start(item("P-5003", "450.00"), requester=f17, registry_status="ACTIVE")
    assert case["status"] == "error" and "no producer utility" in case["error"]["message"]  # harness: a script refusal; the real diagram answers 422


def _deliver_nominal(surplus, the_item, requester, nominal, **costs):
    case = surplus.start(the_item, requester=requester)
    case = surplus.complete(case, "set_price", {"nominal_value": nominal, **costs}, "encargado")
    if requester["kind"] == "sin_fines_de_lucro":
        case = surplus.complete(case, "record_payment", {"instruments": [
            {"type": "efectivo", "amount": case["variables"]["price"], "payee": "Comisión", "number": "E"}]},
            "recaudador")
        return surplus.complete(case, "deliver_item", {"payment_receipt_number": case["variables"]["receipt_number"]},
                                "custodio")
    return surplus.complete(case, "deliver_item", {}, "custodio")


def test_sur_s16_scrap_for_repair_is_exempt_and_municipality_gets_hacienda_copy(surplus):
    orocovis = {"id": "MUN-OROCOVIS", "name": "Municipio de Orocovis", "kind": "municipio",
                "under_commission_jurisdiction": True}
    surplus.day("2024-04-10")
    scrap = item("V-2003", "450.00", is_vehicle=True, scrap_for_vehicle_repair=True)
    case = _deliver_nominal(surplus, scrap, orocovis, "25.00")
    assert (case["variables"]["retention_obligation"], case["variables"]["hacienda_copy_sent"]) == (False, True)


@pytest.mark.parametrize("scope,expected", [("MUEBLES_ONLY", True), ("ALL_ITEMS", False)])
def test_sur_s19_donated_laptop_below_300_under_both_scopes(surplus, scope, expected):
    surplus.param("surplus.retentionThresholdScope", scope)
    surplus.day("2024-10-15")
    laptop = item("D-9001", "250.00", donated=True)
    case = _deliver_nominal(surplus, laptop, HOGAR, "1.00", storage_costs="10.00")
    assert case["variables"]["price"] == "11.00"
    assert case["variables"]["retention_obligation"] is expected
    if expected:
        assert case["variables"]["retention_free_from"] == "2027-10-15"


@pytest.mark.parametrize("value,expected", [("300.00", False), ("300.01", True)])
def test_the_300_dollar_threshold_is_strict(surplus, value, expected):
    case = _deliver_nominal(surplus, item("M-300", value), HOGAR, "1.00")
    assert case["variables"]["retention_obligation"] is expected


TRACTOR = item("A-4005", "9000.00", utility="agricola")
F50 = {"id": "F-50", "name": "F-50", "kind": "productor", "registry_id": "F-50"}


def _producer_price(surplus, data, profile=None):
    case = surplus.start(TRACTOR, requester=F50, registry_status="ACTIVE", buyer_profile=profile or {})
    return case, surplus.complete(case, "set_price", data, "encargado", expect=None)


def test_far_s19_discount_only_with_a_table(surplus):
    profile = {"household_size": 5, "annual_income": "18000.00"}
    data = {"fair_market_value": "9000.00", "price": "9000.00", "processing_costs": "150.00",
            "discount_requested": True}
    case, _ = _producer_price(surplus, data, profile)
    assert surplus.case(case["id"])["variables"]["price"] == "9000.00"
    surplus.param("farmer.discountTable", {"rows": [{"minHousehold": 5, "maxIncome": "19999.99", "pct": 25}]})
    case, _ = _producer_price(surplus, data, profile)
    v = surplus.case(case["id"])["variables"]
    assert v["price"] == "6750.00" and v["sale"]["discount_applied"] == "2250.00"


def test_producer_price_above_fmv_and_lot_sale_are_refused(surplus):
    case = surplus.start(TRACTOR, requester=F50, registry_status="ACTIVE")
    refused = surplus.complete(case, "set_price", {"fair_market_value": "1200.00", "price": "1200.01"},
                               "encargado", expect=422)
    assert refused["errors"]["rule"] == ["PRICE_EXCEEDS_FMV"]
    refused = surplus.complete(case, "set_price", {"fair_market_value": "2400.00", "price": "2400.00",
                                                   "units": ["U1", "U3"]}, "encargado", expect=422)
    assert refused["errors"]["rule"] == ["UNITS_MUST_BE_SOLD_INDIVIDUALLY"]


def test_producer_payment_instruments_payee_and_fund_split(surplus):
    case = surplus.start(TRACTOR, requester=F50, registry_status="ACTIVE")
    case = surplus.complete(case, "set_price", {"fair_market_value": "1200.00", "price": "1200.00",
                                                "processing_costs": "75.00"}, "encargado")
    pay = {"type": "cheque_personal", "amount": "1200.00", "payee": "Secretario de Hacienda", "number": "9"}
    refused = surplus.complete(case, "record_payment", {"instruments": [pay]}, "recaudador", expect=422)
    assert refused["errors"]["rule"] == ["PAYMENT_METHOD_NOT_ALLOWED"]
    refused = surplus.complete(case, "record_payment", {"instruments": [
        {**pay, "type": "giro_postal", "payee": "Comisión"}]}, "recaudador", expect=422)
    assert refused["errors"]["rule"] == ["PAYEE_INVALID"]
    case = surplus.complete(case, "record_payment", {"instruments": [
        {**pay, "type": "giro_postal", "amount": "200.00"}, {**pay, "type": "cheque_certificado", "amount": "1000.00",
                                                             "payee": "secretario de hacienda"}]}, "recaudador")
    case = surplus.complete(case, "deliver_item", {"payment_receipt_number": case["variables"]["receipt_number"]},
                            "custodio")
    v = case["variables"]
    assert case["outcome"] == "SOLD_PRODUCER" and v["retention_obligation"] is False
    assert (v["fondo_general"], v["fondo_secretario_hacienda"]) == ("1125.00", "75.00")


def test_far_s22_unregistered_producer_cannot_buy(surplus):
    raul = {"id": "RAUL", "name": "Raúl Méndez", "kind": "productor", "registry_id": None}
    case = surplus.start(item("A-4004", "9000.00", utility="agricola"), requester=raul, registry_status=None)
    assert case["status"] == "error" and "only ACTIVE members" in case["error"]["message"]  # harness: see above
