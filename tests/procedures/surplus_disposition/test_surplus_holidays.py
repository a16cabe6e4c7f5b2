"""A holiday declared while a surplus window or pickup period runs (issue 19): the diagram's own
script counted those last days (`last_timely_day`, TC-1/TC-2 by SUR-22 and RULES.md), so a later
holiday on the last day moves them as it moves a decision's deadline, in the calendar or through
the `calendar.holidays` parameter."""
from __future__ import annotations

from .conftest import item, requester

COAMO = requester("MUN-COAMO", "municipio", "Municipio de Coamo")
CAT1_PRICE = {"nominal_value": "1.00", "custody_costs": "60.00"}
DAY = {"name_es": "Cierre por orden ejecutiva", "name_en": "Closure by executive order", "legal_source": "OE-2024-000"}


def _noticed(surplus):
    """A photocopier noticed to Coamo on Monday 8 July 2024: pickup until Thursday 18 July."""
    surplus.at("2024-06-14 12:30")
    case = surplus.start(item("P-3010", "650.00"))
    surplus.at("2024-07-01 09:00")
    surplus.request(case, COAMO)
    surplus.at("2024-07-08 10:00")
    case = surplus.complete(case, "set_price", CAT1_PRICE, "encargado")
    assert case["variables"]["pickup_deadline"] == "2024-07-18"
    return case


def _pickup(surplus, case):
    return [d for d in surplus.case(case)["deadlines"] if d["element_id"] == "pickup_lapsed"]


def test_a_holiday_on_the_pickup_deadline_moves_it_and_the_buyer_collects_the_next_day(surplus):
    case = _noticed(surplus)
    surplus.at("2024-07-10 09:00")
    added = surplus.api.post("/api/v1/holidays", "admin", {"date": "2024-07-18", **DAY}, expect=201)
    assert [(m["element_id"], m["before"], m["after"]) for m in added["deadlines_moved"]] == [
        ("pickup_lapsed", "2024-07-19T04:00:00+00:00", "2024-07-20T04:00:00+00:00")]
    assert surplus.v(case)["pickup_deadline"] == "2024-07-19"
    assert "El jueves 18 de julio de 2024 se declaró feriado (Cierre por orden ejecutiva)" in \
        _pickup(surplus, case)[0]["explanation"]
    surplus.at("2024-07-19 08:00")  # the old lapse instant passed: Coamo is still the buyer
    assert surplus.v(case)["buyer"] == "MUN-COAMO"
    assert {r["request_id"]: r["status"] for r in surplus.v(case)["requests"]} == {"MUN-COAMO": "SELECTED"}
    surplus.at("2024-07-19 16:00")
    done = surplus.complete(case, "deliver_item", {"transfer_form_number": "TF-7"}, "custodio")
    assert done["variables"]["disposition"] == "SOLD_GOV"


def test_a_parameter_holiday_on_the_claim_window_moves_it_once(surplus):
    surplus.at("2024-06-14 12:30")
    case = surplus.start(item("P-3011", "650.00"))  # claim window: 29 June (Sat) → Monday 1 July
    assert surplus.v(case)["claim_window_closes"] == "2024-07-01"
    surplus.at("2024-06-20 09:00")
    surplus.api.put("/api/v1/parameters/calendar.holidays", "admin", {"value": ["2024-07-01"]})
    assert surplus.v(case)["claim_window_closes"] == "2024-07-02"
    assert [d["due_at"] for d in surplus.case(case)["deadlines"] if d["element_id"] == "claim_window_over"] == [
        "2024-07-03T04:00:00+00:00"]
    surplus.api.put("/api/v1/parameters/calendar.holidays", "admin", {"value": []})  # never earlier
    assert surplus.v(case)["claim_window_closes"] == "2024-07-02"
    assert len([e for e in surplus.history(case) if e["type"] == "deadline_holiday"]) == 1
