"""BID-S07 (deserted), BID-S10 (single bidder twice, construction) and the recurring single bidder."""
from __future__ import annotations

from .conftest import offer


def tasks(case):
    return {t["element_id"] for t in case["open_tasks"]}


def test_bid_s07_deserted_then_the_legislatura_authorises_quotes(bids):
    case = bids.open(number="2025-010", offers_due_at="2024-09-10T10:00:00-04:00")
    case = bids.record(case, [])
    assert case["variables"]["bid_status"] == "DESERTED" and tasks(case) == {"deserted_action"}
    case = bids.complete(case, "deserted_action", {"action": "request_quotes_authorization"}, "J1")
    bids.day("2024-09-24")
    case = bids.complete(case, "legislature_decision", {"approved": True, "resolution_number": "2024-15"},
                         "legislatura")
    assert (case["outcome"], case["variables"]["bid_status"], case["status"]) == \
        ("LEGISLATURE_QUOTES_AUTHORIZED", "DESERTED", "completed")


def test_bid_s07_deserted_new_bid_or_quotes_denied(bids):
    new_bid = bids.complete(bids.record(bids.open(), []), "deserted_action", {"action": "new_bid"}, "J1")
    assert new_bid["outcome"] == "NEW_BID_CALLED"
    denied = bids.complete(bids.record(bids.open(), []), "deserted_action",
                           {"action": "request_quotes_authorization"}, "J1")
    denied = bids.complete(denied, "legislature_decision", {"approved": False, "resolution_number": "2024-16"},
                           "legislatura")
    assert denied["outcome"] == "LEGISLATURE_QUOTES_DENIED"


def test_offers_all_late_make_the_bid_deserted(bids):
    case = bids.record(bids.open(), [offer("A", "100.00", received_at="2024-04-10T10:05:00-04:00"),
                                     offer("B", "90.00", received_at="2024-04-10T10:00:01-04:00")])
    assert case["variables"]["offers_status"] == {"A": "LATE", "B": "LATE"}
    assert case["variables"]["bid_status"] == "DESERTED"


CENTRE = {"matter": "centro comunal", "kind": "construction", "estimate": "400000.00",
          "lines": [{"line": 1, "description": "centro comunal"}]}


def test_bid_s10_single_bidder_unreasonable_twice_then_works_by_administration(bids):
    first = bids.played([offer("UNO", "560000.00")], **CENTRE)
    assert tasks(first) == {"assess_single_offer"}
    assert first["variables"]["price_hint"] == {"UNO": {"pct_of_reference": "140.00", "within_hint": False}}
    first = bids.complete(first, "assess_single_offer", {"price_reasonable": False, "reason": "40 % sobre el estimado"},
                          "J1")
    assert (first["outcome"], first["status"]) == ("SECOND_BID_REQUIRED", "completed")
    second = bids.played([offer("UNO", "555000.00")], round=2, previous_case_id=first["id"], **CENTRE)
    second = bids.complete(second, "assess_single_offer",
                           {"price_reasonable": False, "reason": "38 % sobre el estimado"}, "J1")
    assert tasks(second) == {"legislature_decision"}
    second = bids.complete(second, "legislature_decision", {"approved": True, "resolution_number": "2024-30",
                                                            "economic_and_advantageous": True}, "legislatura")
    assert second["outcome"] == "BY_ADMINISTRATION_AUTHORIZED"
    assert second["variables"]["economic_and_advantageous"] is True
    assert second["variables"]["single_bidder_count"] == 2


def test_second_unreasonable_single_offer_outside_construction_goes_to_the_legislatura(bids):
    case = bids.played([offer("UNO", "90000.00")], round=2)
    case = bids.complete(case, "assess_single_offer", {"price_reasonable": False, "reason": "irrazonable"}, "J1")
    assert case["outcome"] == "LEGISLATURE_QUOTES_REQUESTED"
    reasonable = bids.played([offer("UNO", "49000.00")])
    reasonable = bids.complete(reasonable, "assess_single_offer", {"price_reasonable": True, "reason": "razonable"}, "J1")
    assert bids.award_first(reasonable)["variables"]["awardee"] == "UNO"


def test_recurring_single_bidder_reaching_the_threshold_informs_the_mayor(bids):
    counts = []
    for _ in range(2):
        case = bids.played([offer("UNO", "49000.00")])
        counts.append(case["variables"]["single_bidder_count"])
        assert "inform_mayor" not in tasks(case)
    third = bids.played([offer("UNO", "49000.00")])
    counts.append(third["variables"]["single_bidder_count"])
    assert counts == [1, 2, 3]
    # BID-20: the Junta informs the Alcalde, who decides on an investigation, before the bid goes on.
    assert tasks(third) == {"inform_mayor"}
    third = bids.complete(third, "inform_mayor", {"notice_text": "Tres subastas con un solo licitador"}, "J1")
    third = bids.complete(third, "mayor_investigation", {"investigation_ordered": True, "measures": "Auditoría"},
                          "alcalde")
    third = bids.evaluate(third)
    third = bids.complete(third, "assess_single_offer", {"price_reasonable": True, "reason": "razonable"}, "J1")
    third = bids.award_first(third)
    assert (third["outcome"], third["status"]) == ("AWARDED", "completed")
    assert third["variables"]["investigation_ordered"] is True and third["variables"]["awardee"] == "UNO"
    # Competition breaks the streak.
    competed = bids.played([offer("UNO", "49000.00"), offer("DOS", "48000.00")])
    assert competed["variables"]["single_bidder_count"] == 0


def test_documented_single_source_is_a_direct_contract(bids):
    refused = bids.open(expect=422, single_source={"exclusive_certificate": True, "investigation_report_date": None})
    assert refused["errors"]["rule"] == ["SINGLE_SOURCE_NOT_DOCUMENTED"]
    case = bids.open(single_source={"exclusive_certificate": True, "investigation_report_date": "2024-03-15"})
    assert (case["outcome"], case["status"]) == ("DIRECT_CONTRACT_SINGLE_SOURCE", "completed")
