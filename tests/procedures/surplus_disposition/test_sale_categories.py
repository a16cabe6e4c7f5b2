"""The sale cascade (SUR-08…15, SUR-22/23): SUR-S07 (pickup on the last day vs lapse), S10 (a producer
refused for a non-agricultural good, an endorsed non-profit served on arrival), S13 (public auction),
a category exhausted, non-profits without endorsement under both AMB-03 readings."""
from __future__ import annotations

import pytest

from .conftest import item, requester

COAMO = requester("MUN-COAMO", "municipio", "Municipio de Coamo")
SALINAS = requester("MUN-SALINAS", "municipio", "Municipio de Salinas")
HOGAR = requester("HOGAR-SA", "sin_fines_de_lucro", "Hogar Santa Ana, Inc.",
                  endorsement={"regulating_body": "Departamento de la Familia"})
CAT1_PRICE = {"nominal_value": "1.00", "custody_costs": "60.00"}


def _photocopier_with_two_municipalities(surplus):
    surplus.at("2024-06-14 12:30")
    case = surplus.start(item("P-3010", "650.00"))  # claim window closes 2024-06-29 (Sat) → 07-01
    surplus.at("2024-07-01 09:00")
    surplus.request(case, COAMO)
    surplus.at("2024-07-03 15:00")
    surplus.request(case, SALINAS)
    surplus.at("2024-07-08 10:00")
    return case


def test_sur_s07_a_collects_on_the_last_day(surplus):
    case = _photocopier_with_two_municipalities(surplus)
    v = surplus.v(case)
    assert v["stage"] == "CATEGORY_1" and v["buyer"] == "MUN-COAMO"
    case = surplus.complete(case, "set_price", CAT1_PRICE, "encargado")
    assert (case["variables"]["notice_sent_on"], case["variables"]["pickup_deadline"]) == ("2024-07-08", "2024-07-18")
    assert not surplus.tasks(case, "record_payment")  # a government body does not pay the collector first
    surplus.at("2024-07-18 16:00")
    case = surplus.complete(case, "deliver_item", {"transfer_form_number": "TF-7"}, "custodio")
    v = case["variables"]
    assert (case["outcome"], v["buyer"], v["price"], v["disposition"]) == ("SOLD_GOV", "MUN-COAMO", "61.00", "SOLD_GOV")
    # The end state is known at delivery; the case stays open while the retention runs (AMB-13).
    assert (v["retention_obligation"], case["status"]) == (True, "active")
    assert v["units"][0]["buyer"] == "MUN-COAMO" and v["units"][0]["price"] == "61.00"


def test_sur_s07_b_lapse_falls_through_to_the_next_in_the_category(surplus):
    case = _photocopier_with_two_municipalities(surplus)
    surplus.complete(case, "set_price", CAT1_PRICE, "encargado")
    surplus.at("2024-07-18 23:00")
    assert surplus.v(case)["buyer"] == "MUN-COAMO"
    surplus.at("2024-07-19 08:00")
    v = surplus.v(case)
    statuses = {r["request_id"]: r["status"] for r in v["requests"]}
    assert statuses == {"MUN-COAMO": "NO_INTEREST", "MUN-SALINAS": "SELECTED"}
    assert (v["buyer"], v["notice_sent_on"], v["pickup_deadline"], v["price"]) == \
        ("MUN-SALINAS", "2024-07-19", "2024-07-29", "61.00")
    assert not surplus.tasks(case, "set_price")  # same category, same price: the notice goes at once
    surplus.at("2024-07-26 11:00")
    case = surplus.complete(case, "deliver_item", {"transfer_form_number": "TF-8"}, "custodio")
    v = case["variables"]
    assert (v["disposition"], v["buyer"], v["price"]) == ("SOLD_GOV", "MUN-SALINAS", "61.00")
    # A municipality buying at nominal value is bound for three years: $650.00 > $300.00.
    assert v["retention_obligation"] is True and v["retention_free_from"] == "2027-07-26"
    assert (case["outcome"], case["status"]) == ("SOLD_GOV", "active")


def test_sur_s10_producer_refused_endorsed_nonprofit_served_on_arrival(surplus, producers):
    surplus.at("2024-07-30 12:30")
    case = surplus.start(item("P-5002", "450.00"))  # claim window to 08-14, category 1 to 08-30
    surplus.at("2024-08-28 10:00")
    refused = surplus.request(case, requester("F-17", "productor", "F-17", registry_id="F-17"), expect=422)
    assert refused["errors"]["rule"] == ["NOT_ELIGIBLE_CATEGORY"]
    assert surplus.history(case)[-1]["type"] == "message_refused"
    assert surplus.v(case)["requests"] == []
    v = surplus.v(case)
    assert (v["stage"], v["category_window_closes"]) == ("CATEGORY_1", "2024-08-30")
    surplus.at("2024-08-31 09:00")
    assert surplus.v(case)["stage"] == "CATEGORY_3"
    surplus.at("2024-09-03 10:00")
    surplus.request(case, HOGAR)
    case = surplus.complete(case, "set_price", {"nominal_value": "1.00", "maintenance_costs": "40.00",
                                                "storage_costs": "60.00", "repair_costs": "0.00"}, "encargado")
    v = case["variables"]
    assert (v["buyer"], v["price"], v["pickup_deadline"]) == ("HOGAR-SA", "101.00", "2024-09-13")
    refused = surplus.complete(case, "deliver_item", {"transfer_form_number": "TF-9"}, "custodio", expect=422)
    assert refused["errors"]["rule"] == ["DELIVERY_REQUIRES_PAYMENT_RECEIPT"]
    case = surplus.complete(case, "record_payment", {"instruments": [
        {"type": "cheque_personal", "amount": "101.00", "payee": "Comisión", "number": "88"}]}, "recaudador")
    surplus.at("2024-09-10 10:00")
    assert surplus.tasks(case, "deliver_item")  # open from the notice until the pickup deadline
    wrong = surplus.complete(case, "deliver_item", {"payment_receipt_number": "RC-X"}, "custodio", expect=422)
    assert wrong["errors"]["rule"] == ["DELIVERY_REQUIRES_PAYMENT_RECEIPT"]
    issued = [e for e in surplus.history(case) if e["type"] == "decision"
              and e["data"].get("rule") == "surplus_payment_check"]
    assert issued and "SUR-21" in issued[0]["rule_ids"]
    number = surplus.v(case)["receipt_number"]  # known as soon as the Recaudador issues it
    assert number == _receipt(surplus, case)
    case = surplus.complete(case, "deliver_item", {"payment_receipt_number": number,
                                                   "transfer_form_number": "TF-9"}, "custodio")
    v = case["variables"]
    assert (case["outcome"], v["buyer"], v["receipt_number"]) == ("SOLD_NONPROFIT_NOMINAL", "HOGAR-SA", number)
    assert (v["retention_obligation"], v["retention_active_through"], v["retention_free_from"]) == \
        (True, "2027-09-09", "2027-09-10")


def _receipt(surplus, case) -> str:
    receipts = surplus.v(case)["receipts"]
    return next(iter(receipts.values()))["receipt_number"]


def test_sur_s13_nobody_requests_public_auction_case_started(surplus, api):
    surplus.at("2024-04-01 12:30")
    case = surplus.start(item("P-8001", "90.00"))
    surplus.at("2024-05-21 09:00")  # claim window, category 1 and category 3 (05-18 rolls to 05-20) passed
    case = surplus.case(case)
    assert (case["outcome"], case["status"]) == ("SENT_TO_PUBLIC_AUCTION", "completed")
    auction = api.get(f"/api/v1/instances/{case['variables']['auction_case_id']}", "boss")
    assert auction["process_key"] == "bid_adjudication" and auction["variables"]["bid"]["kind"] == "sale"
    assert auction["variables"]["surplus_item"]["inventory_number"] == "P-8001"


def test_a_category_exhausted_moves_to_the_next_category_or_stops_under_stop(surplus):
    surplus.at("2024-04-01 12:30")
    case = surplus.start(item("P-3100", "200.00"))
    surplus.at("2024-04-17 09:00")
    surplus.request(case, COAMO)
    surplus.complete(case, "set_price", CAT1_PRICE, "encargado")  # pickup deadline 04-27 (Sat) → 04-29
    surplus.at("2024-04-30 09:00")
    v = surplus.v(case)
    assert v["requests"][0]["status"] == "NO_INTEREST" and v["stage"] == "CATEGORY_3"
    surplus.param("surplus.onCategoryExhausted", "STOP")
    second = surplus.start(item("P-3101", "200.00"))
    surplus.at("2024-05-16 09:00")
    surplus.request(second, SALINAS)
    surplus.complete(second, "set_price", CAT1_PRICE, "encargado")
    surplus.at("2024-05-28 09:00")
    assert surplus.case(second)["outcome"] == "SENT_TO_PUBLIC_AUCTION"


@pytest.mark.parametrize("rule, expected", [("TREAT_AS_PUBLIC", "SENT_TO_PUBLIC_AUCTION"),
                                            ("MARKET_VALUE_SALE", "SOLD_NONPROFIT_MARKET_VALUE")])
def test_nonprofit_without_endorsement_under_both_readings(surplus, rule, expected):
    surplus.param("surplus.nonprofitWithoutCertification", rule)
    surplus.at("2024-04-01 12:30")
    case = surplus.start(item("P-5100", "150.00"))
    surplus.request(case, requester("CASA-X", "sin_fines_de_lucro", "Casa X"))
    surplus.at("2024-05-03 09:00")  # category 1 closed 05-02; category 3 opens
    if expected == "SENT_TO_PUBLIC_AUCTION":
        surplus.at("2024-05-21 09:00")
        case = surplus.case(case)
        assert case["outcome"] == expected
        assert case["variables"]["requests"][0]["status"] == "NOT_REACHED"
        return
    case = surplus.complete(case, "set_price", {"market_value": "120.00"}, "encargado")
    case = surplus.complete(case, "record_payment", {"instruments": [
        {"type": "giro_postal", "amount": "120.00", "payee": "Comisión"}]}, "recaudador")
    case = surplus.complete(case, "deliver_item", {"payment_receipt_number": _receipt(surplus, case)}, "custodio")
    assert (case["outcome"], case["variables"]["price"]) == (expected, "120.00")
