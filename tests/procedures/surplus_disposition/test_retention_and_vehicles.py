"""Delivery and after (SUR-05, SUR-16…21, AMB-05/06/13): vehicles only along a consented order
(SUR-S03/S04), scrap exempt (S16), donated goods under both threshold scopes (S19), the strict $300
threshold, producers' payment instruments and funds, an audit report then a return, retention running
out."""
from __future__ import annotations

import pytest

from .conftest import item, requester

OROCOVIS = requester("MUN-OROCOVIS", "municipio", "Municipio de Orocovis")
HOGAR = requester("HOGAR-SA", "sin_fines_de_lucro", "Hogar Santa Ana, Inc.",
                  endorsement={"regulating_body": "Departamento de la Familia"})


def _category_one_sale(surplus, the_item, nominal="1.00", **costs):
    surplus.at("2024-04-01 12:30")
    case = surplus.start(the_item)
    surplus.at("2024-04-17 09:00")
    surplus.request(case, OROCOVIS)
    surplus.complete(case, "set_price", {"nominal_value": nominal, **costs}, "encargado")
    surplus.at("2024-04-22 10:00")
    return surplus.complete(case, "deliver_item", {"transfer_form_number": "TF"}, "custodio")


def _nonprofit_sale(surplus, the_item, **costs):
    surplus.at("2024-04-01 12:30")
    case = surplus.start(the_item)
    surplus.request(case, HOGAR)
    surplus.at("2024-05-03 09:00")  # category 3 opens: the held request is served
    case = surplus.complete(case, "set_price", {"nominal_value": "1.00", **costs}, "encargado")
    price = case["variables"]["price"]
    surplus.complete(case, "record_payment", {"instruments": [
        {"type": "efectivo", "amount": price, "payee": "Comisión", "number": "E-1"}]}, "recaudador")
    receipt = next(iter(surplus.v(case)["receipts"].values()))["receipt_number"]
    surplus.at("2024-05-06 10:00")
    return surplus.complete(case, "deliver_item", {"payment_receipt_number": receipt}, "custodio")


def test_sur_s03_s04_vehicle_only_along_the_consented_order(surplus):
    surplus.at("2024-04-01 12:30")
    case = surplus.start(item("V-1001", "8000.00", is_vehicle=True))
    surplus.request(case, requester("AC-A", "agencia_componente", "Agencia Componente A"))
    surplus.request(case, OROCOVIS)
    surplus.at("2024-04-17 09:00")
    assert not surplus.tasks(case, "select_transferee")
    surplus.complete(case, "set_vehicle_order", {"order": ["MUN-OROCOVIS", "AC-A"]}, "transportacion")
    surplus.at("2024-05-09 10:00")
    refused = surplus.complete(case, "approve_vehicle_order", {"approved": True}, "encargado", expect=403)
    assert refused["errors"]["rule"] == ["VEHICLE_ORDER_NOT_APPROVED"]
    case = surplus.case(case)
    assert [t["element_id"] for t in case["open_tasks"]] == ["approve_vehicle_order"]
    assert not case["variables"].get("buyer")
    surplus.complete(case, "approve_vehicle_order", {"approved": False, "reason": "revisar"}, "comisionado")
    surplus.complete(case, "set_vehicle_order", {"order": ["AC-A", "MUN-OROCOVIS"]}, "transportacion")
    case = surplus.complete(case, "approve_vehicle_order", {"approved": True}, "comisionado")
    assert case["variables"]["assignee"] == "AC-A"
    surplus.at("2024-05-10 10:00")
    case = surplus.complete(case, "deliver_item", {"transfer_form_number": "TF-V"}, "custodio")
    v = case["variables"]
    assert (case["outcome"], v["assignee"], v["hacienda_copy_sent"]) == ("TRANSFERRED", "AC-A", False)  # SUR-19


def test_sur_s16_scrap_for_repair_is_exempt_and_a_municipality_gets_the_hacienda_copy(surplus):
    case = _category_one_sale(surplus, item("V-2003", "450.00", is_vehicle=False, scrap_for_vehicle_repair=True),
                              "25.00")
    v = case["variables"]
    assert (v["retention_obligation"], v["hacienda_copy_sent"], case["outcome"], case["status"]) == \
        (False, True, "SOLD_GOV", "completed")
    held = surplus.decisions(case, "surplus_retention_obligation")[0]
    assert held["data"]["reason"] == "SCRAP_FOR_VEHICLE_REPAIR" and "SUR-17" in held["rule_ids"]


@pytest.mark.parametrize("scope, expected", [("MUEBLES_ONLY", True), ("ALL_ITEMS", False)])
def test_sur_s19_donated_laptop_below_300_under_both_scopes(surplus, scope, expected):
    surplus.param("surplus.retentionThresholdScope", scope)
    case = _nonprofit_sale(surplus, item("D-9001", "250.00", donated=True), storage_costs="10.00")
    v = case["variables"]
    assert (v["price"], v["retention_obligation"], case["outcome"]) == ("11.00", expected, "SOLD_NONPROFIT_NOMINAL")
    if expected:
        assert (v["retention_free_from"], case["status"]) == ("2027-05-06", "active")


@pytest.mark.parametrize("value, expected", [("300.00", False), ("300.01", True)])
def test_the_300_dollar_threshold_is_strict(surplus, value, expected):
    case = _nonprofit_sale(surplus, item("M-300", value))
    assert case["variables"]["retention_obligation"] is expected
    decision = surplus.decisions(case, "surplus_retention_obligation")[0]
    assert decision["data"]["inputs"]["estimated_value"] == value


def test_audit_report_then_return_required(surplus):
    case = _nonprofit_sale(surplus, item("M-700", "700.00"))
    assert case["variables"]["retention_active_through"] == "2027-05-05"
    surplus.at("2025-01-10 10:00")
    case = surplus.message(case, "audit_report_filed", {"report_number": "IF-1", "breach": False})
    assert not surplus.tasks(case, "decide_return") and case["status"] == "active"
    case = surplus.message(case, "audit_report_filed", {"report_number": "IF-2", "breach": True})
    case = surplus.complete(case, "decide_return", {"require_return": True, "penalty": "multa de $500",
                                                    "reason": "usado para otro fin"}, "comisionado")
    assert (case["outcome"], case["status"]) == ("RETURN_REQUIRED", "completed")
    assert case["variables"]["return_required"]["report_number"] == "IF-2"


def test_retention_running_out_is_fulfilled(surplus):
    case = _nonprofit_sale(surplus, item("M-701", "700.00"))
    surplus.at("2027-05-05 23:00")
    assert surplus.case(case)["status"] == "active"
    surplus.at("2027-05-06 08:00")
    case = surplus.case(case)
    assert (case["outcome"], case["status"]) == ("RETENTION_FULFILLED", "completed")
    assert surplus.message(case, "audit_report_filed", {"report_number": "IF-9", "breach": True},
                           expect=409)["code"] == 409


def test_no_audit_report_before_delivery(surplus):
    surplus.at("2024-04-01 12:30")
    case = surplus.start(item("M-702", "700.00"))
    answer = surplus.message(case, "audit_report_filed", {"report_number": "IF-0", "breach": True}, expect=409)
    assert answer["code"] == 409 and "audit_report_filed" in answer["message"]


def test_producer_payment_instruments_payee_and_fund_split(surplus, producers):
    surplus.at("2024-04-01 12:30")
    case = surplus.start(item("A-4006", "1200.00", utility="agricola"))
    surplus.request(case, requester("F-21", "productor", "F-21", registry_id="F-21"))
    surplus.at("2024-05-14 09:00")
    surplus.complete(case, "set_price", {"fair_market_value": "1200.00", "price": "1200.00",
                                         "processing_costs": "75.00"}, "encargado")
    pay = {"type": "cheque_personal", "amount": "1200.00", "payee": "Secretario de Hacienda", "number": "9"}
    refused = surplus.complete(case, "record_payment", {"instruments": [pay]}, "recaudador", expect=422)
    assert refused["errors"]["rule"] == ["PAYMENT_METHOD_NOT_ALLOWED"]
    refused = surplus.complete(case, "record_payment", {"instruments": [
        {**pay, "type": "giro_postal", "payee": "Comisión"}]}, "recaudador", expect=422)
    assert refused["errors"]["rule"] == ["PAYEE_INVALID"]
    surplus.complete(case, "record_payment", {"instruments": [
        {**pay, "type": "giro_postal", "amount": "200.00"},
        {**pay, "type": "cheque_certificado", "amount": "1000.00", "payee": "secretario de hacienda"}]}, "recaudador")
    receipt = surplus.v(case)["receipts"]["U1"]["receipt_number"]
    case = surplus.complete(case, "deliver_item", {"payment_receipt_number": receipt}, "custodio")
    v = case["variables"]
    assert (case["outcome"], v["retention_obligation"], v["receipt_number"]) == ("SOLD_PRODUCER", False, receipt)
    assert (v["fondo_general"], v["fondo_secretario_hacienda"]) == ("1125.00", "75.00")
