"""Category 2, sale to registered producers (SUR-11/12, FAR-14…26): FAR-S16 (units one by one, a
witnessed lottery), a recorded cryptographic draw, FAR-S19 (discount table), FAR-S22 (unregistered
producer), notices to ACTIVE producers of the matching type, duplicate requests."""
from __future__ import annotations

from .conftest import item, requester

PRODUCER_PAY = {"type": "cheque_certificado", "payee": "Secretario de Hacienda", "number": "77"}


def producer(rid, **extra):
    return requester(rid, "productor", f"Productor {rid}", registry_id=rid, **extra)


def _pumps_to_category_two(surplus):
    surplus.at("2024-04-01 12:30")
    case = surplus.start(item("A-4100", "3600.00", utility="agricola", units=("U1", "U2", "U3")))
    surplus.at("2024-05-03 09:00")  # claim window to 04-16, category 1 to 05-02: producers' notices today
    return case


def _sell(surplus, case, task, fmv="1200.00", **price):
    surplus.complete(case, "set_price", {"fair_market_value": fmv, "price": fmv, "processing_costs": "50.00",
                                         **price}, "encargado", task=task)


def test_far_s16_units_sold_one_by_one_with_a_witnessed_lottery(surplus, producers):
    case = _pumps_to_category_two(surplus)
    v = surplus.v(case)
    assert v["stage"] == "CATEGORY_2" and v["request_window_closes"] == "2024-05-13"
    assert set(v["producer_notices_sent"]) == {"F-17", "F-21", "F-22", "F-23", "F-31", "F-32", "F-50"}  # not F-40
    surplus.at("2024-05-06 10:00")
    surplus.request(case, producer("F-31"), units=["U1", "U2", "U3"])
    surplus.at("2024-05-07 10:00")
    surplus.request(case, producer("F-32"), units=["U2"])
    surplus.at("2024-05-14 09:00")
    assert len(surplus.tasks(case, "set_price")) == 2 and len(surplus.tasks(case, "draw_lottery")) == 1
    refused = surplus.complete(case, "draw_lottery", {"unit_id": "U2", "witnessed_result": "F-17"}, "encargado",
                               expect=422)
    assert refused["errors"]["rule"] == ["LOTTERY_RESULT_INVALID"]
    surplus.complete(case, "draw_lottery", {"unit_id": "U2", "witnessed_result": "F-32"}, "encargado")
    assert [(d["lot_id"], d["winner"]) for d in surplus.v(case)["lotteries"]] == [("U2", "F-32")]
    tasks = surplus.tasks(case, "set_price")
    assert len(tasks) == 3
    refused = surplus.complete(case, "set_price", {"fair_market_value": "1200.00", "price": "2400.00",
                                                   "units": ["U1", "U3"]}, "encargado", expect=422, task=tasks[0])
    assert refused["errors"]["rule"] == ["UNITS_MUST_BE_SOLD_INDIVIDUALLY"]
    too_high = surplus.complete(case, "set_price", {"fair_market_value": "1200.00", "price": "1200.01"},
                                "encargado", expect=422, task=tasks[0])
    assert too_high["errors"]["rule"] == ["PRICE_EXCEEDS_FMV"]
    for task in tasks:
        _sell(surplus, case, task)
    for task in surplus.tasks(case, "record_payment"):
        surplus.complete(case, "record_payment", {"instruments": [{**PRODUCER_PAY, "amount": "1200.00"}]},
                         "recaudador", task=task)
    receipts = surplus.v(case)["receipts"]
    assert sorted(receipts) == ["U1", "U2", "U3"] and len({r["receipt_number"] for r in receipts.values()}) == 3
    surplus.at("2024-05-16 10:00")
    for _ in range(3):  # the open deliveries do not say their unit: the right receipt is accepted
        _deliver_one(surplus, case, [r["receipt_number"] for r in receipts.values()])
    case = surplus.case(case)
    v = case["variables"]
    assert case["outcome"] == "SOLD_PRODUCER" and case["status"] == "completed"
    assert [(u["unit_id"], u["buyer"], u["price"]) for u in v["units"]] == \
        [("U1", "F-31", "1200.00"), ("U2", "F-32", "1200.00"), ("U3", "F-31", "1200.00")]
    assert len({u["receipt_number"] for u in v["units"]}) == 3
    assert (v["fondo_general"], v["fondo_secretario_hacienda"]) == ("3450.00", "150.00")
    assert v["lotteries"][0]["winner"] == "F-32" and v["lotteries"][0]["method"] == "WITNESSED"
    lottery = [e for e in surplus.history(case) if e["type"] == "lottery"]
    assert lottery and lottery[0]["data"]["participants"] == ["F-31", "F-32"] and "FAR-20" in lottery[0]["rule_ids"]


def test_lottery_without_a_witnessed_result_is_drawn_and_recorded(surplus, producers):
    case = _pumps_to_category_two(surplus)
    surplus.request(case, producer("F-21"), units=["U1"])
    surplus.request(case, producer("F-22"), units=["U1"])
    surplus.at("2024-05-14 09:00")
    case = surplus.complete(case, "draw_lottery", {"unit_id": "U1"}, "encargado")
    drawn = next(e for e in surplus.history(case) if e["type"] == "lottery")["data"]
    assert drawn["participants"] == ["F-21", "F-22"] and drawn["seed"] and drawn["winner"] in ("F-21", "F-22")
    assert surplus.v(case)["buyer"] == drawn["winner"]


def test_far_s22_unregistered_producer_refused_sole_registered_buys(surplus, producers):
    case = _pumps_to_category_two(surplus)
    surplus.at("2024-05-06 09:00")
    refused = surplus.request(case, producer("RAUL-MENDEZ"), expect=422)
    assert refused["errors"]["rule"] == ["NOT_REGISTERED"]
    surplus.request(case, producer("F-23"), units=["U1"])
    assert surplus.request(case, producer("F-23"), expect=409)["errors"]["rule"] == ["DUPLICATE_REQUEST"]
    surplus.at("2024-05-14 09:00")
    assert not surplus.tasks(case, "draw_lottery")
    assert surplus.v(case)["buyer"] == "F-23"
    refusals = [e for e in surplus.history(case) if e["type"] == "message_refused"]
    assert [r["data"]["code"] for r in refusals] == ["NOT_REGISTERED", "DUPLICATE_REQUEST"]


def test_far_s19_discount_by_income_and_household(surplus, producers):
    case = _pumps_to_category_two(surplus)
    surplus.request(case, producer("F-50", household_size=5, annual_income="18000.00"), units=["U1"])
    surplus.at("2024-05-14 09:00")
    case = surplus.complete(case, "set_price", {"fair_market_value": "9000.00", "price": "9000.00",
                                                "discount_requested": True}, "encargado")
    assert case["variables"]["price"] == "9000.00"  # no discount table by default
    surplus.param("farmer.discountTable", [{"minHousehold": 5, "maxIncome": "19999.99", "pct": 25}])
    second = _second_case(surplus)
    second = surplus.complete(second, "set_price", {"fair_market_value": "9000.00", "price": "9000.00",
                                                    "discount_requested": True}, "encargado")
    assert second["variables"]["price"] == "6750.00"


def _second_case(surplus):
    case = surplus.start(item("A-4005", "9000.00", utility="agricola"))
    surplus.at("2024-06-15 09:00")
    assert surplus.v(case)["stage"] == "CATEGORY_2"
    surplus.request(case, producer("F-50", household_size=5, annual_income="18000.00"))
    surplus.at("2024-06-30 09:00")
    return case


def _deliver_one(surplus, case, receipts):
    for task in surplus.tasks(case, "deliver_item"):
        for number in receipts:
            answer = surplus.api.post(f"/api/v1/tasks/{task['id']}/complete", "custodio",
                                      {"data": {"payment_receipt_number": number}}, expect=None)
            if "instance" in answer:
                return
    raise AssertionError("no delivery accepted a receipt")
